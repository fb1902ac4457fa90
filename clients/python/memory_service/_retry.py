"""The retry rules of both transports (at most `max_retries` more attempts, 2 by default):
- 429 RATE_LIMITED: a refusal before anything ran, so any request is sent again, once the window frees capacity
  (X-RateLimit-Reset, or Retry-After); a wait longer than `max_retry_wait` raises at once instead.
- 409 IDEMPOTENCY_IN_FLIGHT: the same keyed request still runs; asked again after a backoff.
- 5xx and connection errors / timeouts: only when repeating is safe: GET, PUT and DELETE, and POST/PATCH that
  carry an Idempotency-Key. The client adds a key to every write whose route takes one, so those are retried;
  the routes that refuse a key (creating or rotating an API key, creating a webhook or rotating its secret) are
  not. Backoff: 0.5 s, 1 s, 2 s… (at most 8 s), each less up to a quarter at random, so clients spread out.
"""

from __future__ import annotations

import random
import time
import uuid

import httpx

from ._base import NotGiven
from ._errors import APIConnectionError, APIStatusError
from .generated.errors import RETRYABLE_CODES

DEFAULT_MAX_RETRIES = 2
# A 429 whose window frees later than this is raised rather than slept through.
DEFAULT_MAX_RETRY_WAIT = 60.0
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
IDEMPOTENCY_HEADER = "Idempotency-Key"


def idempotency_key(keyed: bool, given: str | None | NotGiven) -> str | None:
    """The key a write carries: the caller's, else a fresh one for every route that takes one (None: no key,
    so the write is not retried after a 5xx or a connection error)."""
    if not isinstance(given, NotGiven):
        return given
    return str(uuid.uuid4()) if keyed else None


def is_safe(method: str, key: str | None) -> bool:
    """Whether sending the request twice does what sending it once does."""
    return method in SAFE_METHODS or key is not None


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



def retry_wait(
    attempt: int,
    error: APIStatusError | APIConnectionError,
    *,
    safe: bool,
    replayable: bool,
    max_retries: int,
    max_retry_wait: float,
) -> float | None:
    """Seconds to wait before attempt `attempt + 1`, or None when the error is to be raised."""
    if attempt >= max_retries or not replayable:
        return None
    if isinstance(error, APIConnectionError):
        return backoff(attempt) if safe else None
    if error.status == 429:
        wait = rate_limit_wait(error.headers, attempt)
        return wait if wait <= max_retry_wait else None
    if error.code == "IDEMPOTENCY_IN_FLIGHT":
        return backoff(attempt)
    if safe and (error.status >= 500 or error.code in RETRYABLE_CODES):
        after = retry_after(error.headers)
        return min(after, max_retry_wait) if after is not None else backoff(attempt)
    return None
