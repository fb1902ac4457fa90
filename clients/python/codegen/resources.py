"""resources.py: the resource classes, sync and async with the same methods, one keyword per field."""

from __future__ import annotations

import re

from .operations import Operation
from .text import HEADER, wrap

# Hand-written mixins (memory_service/_extras.py) that add methods the document cannot name: a memory's thread,
# its tags, the streamed export and import. Sync class name; the async one is `Async` + it.
EXTRAS = {"": "RootExtras", "memories": "MemoriesExtras", "memories.tags": "MemoryTagsExtras"}
CLASS_NAMES = {
    "": "Root",
    "memories": "Memories",
    "memories.tags": "MemoryTags",
    "tags": "Tags",
    "entities": "Entities",
    "keys": "Keys",
    "tokens": "Tokens",
    "webhooks": "Webhooks",
    "webhooks.deliveries": "WebhookDeliveries",
    "tenant": "Tenant",
}



def method_source(op: Operation, is_async: bool) -> list[str]:
    positional = [p for p in op.params if p.where == "path"]
    keywords = [p for p in op.params if p.where != "path"]
    keywords.sort(key=lambda p: not p.required)
    sig = ["self"] + [f"{p.py}: str" for p in positional]
    if positional:
        sig.append("/")
    sig.append("*")
    # A method named `list` shadows the builtin inside its class: annotations there spell it List.
    for p in keywords:
        p.type = re.sub(r"\blist\[", "List[", p.type)
        sig.append(f"{p.py}: {p.type}" if p.required else f"{p.py}: {p.type} | NotGiven = NOT_GIVEN")
    if op.idempotency_key:
        sig.append("idempotency_key: str | None | NotGiven = NOT_GIVEN")
    sig += ["timeout: Timeout | NotGiven = NOT_GIVEN", "extra_headers: Mapping[str, str] | None = None"]
    prefix = "Async" if is_async else "Sync"
    returns = f"{prefix}Paginator[{op.item}]" if op.item else op.result
    asynchronous = is_async and not op.item
    head = f"    {'async ' if asynchronous else ''}def {op.name}("
    lines = [head, *[f"        {s}," for s in sig], f"    ) -> {returns}:"]
    doc = [op.summary.rstrip(".") + "." if op.summary else op.op_id]
    if op.description:
        doc.append(op.description)
    if op.item:
        doc.append("Iterating the answer yields every item, page after page (`.pages()` yields the pages).")
    body = wrap(" ".join(doc).replace('"""', "'''"), "        ")
    body[0] = '        """' + body[0].lstrip()
    documented = [p for p in keywords if p.about]
    if documented:
        body.append("")
        body.append("        Args:")
        for p in documented:
            body += wrap(f"{p.py}: {p.about}", "            ")
    body.append('        """')
    lines += body
    path = re.sub(r"\{(\w+)\}", lambda m: "{_path(" + positional_for(op, m.group(1)) + ")}", op.path)
    path_text = f'f"{path}"' if positional else f'"{path}"'
    query = [p for p in keywords if p.where == "query"]
    sent = [p for p in keywords if p.where == "body"]
    query_text = "_given({" + ", ".join(f'"{p.name}": {p.py}' for p in query) + "})" if query else "None"
    options = "RequestOptions(timeout=timeout, extra_headers=extra_headers)"
    if op.item:
        lines.append(f"        return {prefix}Paginator[{op.item}](self._client, {path_text}, {query_text}, {options})")
        return lines
    body_text = "_given({" + ", ".join(f'"{p.name}": {p.py}' for p in sent) + "})" if sent else None
    if body_text is None and op.method == "POST":
        body_text = "{}"
    args = [f'"{op.method}"', path_text]
    if query:
        args.append(f"query={query_text}")
    if body_text is not None:
        args.append(f"body={body_text}")
    if op.idempotency_key:
        args += ["keyed=True", "idempotency_key=idempotency_key"]
    args.append(f"options={options}")
    lines.append(f"        data = {'await ' if is_async else ''}self._client.request(")
    lines += [f"            {a}," for a in args]
    lines += ["        )", f'        return cast("{op.result}", data)']
    return lines


def positional_for(op: Operation, wire: str) -> str:
    return next(p.py for p in op.params if p.where == "path" and p.name == wire)


def resources_module(ops: list[Operation], model_names: set[str]) -> str:
    by_resource: dict[str, list[Operation]] = {}
    for op in ops:
        by_resource.setdefault(op.resource, []).append(op)
    used = sorted(n for n in model_names if any(n in f"{o.result} {o.item} {[p.type for p in o.params]}" for o in ops))
    out = [
        HEADER + '"""The API\'s resources: a class per resource, sync and async, a method per operation."""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from typing import Any, List, Literal, cast",
        "",
        "from .._base import NOT_GIVEN, NotGiven, RequestOptions, Timeout, _given, _path",
        "from .._extras import (",
        *[f"    {p}{EXTRAS[r]}," for r in EXTRAS for p in ("", "Async")],
        ")",
        "from .._pagination import AsyncPaginator, SyncPaginator",
        "from .._transport import AsyncTransport, SyncTransport",
        "from .models import (",
        *[f"    {n}," for n in used],
        ")",
        "",
        "__all__ = [" + ", ".join(f'"{p}{CLASS_NAMES[r]}"' for r in CLASS_NAMES for p in ("", "Async")) + "]",
    ]
    # Children before parents: a parent's __init__ builds its sub-resources.
    for resource in sorted(CLASS_NAMES, key=lambda r: -r.count(".") - (r != "")):
        for is_async in (False, True):
            prefix = "Async" if is_async else ""
            cls = prefix + CLASS_NAMES[resource]
            bases = [prefix + EXTRAS[resource]] if resource in EXTRAS else []
            transport = "AsyncTransport" if is_async else "SyncTransport"
            out += ["", "", f"class {cls}({', '.join(bases)}):" if bases else f"class {cls}:"]
            children = [r for r in CLASS_NAMES if r and r.rsplit(".", 1)[0] == resource and r != resource]
            if resource == "":
                children = [r for r in CLASS_NAMES if r and "." not in r]
            out += [f"    def __init__(self, client: {transport}) -> None:", "        self._client = client"]
            for child in children:
                attr = child.rsplit(".", 1)[-1]
                out.append(f"        self.{attr} = {prefix}{CLASS_NAMES[child]}(client)")
            for op in by_resource.get(resource, []):
                out.append("")
                out += method_source(op, is_async)
    return "\n".join(out) + "\n"

