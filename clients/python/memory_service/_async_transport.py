"""The asyncio transport (AsyncMemoryService's): as the blocking one, awaited."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, cast

import httpx

from ._base import NOT_GIVEN, NotGiven, RequestOptions
from ._errors import APIConnectionError, APIStatusError
from ._response import connection_error
from ._retry import is_safe
from ._transport_base import BodyFactory, TransportBase, body_of


class AsyncTransport(TransportBase):
    def __init__(self, *, http_client: httpx.AsyncClient | None = None, **settings: Any) -> None:
        super().__init__(**settings)
        self.owns_http_client = http_client is None
        self.http = http_client if http_client is not None else httpx.AsyncClient()

    async def close(self) -> None:
        if self.owns_http_client:
            await self.http.aclose()

    @asynccontextmanager
    async def stream(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, object] | None = None,
        body: BodyFactory | None = None,
        keyed: bool = False,
        idempotency_key: str | None | NotGiven = NOT_GIVEN,
        replayable: bool = True,
        options: RequestOptions = RequestOptions(),
    ) -> AsyncIterator[httpx.Response]:
        """As SyncTransport.stream."""
        key = self.idempotency_key(keyed, idempotency_key)
        safe = is_safe(method, key)
        attempt = 0
        while True:
            json_body, content = body_of(body)
            request = self.http.build_request(
                method,
                self.base_url + path,
                params=cast(Any, query) or None,
                json=json_body,
                content=content,
                headers=self.headers(options, key),
                timeout=self.timeout_of(options),
            )
            error: APIStatusError | APIConnectionError
            try:
                response = await self.http.send(request, stream=True)
            except httpx.TransportError as e:
                error = connection_error(e, request)
            else:
                if response.status_code < 400:
                    try:
                        yield response
                    finally:
                        await response.aclose()
                    return
                try:
                    await response.aread()
                    self.parse(response)
                except APIStatusError as e:
                    error = e
                finally:
                    await response.aclose()
            wait = self.retry_wait(attempt, error, safe, replayable)
            if wait is None:
                raise error
            await asyncio.sleep(wait)
            attempt += 1

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, object] | None = None,
        body: object = None,
        keyed: bool = False,
        idempotency_key: str | None | NotGiven = NOT_GIVEN,
        options: RequestOptions = RequestOptions(),
    ) -> Any:
        envelope = await self.envelope(
            method, path, query=query, body=body, keyed=keyed, idempotency_key=idempotency_key, options=options
        )
        return envelope["data"]

    async def envelope(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, object] | None = None,
        body: object = None,
        keyed: bool = False,
        idempotency_key: str | None | NotGiven = NOT_GIVEN,
        options: RequestOptions = RequestOptions(),
    ) -> dict[str, Any]:
        factory: BodyFactory | None = None if body is None else (lambda: (body, None))
        async with self.stream(
            method, path, query=query, body=factory, keyed=keyed, idempotency_key=idempotency_key, options=options
        ) as response:
            await response.aread()
            envelope: dict[str, Any] = self.parse(response)
            return envelope
