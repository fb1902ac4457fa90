"""Fixtures: a fresh tenant per run (so names and lists are this run's alone), its admin key, and both clients.

The stack comes from the environment: MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY (the stack's root key, as
test/python/python-sdk.test.ts passes them)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from memory_service import AsyncMemoryService, MemoryService


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The rate-limit test goes last: its key's window filled at the start, so by then it frees within seconds.
    items.sort(key=lambda item: "rate_limit" in item.nodeid)


@pytest.fixture(scope="session")
def root() -> Iterator[MemoryService]:
    if not os.environ.get("MEMORY_SERVICE_URL") or not os.environ.get("MEMORY_SERVICE_API_KEY"):
        pytest.exit("set MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY (a root key) to run these tests", 2)
    with MemoryService() as client:
        yield client


@pytest.fixture(scope="session")
def tenant_key(root: MemoryService) -> str:
    key = root.keys.create(name="python-sdk tests", tenant_id=f"py-{uuid.uuid4().hex[:12]}", scopes=["*"])
    return key["key"]


@pytest.fixture(scope="session")
def base_url(root: MemoryService) -> str:
    return root.base_url


@pytest.fixture
def client(tenant_key: str, base_url: str) -> Iterator[MemoryService]:
    with MemoryService(tenant_key, base_url=base_url) as c:
        yield c


@pytest_asyncio.fixture
async def aclient(tenant_key: str, base_url: str) -> AsyncIterator[AsyncMemoryService]:
    async with AsyncMemoryService(tenant_key, base_url=base_url) as c:
        yield c


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"
