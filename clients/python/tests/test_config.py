"""Configuration: the environment, a custom httpx client, timeouts, with_options, the examples."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from memory_service import APITimeoutError, AsyncMemoryService, MemoryService

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_url_and_key_from_the_environment(tenant_key: str, base_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_SERVICE_URL", base_url + "/")
    monkeypatch.setenv("MEMORY_SERVICE_API_KEY", tenant_key)
    with MemoryService() as client:
        assert client.base_url == base_url
        assert client.tags.list().page().total >= 0


def test_a_custom_http_client(tenant_key: str, base_url: str) -> None:
    sent: list[httpx.Request] = []
    http = httpx.Client(event_hooks={"request": [sent.append]}, headers={"X-Trace": "abc"})
    client = MemoryService(tenant_key, base_url=base_url, http_client=http, default_headers={"X-App": "tests"})
    client.tags.list().page()
    client.close()
    assert not http.is_closed  # it is the caller's to close
    assert sent[0].headers["X-Trace"] == "abc" and sent[0].headers["X-App"] == "tests"
    assert sent[0].headers["User-Agent"].startswith("memory-service-python/")
    http.close()


def test_timeouts(tenant_key: str, base_url: str) -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        timeout = request.extensions["timeout"]
        raise httpx.ReadTimeout(f"read timeout {timeout['read']}", request=request)

    http = httpx.Client(transport=httpx.MockTransport(slow))
    client = MemoryService(tenant_key, base_url=base_url, http_client=http, timeout=3.0, max_retries=0)
    with pytest.raises(APITimeoutError, match="read timeout 3.0"):
        client.tags.list().page()
    with pytest.raises(APITimeoutError, match="read timeout 0.5"):
        client.tags.get("x", timeout=0.5)
    with pytest.raises(APITimeoutError, match="read timeout 7.0"):
        client.with_options(timeout=7.0).tags.get("x")


async def test_async_custom_client(tenant_key: str, base_url: str) -> None:
    sent: list[httpx.Request] = []

    async def hook(request: httpx.Request) -> None:
        sent.append(request)

    async with httpx.AsyncClient(event_hooks={"request": [hook]}) as http:
        client = AsyncMemoryService(tenant_key, base_url=base_url, http_client=http)
        assert (await client.tags.list().page()).total >= 0
        await client.aclose()
        assert not http.is_closed and len(sent) == 1


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.py")))
def test_examples_run(example: str, tenant_key: str, base_url: str) -> None:
    env = {**os.environ, "MEMORY_SERVICE_URL": base_url, "MEMORY_SERVICE_API_KEY": tenant_key}
    env["PYTHONPATH"] = str(EXAMPLES.parent)
    run = subprocess.run([sys.executable, str(EXAMPLES / example)], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
