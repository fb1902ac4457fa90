"""Lists as iterators: iterating a list call yields every item, asking for the next page as it goes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from ._base import RequestOptions
from ._transport import AsyncTransport, SyncTransport

T = TypeVar("T")

__all__ = ["Page", "SyncPaginator", "AsyncPaginator"]


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page: its items and the list's `meta` (`total` counts every matching item, on all pages)."""

    items: list[T]
    total: int
    limit: int
    offset: int
    has_more: bool
    request_id: str

    @property
    def next_offset(self) -> int | None:
        return self.offset + len(self.items) if self.has_more and self.items else None


def _page(envelope: dict[str, Any]) -> Page[Any]:
    meta = envelope["meta"]
    return Page(
        items=list(envelope["data"]),
        total=meta["total"],
        limit=meta["limit"],
        offset=meta["offset"],
        has_more=meta["has_more"],
        request_id=meta["request_id"],
    )


class _Paginator:
    def __init__(self, path: str, query: Mapping[str, object] | None, options: RequestOptions) -> None:
        self.path = path
        self.query = dict(query or {})
        self.options = options

    def _query(self, offset: int | None) -> dict[str, object]:
        return self.query if offset is None else {**self.query, "offset": offset}


class SyncPaginator(_Paginator, Generic[T]):
    """`for item in client.memories.list(...)`: every item, page by page (`limit` items a request, 50 unless
    given). `.page()` is one page; `.pages()` yields the pages."""

    def __init__(
        self, client: SyncTransport, path: str, query: Mapping[str, object] | None, options: RequestOptions
    ) -> None:
        super().__init__(path, query, options)
        self._client = client

    def page(self, offset: int | None = None) -> Page[T]:
        """The page at `offset` (default: the list's `offset`, else 0)."""
        envelope = self._client.envelope("GET", self.path, query=self._query(offset), options=self.options)
        return cast("Page[T]", _page(envelope))

    def pages(self) -> Iterator[Page[T]]:
        page = self.page()
        yield page
        while page.next_offset is not None:
            page = self.page(page.next_offset)
            yield page

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.items


class AsyncPaginator(_Paginator, Generic[T]):
    """`async for item in client.memories.list(...)`: as SyncPaginator, on the async client."""

    def __init__(
        self, client: AsyncTransport, path: str, query: Mapping[str, object] | None, options: RequestOptions
    ) -> None:
        super().__init__(path, query, options)
        self._client = client

    async def page(self, offset: int | None = None) -> Page[T]:
        envelope = await self._client.envelope("GET", self.path, query=self._query(offset), options=self.options)
        return cast("Page[T]", _page(envelope))

    async def pages(self) -> AsyncIterator[Page[T]]:
        page = await self.page()
        yield page
        while page.next_offset is not None:
            page = await self.page(page.next_offset)
            yield page

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page.items:
                yield item
