"""The five-minute tour: store a conversation, tag it, search it, build a model's context, list, handle errors.

Run with MEMORY_SERVICE_URL and MEMORY_SERVICE_API_KEY set: python3 examples/quickstart.py
"""

from memory_service import MemoryService, NotFoundError, RateLimitedError, ValidationError


def main() -> None:
    with MemoryService() as client:
        # A conversation: a root, then its turns in one call (each item succeeds or fails alone).
        root_id = client.memories.create(content="Trip planning with Ann", content_type="conversation")["id"]
        batch = client.memories.batch(
            items=[
                {"content": "Ann: a hotel by the river, please", "parent_memory_id": root_id},
                {"content": "Assistant: noted, the Riverside Inn", "parent_memory_id": root_id},
            ]
        )
        print(f"{batch['created']} turns stored, {batch['failed']} refused")

        fact = client.memories.create(content="Ann is vegetarian", memory_nature="semantic", tier="long")
        tag = client.tags.create(name=f"ann-{fact['id'][:8]}", color="#3366ff")
        client.memories.tags.attach(fact["id"], tag_ids=[tag["id"]])

        for turn in client.memories.thread(root_id):
            print("turn:", turn["content"])

        hits = client.search(query="what does Ann eat", limit=3)["results"]
        for hit in hits:
            print(f"{hit['score']:.2f} {hit['content']}")

        context = client.context(query="plan dinner with Ann", max_tokens=200)
        print(context["context"])

        for memory in client.memories.list(tier="long", limit=20):
            print("long-term:", memory["content"])

        try:
            client.memories.get("00000000-0000-4000-8000-000000000000")
        except NotFoundError as e:
            print("not found, request", e.request_id)
        try:
            client.memories.create(content="")
        except ValidationError as e:
            print("invalid:", e.field, e.constraint)
        except RateLimitedError as e:
            print("slow down until", e.reset_at)

        client.memories.delete(root_id, cascade=True)


if __name__ == "__main__":
    main()
