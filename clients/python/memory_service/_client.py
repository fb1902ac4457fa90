"""The clients: MemoryService (blocking) and AsyncMemoryService (asyncio), with the same resources."""

from __future__ import annotations

from collections.abc import Mapping
from types import TracebackType
from typing import Any

import httpx

from ._base import Timeout
from ._transport import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_MAX_RETRY_WAIT,
    DEFAULT_TIMEOUT,
    AsyncTransport,
    SyncTransport,
)
from .generated.resources import AsyncRoot, Root

__all__ = ["MemoryService", "AsyncMemoryService"]


class MemoryService(Root):
    """The Memory Storage Service's client.

    `api_key` defaults to MEMORY_SERVICE_API_KEY, `base_url` to MEMORY_SERVICE_URL (else http://127.0.0.1:3000).
    `timeout`: seconds, or an httpx.Timeout (default 60 s, 5 s to connect); every method takes `timeout=` too.
    `max_retries`: more attempts after a 429, a 5xx or a connection error (see the README's "Retries").
    `max_retry_wait`: a 429 whose window frees later than this many seconds is raised, not waited for.
    `http_client`: your own httpx.Client (proxies, transports, event hooks); the client then leaves closing it to
    you. Use it as a context manager, or call close().
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | httpx.URL | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        max_retry_wait: float = DEFAULT_MAX_RETRY_WAIT,
        default_headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
    ) -> None:
        transport = SyncTransport(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            default_headers=default_headers,
            http_client=http_client,
        )
        super().__init__(transport)

    @property
    def base_url(self) -> str:
        return self._client.base_url

    def with_options(self, **changes: Any) -> MemoryService:
        """A client like this one with some settings changed (`timeout`, `max_retries`, `max_retry_wait`,
        `api_key`, `base_url`, `default_headers`), sharing its HTTP connections."""
        t = self._client
        settings: dict[str, Any] = {
            "api_key": t.api_key,
            "base_url": t.base_url,
            "timeout": t.timeout,
            "max_retries": t.max_retries,
            "max_retry_wait": t.max_retry_wait,
            "default_headers": t.default_headers,
            **changes,
        }
        client = MemoryService(http_client=t.http, **settings)
        client._client.owns_http_client = False
        return client

    def close(self) -> None:
        """Closes the HTTP connections (not those of an http_client you passed)."""
        self._client.close()

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class AsyncMemoryService(AsyncRoot):
    """As MemoryService, for asyncio: every method is awaited, lists are async iterators, and `http_client` is
    an httpx.AsyncClient. Use it with `async with`, or await aclose()."""

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | httpx.URL | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        max_retry_wait: float = DEFAULT_MAX_RETRY_WAIT,
        default_headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        transport = AsyncTransport(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            max_retry_wait=max_retry_wait,
            default_headers=default_headers,
            http_client=http_client,
        )
        super().__init__(transport)

    @property
    def base_url(self) -> str:
        return self._client.base_url

    def with_options(self, **changes: Any) -> AsyncMemoryService:
        """As MemoryService.with_options."""
        t = self._client
        settings: dict[str, Any] = {
            "api_key": t.api_key,
            "base_url": t.base_url,
            "timeout": t.timeout,
            "max_retries": t.max_retries,
            "max_retry_wait": t.max_retry_wait,
            "default_headers": t.default_headers,
            **changes,
        }
        client = AsyncMemoryService(http_client=t.http, **settings)
        client._client.owns_http_client = False
        return client

    async def aclose(self) -> None:
        await self._client.close()

    async def __aenter__(self) -> AsyncMemoryService:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()
