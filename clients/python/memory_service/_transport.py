"""HTTP for both clients: the envelope, errors by `error.code`, and the retry rules.

Retry rules (at most `max_retries` more attempts, 2 by default):
- 429 RATE_LIMITED: a refusal before anything ran, so any request is sent again, once the window frees capacity
  (X-RateLimit-Reset, or Retry-After); a wait longer than `max_retry_wait` raises at once instead.
- 409 IDEMPOTENCY_IN_FLIGHT: the same keyed request still runs; asked again after a backoff.
- 5xx and connection errors / timeouts: only when repeating is safe: GET, PUT and DELETE, and POST/PATCH that
  carry an Idempotency-Key. The client adds a key to every write whose route takes one, so those are retried;
  the routes that refuse a key (creating or rotating an API key, creating a webhook or rotating its secret) are
  not. Backoff: 0.5 s, 1 s, 2 s… (at most 8 s), each less up to a quarter at random, so clients spread out.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any, cast

import httpx

from ._base import NOT_GIVEN, NotGiven, RequestOptions, Timeout
from ._errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    MemoryServiceError,
    PermissionDeniedError,
    ServerError,
    TooManyRequestsError,
    UnprocessableEntityError,
)
from ._version import __version__
from .generated.errors import ERROR_CLASSES, RETRYABLE_CODES

DEFAULT_BASE_URL = "http://127.0.0.1:3000"
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=5.0)
DEFAULT_MAX_RETRIES = 2
# A 429 whose window frees later than this is raised rather than slept through.
DEFAULT_MAX_RETRY_WAIT = 60.0
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
IDEMPOTENCY_HEADER = "Idempotency-Key"

_STATUS_CLASSES: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: TooManyRequestsError,
}

# A body factory gives the request body afresh for each attempt: (json, content) — one of them None.
BodyFactory = Callable[[], tuple[object, Any]]


def error_from_response(response: httpx.Response, body: object) -> APIStatusError:
    """The exception of an error answer: the class of its `error.code`, else of its status."""
    status = response.status_code
    error = body.get("error") if isinstance(body, dict) else None
    meta = body.get("meta") if isinstance(body, dict) else None
    request_id = (meta or {}).get("request_id") if isinstance(meta, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        code: str = error["code"]
        message = str(error.get("message", ""))
        details = error.get("details") if isinstance(error.get("details"), dict) else None
    else:
        code, message, details = f"HTTP_{status}", response.reason_phrase or "error", None
    fallback = _STATUS_CLASSES.get(status) or (ServerError if status >= 500 else APIStatusError)
    cls = ERROR_CLASSES.get(code) or fallback
    return cls(
        message,
        status=status,
        code=code,
        details=details,
        request_id=request_id or response.headers.get("x-request-id"),
        headers=response.headers,
        body=body,
    )


def backoff(attempt: int) -> float:
    delay: float = min(0.5 * 2.0**attempt, 8.0)
    return delay * (1 - 0.25 * random.random())


def retry_after(headers: httpx.Headers) -> float | None:
    raw = headers.get("retry-after")
    try:
        return float(raw) if raw else None
    except ValueError:
        return None


def rate_limit_wait(headers: httpx.Headers, attempt: int) -> float:
    """Seconds until the window frees capacity: the later of X-RateLimit-Reset and Retry-After."""
    waits = []
    reset = headers.get("x-ratelimit-reset")
    if reset and reset.isdigit():
        waits.append(int(reset) - time.time())
    after = retry_after(headers)
    if after is not None:
        waits.append(after)
    # Reset is whole seconds: a little past it, the window has surely moved.
    return max(waits) + 0.1 if waits else backoff(attempt)


class TransportBase:
    """Settings and the decisions both transports share; the subclasses only do the I/O."""

    def __init__(
        self,
        *,
        api_key: str | None,
        base_url: str | httpx.URL | None,
        timeout: Timeout,
        max_retries: int,
        max_retry_wait: float,
        default_headers: Mapping[str, str] | None,
    ) -> None:
        api_key = api_key if api_key is not None else os.environ.get("MEMORY_SERVICE_API_KEY")
        if not api_key:
            raise MemoryServiceError(
                "No API key: pass api_key= or set MEMORY_SERVICE_API_KEY (a key such as svc_live_…)"
            )
        self.api_key = api_key
        url = base_url if base_url is not None else os.environ.get("MEMORY_SERVICE_URL") or DEFAULT_BASE_URL
        self.base_url = str(url).rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.default_headers = dict(default_headers or {})

    def headers(self, options: RequestOptions, key: str | None) -> dict[str, str]:
        headers = {
            "Authorization": f"Bearer {self.api_key}",
            "Accept": "application/json",
            "User-Agent": f"memory-service-python/{__version__}",
            **self.default_headers,
            **(options.extra_headers or {}),
        }
        if key is not None:
            headers[IDEMPOTENCY_HEADER] = key
        return headers

    def timeout_of(self, options: RequestOptions) -> Timeout:
        return self.timeout if isinstance(options.timeout, NotGiven) else options.timeout

    @staticmethod
    def idempotency_key(keyed: bool, given: str | None | NotGiven) -> str | None:
        """The key a write carries: the caller's, else a fresh one for every route that takes one (None: no key,
        so the write is not retried after a 5xx or a connection error)."""
        if not isinstance(given, NotGiven):
            return given
        return str(uuid.uuid4()) if keyed else None

    def retry_wait(
        self,
        attempt: int,
        error: APIStatusError | APIConnectionError,
        safe: bool,
        replayable: bool,
    ) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None when the error is to be raised."""
        if attempt >= self.max_retries or not replayable:
            return None
        if isinstance(error, APIConnectionError):
            return backoff(attempt) if safe else None
        if error.status == 429:
            wait = rate_limit_wait(error.headers, attempt)
            return wait if wait <= self.max_retry_wait else None
        if error.code == "IDEMPOTENCY_IN_FLIGHT":
            return backoff(attempt)
        if safe and (error.status >= 500 or error.code in RETRYABLE_CODES):
            after = retry_after(error.headers)
            return min(after, self.max_retry_wait) if after is not None else backoff(attempt)
        return None

    @staticmethod
    def parse(response: httpx.Response) -> Any:
        """The envelope of a success, or the exception of an error answer."""
        try:
            body = response.json()
        except ValueError:
            body = response.text
        if response.status_code >= 400:
            raise error_from_response(response, body)
        if not isinstance(body, dict) or "data" not in body:
            raise APIStatusError(
                "The answer is not an envelope",
                status=response.status_code,
                code="INVALID_RESPONSE",
                request_id=response.headers.get("x-request-id"),
                headers=response.headers,
                body=body,
            )
        return body


def _connection_error(e: httpx.TransportError, request: httpx.Request | None) -> APIConnectionError:
    if isinstance(e, httpx.TimeoutException):
        return APITimeoutError(f"Request timed out: {e}", request=request)
    return APIConnectionError(f"Connection error: {e}", request=request)


def _body(json_body: object, body: BodyFactory | None) -> tuple[object, Any]:
    return body() if body is not None else (json_body, None)


class SyncTransport(TransportBase):
    def __init__(self, *, http_client: httpx.Client | None = None, **settings: Any) -> None:
        super().__init__(**settings)
        self.owns_http_client = http_client is None
        self.http = http_client if http_client is not None else httpx.Client()

    def close(self) -> None:
        if self.owns_http_client:
            self.http.close()

    @contextmanager
    def stream(
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
    ) -> Iterator[httpx.Response]:
        """A successful answer, its body not read yet (the caller iterates it); errors raised, retried first."""
        key = self.idempotency_key(keyed, idempotency_key)
        safe = method in SAFE_METHODS or key is not None
        attempt = 0
        while True:
            json_body, content = _body(None, body)
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
                response = self.http.send(request, stream=True)
            except httpx.TransportError as e:
                error = _connection_error(e, request)
            else:
                if response.status_code < 400:
                    try:
                        yield response
                    finally:
                        response.close()
                    return
                try:
                    response.read()
                    self.parse(response)
                except APIStatusError as e:
                    error = e
                finally:
                    response.close()
            wait = self.retry_wait(attempt, error, safe, replayable)
            if wait is None:
                raise error
            time.sleep(wait)
            attempt += 1

    def request(
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
        """The `data` of the answer."""
        envelope = self.envelope(
            method, path, query=query, body=body, keyed=keyed, idempotency_key=idempotency_key, options=options
        )
        return envelope["data"]

    def envelope(
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
        """The whole envelope (`data` and `meta`) of the answer."""
        factory: BodyFactory | None = None if body is None else (lambda: (body, None))
        with self.stream(
            method, path, query=query, body=factory, keyed=keyed, idempotency_key=idempotency_key, options=options
        ) as response:
            response.read()
            envelope: dict[str, Any] = self.parse(response)
            return envelope


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
        safe = method in SAFE_METHODS or key is not None
        attempt = 0
        while True:
            json_body, content = _body(None, body)
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
                error = _connection_error(e, request)
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


def dumps_line(record: Mapping[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
