"""What the sync and async transports share: the settings (a key and URL from the environment when not given),
the headers of a request, and the decisions of the retry rules (_retry.py) on those settings. The subclasses only
do the I/O."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from ._base import NotGiven, RequestOptions, Timeout
from ._errors import APIConnectionError, APIStatusError, MemoryServiceError
from ._response import parse
from ._retry import IDEMPOTENCY_HEADER, idempotency_key, retry_wait
from ._version import __version__

DEFAULT_BASE_URL = "http://127.0.0.1:3000"
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=5.0)

# A body factory gives the request body afresh for each attempt: (json, content) — one of them None.
BodyFactory = Callable[[], tuple[object, Any]]


def body_of(body: BodyFactory | None) -> tuple[object, Any]:
    """This attempt's (json, content): a fresh body, or none."""
    return body() if body is not None else (None, None)


class TransportBase:
    """Settings and the decisions both transports share."""

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

    # The key a write carries (see _retry.idempotency_key).
    idempotency_key = staticmethod(idempotency_key)
    # The envelope of a success, or the exception of an error answer (see _response.parse).
    parse = staticmethod(parse)

    def retry_wait(
        self,
        attempt: int,
        error: APIStatusError | APIConnectionError,
        safe: bool,
        replayable: bool,
    ) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None when the error is to be raised."""
        return retry_wait(
            attempt,
            error,
            safe=safe,
            replayable=replayable,
            max_retries=self.max_retries,
            max_retry_wait=self.max_retry_wait,
        )
