"""The exception hierarchy. Every exception the client raises derives from MemoryServiceError:

- APIConnectionError (APITimeoutError): no answer came (refused, cut, timed out);
- APIStatusError: the API answered an error envelope. Its class is the one of `error.code` (generated in
  generated/errors.py: NotFoundError, ValidationError, RateLimitedError…), each under the class of its status
  (BadRequestError, AuthenticationError, PermissionDeniedError, ConflictError, UnprocessableEntityError,
  TooManyRequestsError, ServerError), so code can catch either.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import httpx

__all__ = [
    "MemoryServiceError",
    "APIConnectionError",
    "APITimeoutError",
    "APIStatusError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "ConflictError",
    "UnprocessableEntityError",
    "TooManyRequestsError",
    "ServerError",
]


class MemoryServiceError(Exception):
    """The root of every error of this package (also raised for a missing API key)."""


class APIConnectionError(MemoryServiceError):
    """No answer: the connection was refused or cut. Retried (when the request is safe to repeat) first."""

    def __init__(self, message: str = "Connection error", *, request: httpx.Request | None = None) -> None:
        super().__init__(message)
        self.request = request


class APITimeoutError(APIConnectionError):
    """No answer within the timeout (the client's `timeout`, or the call's)."""

    def __init__(self, message: str = "Request timed out", *, request: httpx.Request | None = None) -> None:
        super().__init__(message, request=request)


class APIStatusError(MemoryServiceError):
    """An error answer: `status`, `code` (the envelope's `error.code`), `message`, `details`, and `request_id`
    (quote it when reporting a problem: every log line of the service carries it)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        details: dict[str, Any] | None = None,
        request_id: str | None = None,
        headers: httpx.Headers | None = None,
        body: object = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.details: dict[str, Any] = details or {}
        self.request_id = request_id
        self.headers = headers or httpx.Headers()
        self.body = body

    def __str__(self) -> str:
        where = f", request_id={self.request_id}" if self.request_id else ""
        details = f" {self.details}" if self.details else ""
        return f"{self.code} (HTTP {self.status}{where}): {self.message}{details}"


class BadRequestError(APIStatusError):
    """400. `field` (dotted: `metadata.notes.1`) and `constraint` (`required`, `max_length`…) say what to fix."""

    @property
    def field(self) -> str | None:
        value = self.details.get("field")
        return value if isinstance(value, str) else None

    @property
    def constraint(self) -> str | None:
        value = self.details.get("constraint")
        return value if isinstance(value, str) else None


class AuthenticationError(APIStatusError):
    """401: the key is missing, unknown, revoked or expired."""


class PermissionDeniedError(APIStatusError):
    """403: the key lacks a scope, or the write would pass a quota."""


class ConflictError(APIStatusError):
    """409: a request with the same Idempotency-Key is still running."""


class UnprocessableEntityError(APIStatusError):
    """422: the Idempotency-Key was used with another request."""


class TooManyRequestsError(APIStatusError):
    """429: the key's rate-limit window is full. `reset_at` says when it frees capacity."""

    @property
    def reset_at(self) -> datetime | None:
        """When the binding window next frees capacity (X-RateLimit-Reset), as an aware UTC datetime."""
        raw = self.headers.get("x-ratelimit-reset")
        try:
            return datetime.fromtimestamp(int(raw), tz=timezone.utc) if raw else None
        except ValueError:
            return None

    @property
    def retry_after(self) -> float | None:
        """Seconds to wait (Retry-After)."""
        raw = self.headers.get("retry-after")
        try:
            return float(raw) if raw else None
        except ValueError:
            return None


class ServerError(APIStatusError):
    """5xx: the service could not answer (retried first when the request is safe to repeat)."""
