"""The document's operations, each under its deliberate name on the client, with its parameters and answer."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

from .models import Models
from .text import camel, py_name

# operationId -> (resource path on the client, method name, Python names of the path parameters in order).
# An operation of the document missing here stops the generator: each new route gets a deliberate name.
OPERATIONS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "createMemory": ("memories", "create", ()),
    "createMemories": ("memories", "batch", ()),
    "getMemory": ("memories", "get", ("memory_id",)),
    "listMemories": ("memories", "list", ()),
    "updateMemory": ("memories", "update", ("memory_id",)),
    "deleteMemory": ("memories", "delete", ("memory_id",)),
    "attachTags": ("memories.tags", "attach", ("memory_id",)),
    "detachTag": ("memories.tags", "detach", ("memory_id", "tag_id")),
    "listTags": ("tags", "list", ()),
    "createTag": ("tags", "create", ()),
    "getTag": ("tags", "get", ("tag_id",)),
    "updateTag": ("tags", "update", ("tag_id",)),
    "deleteTag": ("tags", "delete", ("tag_id",)),
    "createEntity": ("entities", "create", ()),
    "listEntities": ("entities", "list", ()),
    "getEntity": ("entities", "get", ("entity_id",)),
    "updateEntity": ("entities", "update", ("entity_id",)),
    "deleteEntity": ("entities", "delete", ("entity_id",)),
    "linkEntityMemories": ("entities", "link", ("entity_id",)),
    "unlinkEntityMemory": ("entities", "unlink", ("entity_id", "memory_id")),
    "searchMemories": ("", "search", ()),
    "getContext": ("", "context", ()),
    "getUsage": ("", "usage", ()),
    "createKey": ("keys", "create", ()),
    "listKeys": ("keys", "list", ()),
    "getKey": ("keys", "get", ("key_id",)),
    "updateKey": ("keys", "update", ("key_id",)),
    "revokeKey": ("keys", "revoke", ("key_id",)),
    "rotateKey": ("keys", "rotate", ("key_id",)),
    "createToken": ("tokens", "create", ()),
    "createWebhook": ("webhooks", "create", ()),
    "listWebhooks": ("webhooks", "list", ()),
    "getWebhook": ("webhooks", "get", ("webhook_id",)),
    "updateWebhook": ("webhooks", "update", ("webhook_id",)),
    "deleteWebhook": ("webhooks", "delete", ("webhook_id",)),
    "rotateWebhookSecret": ("webhooks", "rotate_secret", ("webhook_id",)),
    "testWebhook": ("webhooks", "test", ("webhook_id",)),
    "listWebhookDeliveries": ("webhooks.deliveries", "list", ("webhook_id",)),
    "retryWebhookDelivery": ("webhooks.deliveries", "retry", ("webhook_id", "delivery_id")),
    "getTenant": ("tenant", "get", ()),
    "updateTenant": ("tenant", "update", ()),
}

IDEMPOTENCY_HEADER = "Idempotency-Key"


@dataclass
class Param:
    name: str  # on the wire
    py: str  # as a keyword argument
    type: str
    required: bool
    where: str  # "path", "query" or "body"
    about: str | None


@dataclass
class Operation:
    op_id: str
    method: str
    path: str
    resource: str
    name: str
    params: list[Param]
    result: str
    item: str | None  # the item type of a list operation
    idempotency_key: bool
    summary: str
    description: str | None


def operations(doc: dict[str, Any], models: Models) -> list[Operation]:
    seen = set()
    out = []
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            op_id = op["operationId"]
            if op_id not in OPERATIONS:
                sys.exit(f"generate.py: operation {op_id} ({method.upper()} {path}) has no name in OPERATIONS")
            seen.add(op_id)
            resource, name, path_names = OPERATIONS[op_id]
            base = camel(op_id)
            params: list[Param] = []
            path_params = [p for p in op.get("parameters", []) if p["in"] == "path"]
            for p, py in zip(path_params, path_names, strict=True):
                params.append(Param(p["name"], py, "str", True, "path", None))
            key = any(p["in"] == "header" and p["name"] == IDEMPOTENCY_HEADER for p in op.get("parameters", []))
            for p in op.get("parameters", []):
                if p["in"] != "query":
                    continue
                text = models.type_of(p["schema"], base + camel(p["name"]))
                params.append(Param(p["name"], py_name(p["name"]), text, p["required"], "query", p.get("description")))
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                required = set(body.get("required", []))
                for prop, sub in body.get("properties", {}).items():
                    text = models.type_of(sub, base + camel(prop))
                    about = sub.get("description")
                    params.append(Param(prop, py_name(prop), text, prop in required, "body", about))
            data = op["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["data"]
            is_list = "ListMeta" in json.dumps(op["responses"]["200"]["content"]["application/json"]["schema"])
            item = models.type_of(data["items"], base + "Item") if is_list else None
            result = item if is_list else models.type_of(data, base + "Result")
            out.append(
                Operation(
                    op_id,
                    method.upper(),
                    path,
                    resource,
                    name,
                    params,
                    result or "Any",
                    item,
                    key,
                    op.get("summary", ""),
                    op.get("description"),
                )
            )
    missing = set(OPERATIONS) - seen
    if missing:
        sys.exit(f"generate.py: OPERATIONS names operations the document lacks: {sorted(missing)}")
    return out

