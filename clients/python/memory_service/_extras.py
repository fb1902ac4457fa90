"""Methods the OpenAPI document cannot describe, mixed into the generated resources: a memory's thread and tags,
and the streamed NDJSON export and import (docs/api.md, "Export, import and erase")."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from typing import cast

import httpx

from ._base import NOT_GIVEN, NotGiven, RequestOptions, Timeout, _given, _path
from ._errors import APIConnectionError
from ._ndjson import (
    AsyncImportSource,
    ExportRecord,
    ExportState,
    ImportCounts,
    ImportLineError,
    ImportReport,
    ImportSource,
    export_record,
    import_body,
)
from ._pagination import AsyncPaginator, SyncPaginator
from ._transport import AsyncTransport, BodyFactory, SyncTransport
from .generated.models import Memory, TagRef

# The NDJSON types stay importable from here, as before.
__all__ = ["ExportRecord", "ImportCounts", "ImportLineError", "ImportReport", "ImportSource", "AsyncImportSource"]


class RootExtras:
    _client: SyncTransport

    def export(
        self,
        *,
        cursor: str | None = None,
        limit: int | NotGiven = NOT_GIVEN,
        timeout: Timeout | NotGiven = NOT_GIVEN,
    ) -> Iterator[ExportRecord]:
        """Every tag, entity and memory of the key's tenant environment (`admin`), as NDJSON records: tags, then
        entities, then memories, parent before child, with `cursor` records between pages and an `end` record
        last. Streamed: memory use stays flat whatever the size. A cut connection resumes from the last cursor
        (up to `max_retries` times in a row). `cursor` starts from an earlier export's cursor record."""
        state = ExportState(cursor, limit)
        failures = 0
        while not state.done:
            try:
                with self._client.stream(
                    "GET", "/v1/export", query=state.query(), options=RequestOptions(timeout=timeout)
                ) as response:
                    for line in response.iter_lines():
                        record = export_record(line)
                        if record is not None:
                            for out in state.take(record):
                                failures = 0
                                yield out
            except (httpx.TransportError, APIConnectionError) as e:
                failures += 1
                if failures > self._client.max_retries:
                    raise APIConnectionError(f"The export was cut: {e}") from e
                state.pending = []
                continue
            if not state.done:
                failures += 1
                if failures > self._client.max_retries:
                    raise APIConnectionError("The export ended before its end record")
                state.pending = []

    def import_(
        self,
        source: ImportSource,
        *,
        idempotency_key: str | None | NotGiven = NOT_GIVEN,
        timeout: Timeout | NotGiven = NOT_GIVEN,
    ) -> ImportReport:
        """Imports an export's NDJSON (`admin`), streamed as it is read: bytes, a file path, a binary file, or
        an iterable of records or lines. Importing is idempotent (what went in before is `existing`), so a
        source that can be read again (bytes, a path, a list) is sent again after a connection error or 5xx.
        Up to 64 MiB per call. Bad lines do not stop it: they are in the report's `errors`."""
        body, replayable = import_body(source)
        with self._client.stream(
            "POST",
            "/v1/import",
            body=body,
            keyed=replayable,
            idempotency_key=idempotency_key,
            replayable=replayable,
            options=RequestOptions(timeout=timeout, extra_headers={"Content-Type": "application/x-ndjson"}),
        ) as response:
            response.read()
            return cast(ImportReport, self._client.parse(response)["data"])


class AsyncRootExtras:
    _client: AsyncTransport

    async def export(
        self,
        *,
        cursor: str | None = None,
        limit: int | NotGiven = NOT_GIVEN,
        timeout: Timeout | NotGiven = NOT_GIVEN,
    ) -> AsyncIterator[ExportRecord]:
        """As MemoryService.export: `async for record in client.export()`."""
        state = ExportState(cursor, limit)
        failures = 0
        while not state.done:
            try:
                async with self._client.stream(
                    "GET", "/v1/export", query=state.query(), options=RequestOptions(timeout=timeout)
                ) as response:
                    async for line in response.aiter_lines():
                        record = export_record(line)
                        if record is not None:
                            for out in state.take(record):
                                failures = 0
                                yield out
            except (httpx.TransportError, APIConnectionError) as e:
                failures += 1
                if failures > self._client.max_retries:
                    raise APIConnectionError(f"The export was cut: {e}") from e
                state.pending = []
                continue
            if not state.done:
                failures += 1
                if failures > self._client.max_retries:
                    raise APIConnectionError("The export ended before its end record")
                state.pending = []

    async def import_(
        self,
        source: AsyncImportSource,
        *,
        idempotency_key: str | None | NotGiven = NOT_GIVEN,
        timeout: Timeout | NotGiven = NOT_GIVEN,
    ) -> ImportReport:
        """As MemoryService.import_; also takes an async iterable of lines."""
        if isinstance(source, AsyncIterable):
            lines = source

            async def stream() -> AsyncIterator[bytes]:
                async for line in lines:
                    yield line if line.endswith(b"\n") else line + b"\n"

            body: BodyFactory = lambda: (None, stream())  # noqa: E731
            replayable = False
        else:
            sync_body, replayable = import_body(source)

            async def chunks() -> AsyncIterator[bytes]:
                content = sync_body()[1]
                if isinstance(content, bytes):
                    yield content
                    return
                for chunk in content:
                    yield chunk

            body = lambda: (None, chunks())  # noqa: E731
        async with self._client.stream(
            "POST",
            "/v1/import",
            body=body,
            keyed=replayable,
            idempotency_key=idempotency_key,
            replayable=replayable,
            options=RequestOptions(timeout=timeout, extra_headers={"Content-Type": "application/x-ndjson"}),
        ) as response:
            await response.aread()
            return cast(ImportReport, self._client.parse(response)["data"])


def _thread_query(memory_id: str, limit: int | NotGiven) -> dict[str, object]:
    return _given({"parent_memory_id": memory_id, "sort": "occurred_at", "order": "asc", "limit": limit})


class MemoriesExtras:
    _client: SyncTransport

    def thread(
        self,
        memory_id: str,
        /,
        *,
        limit: int | NotGiven = NOT_GIVEN,
        timeout: Timeout | NotGiven = NOT_GIVEN,
    ) -> SyncPaginator[Memory]:
        """A memory's children in thread order (`occurred_at`, then `created_at`, then id): a conversation's
        turns under its root. `limit` is the page size."""
        options = RequestOptions(timeout=timeout)
        return SyncPaginator[Memory](self._client, "/v1/memories", _thread_query(memory_id, limit), options)


class AsyncMemoriesExtras:
    _client: AsyncTransport

    def thread(
        self,
        memory_id: str,
        /,
        *,
        limit: int | NotGiven = NOT_GIVEN,
        timeout: Timeout | NotGiven = NOT_GIVEN,
    ) -> AsyncPaginator[Memory]:
        """As MemoryService.memories.thread: `async for turn in client.memories.thread(root_id)`."""
        options = RequestOptions(timeout=timeout)
        return AsyncPaginator[Memory](self._client, "/v1/memories", _thread_query(memory_id, limit), options)


class MemoryTagsExtras:
    _client: SyncTransport

    def list(self, memory_id: str, /, *, timeout: Timeout | NotGiven = NOT_GIVEN) -> builtins.list[TagRef]:
        """The tags attached to a memory, sorted by name."""
        memory = self._client.request("GET", f"/v1/memories/{_path(memory_id)}", options=RequestOptions(timeout))
        return cast(Memory, memory)["tags"]


class AsyncMemoryTagsExtras:
    _client: AsyncTransport

    async def list(self, memory_id: str, /, *, timeout: Timeout | NotGiven = NOT_GIVEN) -> builtins.list[TagRef]:
        """The tags attached to a memory, sorted by name."""
        path = f"/v1/memories/{_path(memory_id)}"
        memory = await self._client.request("GET", path, options=RequestOptions(timeout))
        return cast(Memory, memory)["tags"]

