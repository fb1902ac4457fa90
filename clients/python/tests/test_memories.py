"""Memories, their tags and threads, with the blocking client."""

from __future__ import annotations

import pytest

from memory_service import MemoryService, NotFoundError

from .conftest import unique


def test_create_get_update_delete(client: MemoryService) -> None:
    m = client.memories.create(content="Ann likes tea", tier="long", metadata={"source": "chat"})
    assert m["content"] == "Ann likes tea" and m["tier"] == "long" and m["metadata"] == {"source": "chat"}
    assert client.memories.get(m["id"])["id"] == m["id"]
    updated = client.memories.update(m["id"], content="Ann likes green tea", expires_at=None)
    assert updated["content"] == "Ann likes green tea" and updated["expires_at"] is None
    assert client.memories.delete(m["id"]) == {"id": m["id"], "deleted": True}
    with pytest.raises(NotFoundError):
        client.memories.get(m["id"])


def test_batch_and_thread(client: MemoryService) -> None:
    root = client.memories.create(content="Trip planning", content_type="conversation")
    answer = client.memories.batch(
        items=[
            {"content": "Ann: by the river", "parent_memory_id": root["id"]},
            {"content": "Bob: at noon", "parent_ref": 0},
            {"content": ""},
        ]
    )
    assert answer["created"] == 2 and answer["failed"] == 1
    first = answer["items"][0]
    assert "data" in first
    turns = [t["content"] for t in client.memories.thread(root["id"])]
    assert turns == ["Ann: by the river"]
    assert [t["content"] for t in client.memories.thread(first["data"]["id"])] == ["Bob: at noon"]
    assert client.memories.delete(root["id"], cascade=True)["deleted_count"] == 3


def test_list_follows_pages(client: MemoryService) -> None:
    marker = unique("page")
    ids = [client.memories.create(content=f"{marker} {i}", external_id=f"{marker}-{i}")["id"] for i in range(5)]
    listing = client.memories.list(limit=2, sort="created_at", order="asc", created_after="2000-01-01T00:00:00Z")
    mine = [m["id"] for m in listing if m["content"].startswith(marker)]
    assert mine == ids
    pages = list(client.memories.list(limit=2, external_id=f"{marker}-3").pages())
    assert len(pages) == 1 and pages[0].total == 1 and not pages[0].has_more
    first = client.memories.list(limit=2).page()
    assert len(first.items) == 2 and first.has_more and first.next_offset == 2 and first.request_id


def test_tags_of_a_memory(client: MemoryService) -> None:
    m = client.memories.create(content="tagged")
    red = client.tags.create(name=unique("red"), color="#ff0000")
    blue = client.tags.create(name=unique("blue"))
    attached = client.memories.tags.attach(m["id"], tag_ids=[red["id"], blue["id"]])
    assert attached["added"] == 2
    assert {t["id"] for t in client.memories.tags.list(m["id"])} == {red["id"], blue["id"]}
    assert client.memories.tags.detach(m["id"], red["id"])["removed"] is True
    assert [t["id"] for t in client.memories.tags.list(m["id"])] == [blue["id"]]
    tagged = [x["id"] for x in client.memories.list(tag_id=[blue["id"]])]
    assert tagged == [m["id"]]
