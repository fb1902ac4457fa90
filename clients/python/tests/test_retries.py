"""The retry rules. Answers are lost or replaced on the way by a transport in front of the real stack, so each
retry reaches the real service: a keyed write whose answer was lost is answered by its replay, never run twice."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from memory_service import (
    APIConnectionError,
    APITimeoutError,
    AsyncMemoryService,
    MemoryService,
    ServiceUnavailableError,
)
from memory_service import _async_transport, _sync_transport

from .conftest import unique

Step = Callable[[httpx.Request], httpx.Response]


def envelope(status: int, code: str, headers: dict[str, str] | None = None) -> httpx.Response:
    body = {"error": {"code": code, "message": code.lower()}, "meta": {"request_id": "req-test"}}
    return httpx.Response(status, json=body, headers=headers)


def refuse(status: int, code: str, headers: dict[str, str] | None = None) -> Step:
    return lambda request: envelope(status, code, headers)


def fail(error: type[httpx.TransportError]) -> Step:
    def step(request: httpx.Request) -> httpx.Response:
        raise error("injected", request=request)

    return step


class Flaky(httpx.BaseTransport):
    """Each request takes the next step (a canned answer, an exception, or LOSE: forwarded to the stack, then
    its answer is lost); once the steps run out, requests go to the stack."""

    LOSE = "lose"

    def __init__(self, *steps: Step | str) -> None:
        self.steps = list(steps)
        self.seen: list[httpx.Request] = []
        self.real = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        step = self.steps.pop(0) if self.steps else None
        if step is None:
            return self.real.handle_request(request)
        if step == self.LOSE:
            self.real.handle_request(request).read()
            raise httpx.ReadError("answer lost", request=request)
        assert callable(step)
        return step(request)


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The waits between attempts, recorded instead of slept."""
    waits: list[float] = []
    monkeypatch.setattr(_sync_transport.time, "sleep", waits.append)
    yield waits


def flaky_client(tenant_key: str, base_url: str, flaky: Flaky, **options: float) -> MemoryService:
    return MemoryService(tenant_key, base_url=base_url, http_client=httpx.Client(transport=flaky), **options)


def test_a_read_is_retried_after_5xx_with_backoff(tenant_key: str, base_url: str, sleeps: list[float]) -> None:
    flaky = Flaky(refuse(503, "SERVICE_UNAVAILABLE"), refuse(500, "INTERNAL_ERROR"))
    client = flaky_client(tenant_key, base_url, flaky)
    assert client.tags.list().page().total >= 0
    assert len(flaky.seen) == 3
    # Exponential, less up to a quarter at random.
    assert 0.375 <= sleeps[0] <= 0.5 and 0.75 <= sleeps[1] <= 1.0


def test_a_lost_write_is_retried_with_its_idempotency_key(tenant_key: str, base_url: str, sleeps: list[float]) -> None:
    flaky = Flaky(Flaky.LOSE)
    client = flaky_client(tenant_key, base_url, flaky)
    external = unique("lost")
    memory = client.memories.create(content="written once", external_id=external)
    keys = [r.headers["Idempotency-Key"] for r in flaky.seen]
    assert len(keys) == 2 and keys[0] == keys[1]
    # The retry got the first attempt's answer replayed: one memory, the same one.
    page = client.memories.list(external_id=external).page()
    assert page.total == 1 and page.items[0]["id"] == memory["id"]


def test_a_write_without_a_key_is_not_retried(tenant_key: str, base_url: str, sleeps: list[float]) -> None:
    # Creating an API key refuses an Idempotency-Key (its answer holds a secret): a 5xx is raised as is.
    flaky = Flaky(refuse(503, "SERVICE_UNAVAILABLE"))
    client = flaky_client(tenant_key, base_url, flaky)
    with pytest.raises(ServiceUnavailableError):
        client.keys.create(name="not twice")
    assert len(flaky.seen) == 1 and "Idempotency-Key" not in flaky.seen[0].headers
    # idempotency_key=None sends a write without one: it is not retried either.
    flaky = Flaky(refuse(503, "SERVICE_UNAVAILABLE"))
    with pytest.raises(ServiceUnavailableError):
        flaky_client(tenant_key, base_url, flaky).memories.create(content="no key", idempotency_key=None)
    assert len(flaky.seen) == 1 and "Idempotency-Key" not in flaky.seen[0].headers
    flaky = Flaky(fail(httpx.ConnectError))
    with pytest.raises(APIConnectionError):
        flaky_client(tenant_key, base_url, flaky).keys.create(name="not twice")
    assert len(flaky.seen) == 1


def test_connection_errors_and_timeouts(tenant_key: str, base_url: str, sleeps: list[float]) -> None:
    flaky = Flaky(fail(httpx.ConnectError), fail(httpx.ReadTimeout))
    assert flaky_client(tenant_key, base_url, flaky).tags.list().page() is not None
    assert len(flaky.seen) == 3
    flaky = Flaky(*[fail(httpx.ReadTimeout)] * 3)
    with pytest.raises(APITimeoutError):
        flaky_client(tenant_key, base_url, flaky).tags.list().page()
    assert len(flaky.seen) == 3  # the first attempt and max_retries (2) more


def test_max_retries(tenant_key: str, base_url: str, sleeps: list[float]) -> None:
    flaky = Flaky(refuse(503, "SERVICE_UNAVAILABLE"))
    with pytest.raises(ServiceUnavailableError) as caught:
        flaky_client(tenant_key, base_url, flaky, max_retries=0).tags.list().page()
    assert len(flaky.seen) == 1 and caught.value.request_id == "req-test"
    flaky = Flaky(*[refuse(503, "SERVICE_UNAVAILABLE")] * 4)
    client = flaky_client(tenant_key, base_url, flaky).with_options(max_retries=4)
    assert client.tags.list().page().total >= 0 and len(flaky.seen) == 5


def test_429_waits_for_the_reset_for_any_request(tenant_key: str, base_url: str, sleeps: list[float]) -> None:
    reset = str(int(time.time()) + 3)
    flaky = Flaky(refuse(429, "RATE_LIMITED", {"X-RateLimit-Reset": reset, "Retry-After": "3"}))
    # A 429 ran nothing, so even a write that takes no Idempotency-Key is sent again.
    created = flaky_client(tenant_key, base_url, flaky).keys.create(name=unique("after 429"))
    assert created["key"] and len(flaky.seen) == 2
    assert 2 <= sleeps[0] <= 4.2
    far = str(int(time.time()) + 3600)
    flaky = Flaky(refuse(429, "RATE_LIMITED", {"X-RateLimit-Reset": far, "Retry-After": "3600"}))
    with pytest.raises(Exception) as caught:
        flaky_client(tenant_key, base_url, flaky).tags.list().page()
    assert type(caught.value).__name__ == "RateLimitedError" and len(flaky.seen) == 1


def test_in_flight_409_and_retry_after(tenant_key: str, base_url: str, sleeps: list[float]) -> None:
    flaky = Flaky(refuse(409, "IDEMPOTENCY_IN_FLIGHT"), refuse(503, "SERVICE_UNAVAILABLE", {"Retry-After": "2"}))
    memory = flaky_client(tenant_key, base_url, flaky).memories.create(content="after a 409 and a 503")
    assert memory["content"] == "after a 409 and a 503" and len(flaky.seen) == 3
    assert sleeps[1] == 2.0


class AsyncFlaky(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.seen: list[httpx.Request] = []
        self.real = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        response = await self.real.handle_async_request(request)
        await response.aread()
        if len(self.seen) == 1:
            raise httpx.ReadError("answer lost", request=request)
        return response


async def test_async_lost_write_is_replayed(tenant_key: str, base_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async def no_wait(seconds: float) -> None:
        return None

    monkeypatch.setattr(_async_transport.asyncio, "sleep", no_wait)
    flaky = AsyncFlaky()
    http = httpx.AsyncClient(transport=flaky)
    async with AsyncMemoryService(tenant_key, base_url=base_url, http_client=http) as client:
        external = unique("async-lost")
        memory = await client.memories.create(content="async once", external_id=external)
        page = await client.memories.list(external_id=external).page()
    assert page.total == 1 and page.items[0]["id"] == memory["id"]
    assert flaky.seen[0].headers["Idempotency-Key"] == flaky.seen[1].headers["Idempotency-Key"]
    await http.aclose()
    assert json.loads(flaky.seen[1].content)["content"] == "async once"
