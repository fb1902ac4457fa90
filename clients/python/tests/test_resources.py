"""Tags, entities, search, context, keys, tokens, usage, webhooks and tenant settings, with the blocking client."""

from __future__ import annotations

import pytest

from memory_service import AuthenticationError, MemoryService, NotFoundError

from .conftest import unique


def test_tags(client: MemoryService) -> None:
    name = unique("tag")
    tag = client.tags.create(name=name, description="a tag")
    assert client.tags.get(tag["id"])["name"] == name
    assert client.tags.update(tag["id"], color="#00ff00")["color"] == "#00ff00"
    assert [t["id"] for t in client.tags.list(search=name)] == [tag["id"]]
    assert client.tags.delete(tag["id"])["deleted"] is True


def test_entities(client: MemoryService) -> None:
    name = unique("Ann")
    ann = client.entities.create(name=name, type="person", metadata={"team": "a"})
    m = client.memories.create(content=f"{name} joined")
    assert client.entities.link(ann["id"], memory_ids=[m["id"]])["memory_count"] == 1
    assert client.memories.get(m["id"])["entity_ids"] == [ann["id"]]
    assert [e["id"] for e in client.entities.list(search=name, type="person")] == [ann["id"]]
    assert client.entities.update(ann["id"], description="a person")["description"] == "a person"
    assert client.entities.unlink(ann["id"], m["id"])["removed"] is True
    assert client.entities.get(ann["id"])["memory_count"] == 0
    assert client.entities.delete(ann["id"])["deleted"] is True


def test_search_and_context(client: MemoryService) -> None:
    tag = client.tags.create(name=unique("travel"))
    word = unique("zebrafinch")
    kept = client.memories.create(content=f"The {word} trip to Lisbon is in May")
    client.memories.tags.attach(kept["id"], tag_ids=[tag["id"]])
    client.memories.create(content=f"The {word} trip to Oslo is in June")
    results = client.search(query=f"{word} Lisbon", limit=5, tags=[tag["id"]])["results"]
    assert [r["id"] for r in results] == [kept["id"]]
    assert 0 < results[0]["score"] <= 1 and "semantic" in results[0]["scores"]
    context = client.context(query=f"{word} trip", max_tokens=500)
    assert word in context["context"] and context["token_count"] > 0


def test_keys_tokens_and_usage(client: MemoryService, base_url: str) -> None:
    created = client.keys.create(name="reader", scopes=["memories:read", "tokens:create"], rate_limit=100)
    assert created["key"].startswith("svc_") and created["scopes"] == ["memories:read", "tokens:create"]
    assert client.keys.get(created["id"])["name"] == "reader"
    assert client.keys.update(created["id"], name="reader 2")["name"] == "reader 2"
    assert created["id"] in [k["id"] for k in client.keys.list()]
    with MemoryService(created["key"], base_url=base_url) as reader:
        token = reader.tokens.create(ttl_seconds=60)
        assert token["token"].startswith("svc_tok_")
        with MemoryService(token["token"], base_url=base_url) as browser:
            assert browser.memories.list(limit=1).page().total >= 0
    rotated = client.keys.rotate(created["id"])
    assert rotated["key"] != created["key"]
    assert client.keys.revoke(created["id"])["revoked"] is True
    with MemoryService(rotated["key"], base_url=base_url, max_retries=0) as revoked:
        with pytest.raises(AuthenticationError):
            revoked.memories.list().page()
    usage = client.usage()
    assert usage["totals"]["requests"] >= 0 and "storage" in usage
    assert client.usage(from_=usage["from"], to=usage["to"])["from"] == usage["from"]


def test_webhooks(client: MemoryService) -> None:
    hook = client.webhooks.create(url="http://127.0.0.1:9/hook", events=["memory.created"])
    assert hook["secret"].startswith("whsec_")
    assert client.webhooks.get(hook["id"])["url"] == "http://127.0.0.1:9/hook"
    assert client.webhooks.update(hook["id"], description="d")["description"] == "d"
    assert hook["id"] in [w["id"] for w in client.webhooks.list()]
    assert client.webhooks.rotate_secret(hook["id"])["secret"] != hook["secret"]
    delivery = client.webhooks.test(hook["id"])
    assert delivery["event_type"] == "ping"
    assert delivery["id"] in [d["id"] for d in client.webhooks.deliveries.list(hook["id"])]
    assert client.webhooks.deliveries.retry(hook["id"], delivery["id"])["id"] == delivery["id"]
    assert client.webhooks.delete(hook["id"])["deleted"] is True
    with pytest.raises(NotFoundError):
        client.webhooks.get(hook["id"])


def test_tenant(client: MemoryService) -> None:
    settings = client.tenant.get()
    assert settings["environment"] == "live"
    changed = client.tenant.update(retention={"short": 7})
    assert changed["retention"]["short"] == 7
