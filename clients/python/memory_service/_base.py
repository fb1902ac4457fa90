"""Small pieces the generated resources share: the NOT_GIVEN sentinel, per-call options, path quoting."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias
from urllib.parse import quote

import httpx

__all__ = ["NOT_GIVEN", "NotGiven", "RequestOptions", "Timeout"]


class NotGiven:
    """An argument left out. `None` is a value (JSON null: `parent_memory_id=None` makes a root), so leaving a
    field out needs its own marker; left-out fields are not sent at all."""

    def __bool__(self) -> Literal[False]:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()

# Seconds for every phase, an httpx.Timeout for each phase apart, or None for no limit.
Timeout: TypeAlias = float | httpx.Timeout | None


@dataclass(frozen=True)
class RequestOptions:
    """What one call may change of the client's settings."""

    timeout: Timeout | NotGiven = NOT_GIVEN
    extra_headers: Mapping[str, str] | None = None


def _given(values: Mapping[str, object]) -> dict[str, object]:
    """The fields that were passed: NOT_GIVEN ones stay off the wire."""
    return {k: v for k, v in values.items() if not isinstance(v, NotGiven)}


def _path(value: str) -> str:
    """An id as one path segment: a slash or a `?` in it cannot reach another route."""
    return quote(value, safe="")
