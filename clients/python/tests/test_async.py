"""AsyncMemoryService: the same resources, awaited; lists and threads as async iterators."""

from __future__ import annotations

import pytest

from memory_service import AsyncMemoryService, NotFoundError, ValidationError

from .conftest import unique


async def test_memories(aclient: AsyncMemoryService) -> None:
    m = await aclient.memories.create(content="async hello", tier="short")
    assert (await aclient.memories.get(m["id"]))["content"] == "async hello"
    assert (await aclient.memories.update(m["id"], tier="long"))["tier"] == "long"
    tag = await aclient.tags.create(name=unique("async-tag"))
    await aclient.memories.tags.attach(m["id"], tag_ids=[tag["id"]])
    assert [t["id"] for t in await aclient.memories.tags.list(m["id"])] == [tag["id"]]
    assert (await aclient.memories.tags.detach(m["id"], tag["id"]))["removed"] is True
    assert (await aclient.memories.delete(m["id"]))["deleted"] is True
    with pytest.raises(NotFoundError):
        await aclient.memories.get(m["id"])
    with pytest.raises(ValidationError) as caught:
        await aclient.memories.create(content="")
    assert caught.value.field == "content" and caught.value.request_id


async def test_pages_and_threads(aclient: AsyncMemoryService) -> None:
    root = await aclient.memories.create(content="async thread", content_type="conversation")
    batch = await aclient.memories.batch(
        items=[{"content": f"turn {i}", "parent_memory_id": root["id"]} for i in range(5)]
    )
    assert batch["created"] == 5
    turns = [t["content"] async for t in aclient.memories.thread(root["id"], limit=2)]
    assert turns == [f"turn {i}" for i in range(5)]
    pages = [p async for p in aclient.memories.list(parent_memory_id=root["id"], limit=2).pages()]
    assert [len(p.items) for p in pages] == [2, 2, 1] and pages[0].total == 5


async def test_other_resources(aclient: AsyncMemoryService) -> None:
    word = unique("okapi")
    entity = await aclient.entities.create(name=word, type="concept")
    m = await aclient.memories.create(content=f"The {word} lives in the forest")
    await aclient.entities.link(entity["id"], memory_ids=[m["id"]])
    assert [e["id"] async for e in aclient.entities.list(search=word)] == [entity["id"]]
    results = (await aclient.search(query=word, limit=3, entity_id=entity["id"]))["results"]
    assert [r["id"] for r in results] == [m["id"]]
    assert word in (await aclient.context(query=word))["context"]
    key = await aclient.keys.create(name="async key")
    assert (await aclient.keys.get(key["id"]))["name"] == "async key"
    assert key["id"] in [k["id"] async for k in aclient.keys.list()]
    await aclient.keys.revoke(key["id"])
    assert (await aclient.tokens.create())["token"].startswith("svc_tok_")
    assert (await aclient.usage())["totals"]["requests"] >= 0
    hook = await aclient.webhooks.create(url="http://127.0.0.1:9/async", events=["*"])
    assert hook["id"] in [w["id"] async for w in aclient.webhooks.list()]
    delivery = await aclient.webhooks.test(hook["id"])
    assert [d["id"] async for d in aclient.webhooks.deliveries.list(hook["id"])] == [delivery["id"]]
    await aclient.webhooks.delete(hook["id"])
    assert (await aclient.tenant.get())["environment"] == "live"
