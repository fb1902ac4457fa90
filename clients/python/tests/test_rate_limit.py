"""A real 429: a key with a tiny rate_limit, refused by the service's limiter, then waited out by the client.

The limiter's window is a sliding minute (docs/api.md, "Rate limits"): a full window frees capacity shortly after
the next minute starts, so this test waits up to a minute. It runs last (conftest.py orders it)."""

from __future__ import annotations

import time

import httpx
import pytest

from memory_service import AsyncMemoryService, MemoryService, RateLimitedError, TooManyRequestsError

LIMIT = 60


def test_a_real_429_is_raised_then_waited_out(client: MemoryService, base_url: str) -> None:
    key = client.keys.create(name="tiny", rate_limit=LIMIT)["key"]
    with MemoryService(key, base_url=base_url, max_retries=0) as impatient:
        with pytest.raises(RateLimitedError) as caught:
            for _ in range(LIMIT + 1):
                impatient.tags.list(limit=1).page()
    e = caught.value
    assert isinstance(e, TooManyRequestsError) and e.status == 429 and e.code == "RATE_LIMITED" and e.request_id
    assert e.reset_at is not None and e.retry_after is not None and e.retry_after > 0
    assert 0 < e.reset_at.timestamp() - time.time() <= 125

    async def refused() -> None:
        async with AsyncMemoryService(key, base_url=base_url, max_retries=0) as c:
            with pytest.raises(RateLimitedError):
                await c.tags.list(limit=1).page()

    import asyncio

    asyncio.run(refused())

    # The default client waits until the window frees capacity, then answers.
    sent: list[float] = []
    http = httpx.Client(event_hooks={"request": [lambda request: sent.append(time.time())]})
    with MemoryService(key, base_url=base_url, http_client=http, max_retry_wait=125) as patient:
        page = patient.tags.list(limit=1).page()
    assert page.total >= 0 and len(sent) >= 2
    assert sent[-1] >= e.reset_at.timestamp() - 1
    http.close()
