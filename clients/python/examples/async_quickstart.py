"""The async client: the same calls, awaited; lists are async iterators.

Run with MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY set: python3 examples/async_quickstart.py
"""

import asyncio

from memory_service import AsyncMemoryService


async def main() -> None:
    async with AsyncMemoryService(max_retries=3, timeout=10.0) as client:
        first, second = await asyncio.gather(
            client.memories.create(content="Bob prefers mornings", tier="long"),
            client.memories.create(content="Bob works from Lisbon", tier="long"),
        )
        async for memory in client.memories.list(tier="long", limit=10):
            print(memory["id"], memory["content"])
        results = await client.search(query="when can I meet Bob", limit=2)
        print([r["content"] for r in results["results"]])
        await client.memories.delete(first["id"])
        await client.memories.delete(second["id"])


if __name__ == "__main__":
    asyncio.run(main())
