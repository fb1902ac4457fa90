"""Answers as results or exceptions: the envelope of a success, the exception of an error answer (the class of
its `error.code`, else of its status), and the exception of a connection that failed."""

from __future__ import annotations

from typing import Any

import httpx

from ._errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    PermissionDeniedError,
    ServerError,
    TooManyRequestsError,
    UnprocessableEntityError,
)
from .generated.errors import ERROR_CLASSES

_STATUS_CLASSES: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: TooManyRequestsError,
}



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


def connection_error(e: httpx.TransportError, request: httpx.Request | None) -> APIConnectionError:
    if isinstance(e, httpx.TimeoutException):
        return APITimeoutError(f"Request timed out: {e}", request=request)
    return APIConnectionError(f"Connection error: {e}", request=request)
