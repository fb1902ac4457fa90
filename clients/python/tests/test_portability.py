"""The streamed export and import: a round trip into another tenant, from each kind of source, both clients."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import httpx

from memory_service import AsyncMemoryService, MemoryService

from .conftest import unique


def fresh_tenant(root: MemoryService) -> str:
    return root.keys.create(name="import target", tenant_id=f"py-{uuid.uuid4().hex[:12]}", scopes=["*"])["key"]


def test_export_then_import(client: MemoryService, root: MemoryService, base_url: str, tmp_path: Path) -> None:
    tag = client.tags.create(name=unique("exported"))
    parent = client.memories.create(content="export root")
    client.memories.create(content="export child", parent_memory_id=parent["id"])
    client.memories.tags.attach(parent["id"], tag_ids=[tag["id"]])
    records = list(client.export(limit=1))
    kinds = [r["type"] for r in records]
    assert kinds[-2:] == ["cursor", "end"] and kinds.count("cursor") > 2
    assert records[-1]["counts"]["memories"] == kinds.count("memory")
    with MemoryService(fresh_tenant(root), base_url=base_url) as target:
        report = target.import_(records)
        assert report["failed"] == 0 and report["created"]["memories"] == kinds.count("memory")
        # Sent again (a file path this time): everything is there already.
        path = tmp_path / "export.ndjson"
        path.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in records))
        again = target.import_(path)
        assert again["existing"]["memories"] == kinds.count("memory") and again["created"]["memories"] == 0
        assert target.import_(path.read_bytes())["existing"]["tags"] == kinds.count("tag")
        with path.open("rb") as f:
            assert target.import_(f)["lines"] == len(records)
        moved = [m["content"] for m in target.memories.list() if m["content"].startswith("export ")]
        assert sorted(moved) == ["export child", "export root"]


def test_export_resumes_after_a_cut(client: MemoryService, tenant_key: str, base_url: str) -> None:
    client.memories.create(content="resume me")
    expected = [r for r in client.export(limit=1) if r["type"] != "end"]
    real = httpx.HTTPTransport()
    calls: list[str] = []

    class CutOnce(httpx.BaseTransport):
        # The first export answer stops after its first three lines, mid-page: the client resumes from the last
        # cursor it got, and hands out every record once.
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            calls.append(str(request.url))
            response = real.handle_request(request)
            if len(calls) > 1:
                return response
            response.read()
            lines = response.content.split(b"\n")[:3]

            def cut() -> httpx.SyncByteStream:
                class Stream(httpx.SyncByteStream):
                    def __iter__(self):  # type: ignore[no-untyped-def]
                        yield b"\n".join(lines) + b"\n"
                        raise httpx.ReadError("cut")

                return Stream()

            return httpx.Response(200, headers=response.headers, stream=cut())

    with MemoryService(tenant_key, base_url=base_url, http_client=httpx.Client(transport=CutOnce())) as c:
        got = [r for r in c.export(limit=1) if r["type"] != "end"]
    assert len(calls) == 2 and "cursor=" in calls[1]
    assert [r.get("id") for r in got] == [r.get("id") for r in expected]


async def test_async_export_and_import(aclient: AsyncMemoryService, root: MemoryService, base_url: str) -> None:
    await aclient.memories.create(content="async export")
    records = [r async for r in aclient.export()]
    assert records[-1]["type"] == "end"

    async def lines():  # type: ignore[no-untyped-def]
        for r in records:
            yield json.dumps(r).encode()

    async with AsyncMemoryService(fresh_tenant(root), base_url=base_url) as target:
        report = await target.import_(lines())
        assert report["failed"] == 0 and report["created"]["memories"] == records[-1]["counts"]["memories"]
        assert (await target.import_(records))["existing"]["memories"] == records[-1]["counts"]["memories"]
