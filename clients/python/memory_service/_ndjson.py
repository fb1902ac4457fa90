"""The NDJSON of export and import (docs/api.md, "Export, import and erase"): the records and the report, an
import's body from each kind of source, an export's lines read back, and where an export resumes."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterable, Iterable, Iterator, Mapping
from typing import IO, Any, TypeAlias, TypedDict, cast

from ._base import NOT_GIVEN, NotGiven, _given
from ._errors import APIStatusError
from ._transport_base import BodyFactory

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

def dumps_line(record: Mapping[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def lines_of(source: Iterable[Any]) -> Iterator[bytes]:
    for item in source:
        if isinstance(item, bytes):
            yield item if item.endswith(b"\n") else item + b"\n"
        else:
            yield dumps_line(item)


def file_chunks(path: str | os.PathLike[str]) -> Iterator[bytes]:
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            yield chunk


def import_body(source: ImportSource) -> tuple[BodyFactory, bool]:
    """A factory of the body (streamed: a file is read as it is sent) and whether it can be sent again."""
    if isinstance(source, bytes):
        return (lambda: (None, source)), True
    if isinstance(source, (str, os.PathLike)):
        path = source
        return (lambda: (None, file_chunks(path))), True
    if hasattr(source, "read"):
        stream = cast(IO[bytes], source)
        return (lambda: (None, iter(lambda: stream.read(_CHUNK), b""))), False
    items = cast(Iterable[Any], source)
    replayable = isinstance(items, (list, tuple))
    return (lambda: (None, lines_of(items))), replayable


def export_record(line: str) -> ExportRecord | None:
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


class ExportState:
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
