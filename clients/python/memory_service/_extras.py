"""Methods the OpenAPI document cannot describe, mixed into the generated resources: a memory's thread and tags,
and the streamed NDJSON export and import (docs/api.md, "Export, import and erase")."""

from __future__ import annotations

import builtins
import json
import os
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, TypeAlias, TypedDict, cast

import httpx

from ._base import NOT_GIVEN, NotGiven, RequestOptions, Timeout, _given, _path
from ._errors import APIConnectionError, APIStatusError
from ._pagination import AsyncPaginator, SyncPaginator
from ._transport import AsyncTransport, BodyFactory, SyncTransport, dumps_line
from .generated.models import Memory, TagRef

__all__ = ["ExportRecord", "ImportCounts", "ImportLineError", "ImportReport", "ImportSource", "AsyncImportSource"]

# One line of an export: {"type": "tag" | "entity" | "memory" | "cursor" | "end", ...}.
ExportRecord: TypeAlias = dict[str, Any]
_CHUNK = 1 << 16


class ImportCounts(TypedDict):
    tags: int
    entities: int
    memories: int


class ImportLineError(TypedDict):
    line: int
    code: str
    message: str
    details: dict[str, Any]


class ImportReport(TypedDict):
    lines: int
    created: ImportCounts
    existing: ImportCounts
    failed: int
    errors: list[ImportLineError]


# bytes: the NDJSON itself; str or a path: a file to read; a binary file object; or records (mappings), or lines
# (bytes), one per line.
ImportSource: TypeAlias = bytes | str | os.PathLike[str] | IO[bytes] | Iterable[Mapping[str, Any]] | Iterable[bytes]
AsyncImportSource: TypeAlias = ImportSource | AsyncIterable[bytes]


def _lines(source: Iterable[Any]) -> Iterator[bytes]:
    for item in source:
        if isinstance(item, bytes):
            yield item if item.endswith(b"\n") else item + b"\n"
        else:
            yield dumps_line(item)


def _file_chunks(path: str | os.PathLike[str]) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            yield chunk


def _import_body(source: ImportSource) -> tuple[BodyFactory, bool]:
    """A factory of the body (streamed: a file is read as it is sent) and whether it can be sent again."""
    if isinstance(source, bytes):
        return (lambda: (None, source)), True
    if isinstance(source, (str, os.PathLike)):
        path = source
        return (lambda: (None, _file_chunks(path))), True
    if hasattr(source, "read"):
        stream = cast(IO[bytes], source)
        return (lambda: (None, iter(lambda: stream.read(_CHUNK), b""))), False
    items = cast(Iterable[Any], source)
    replayable = isinstance(items, (list, tuple))
    return (lambda: (None, _lines(items))), replayable


def _record(line: str) -> ExportRecord | None:
    if not line.strip():
        return None
    record = json.loads(line)
    if not isinstance(record, dict):
        raise APIStatusError("An export line is not a JSON object", status=200, code="INVALID_RESPONSE", body=line)
    if record.get("type") == "error":
        raise APIStatusError(
            str(record.get("message", "The export failed")), status=200, code=str(record.get("code")), body=record
        )
    return record


class _Export:
    """The export's state: records are handed out a page at a time, when the page's cursor line has come, so a
    cut connection resumes from that cursor with nothing lost and nothing twice."""

    def __init__(self, cursor: str | None, limit: int | NotGiven) -> None:
        self.cursor = cursor
        self.limit = limit
        self.pending: list[ExportRecord] = []
        self.done = False

    def query(self) -> dict[str, object]:
        return _given({"cursor": self.cursor if self.cursor is not None else NOT_GIVEN, "limit": self.limit})

    def take(self, record: ExportRecord) -> list[ExportRecord]:
        kind = record.get("type")
        if kind not in ("cursor", "end"):
            self.pending.append(record)
            return []
        out, self.pending = [*self.pending, record], []
        if kind == "cursor" and record.get("cursor") is not None:
            self.cursor = record["cursor"]
        self.done = kind == "end"
        return out


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
        state = _Export(cursor, limit)
        failures = 0
        while not state.done:
            try:
                with self._client.stream(
                    "GET", "/v1/export", query=state.query(), options=RequestOptions(timeout=timeout)
                ) as response:
                    for line in response.iter_lines():
                        record = _record(line)
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
        body, replayable = _import_body(source)
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
        state = _Export(cursor, limit)
        failures = 0
        while not state.done:
            try:
                async with self._client.stream(
                    "GET", "/v1/export", query=state.query(), options=RequestOptions(timeout=timeout)
                ) as response:
                    async for line in response.aiter_lines():
                        record = _record(line)
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
            sync_body, replayable = _import_body(source)

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

