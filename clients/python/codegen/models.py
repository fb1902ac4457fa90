"""models.py: a TypedDict per schema and per inline object of a request or an answer, and Literal aliases."""

from __future__ import annotations

import json
import keyword
from dataclasses import dataclass, field
from typing import Any

from .text import HEADER, camel, docstring, one_line


@dataclass
class Models:
    """Collects the TypedDicts of a document, named after where they appear, each emitted once."""

    doc: dict[str, Any]
    blocks: list[str] = field(default_factory=list)
    names: set[str] = field(default_factory=set)

    def ref_name(self, ref: str) -> str:
        return ref.rsplit("/", 1)[1]

    def type_of(self, schema: dict[str, Any], name: str) -> str:
        if "$ref" in schema:
            return self.ref_name(schema["$ref"])
        if "anyOf" in schema:
            options = [self.type_of(s, f"{name}{i}") for i, s in enumerate(schema["anyOf"])]
            return " | ".join(dict.fromkeys(options))
        if "const" in schema:
            return f"Literal[{json.dumps(schema['const']).replace('true', 'True').replace('false', 'False')}]"
        types = schema.get("type")
        nullable = isinstance(types, list) and "null" in types
        if isinstance(types, list):
            rest = [t for t in types if t != "null"]
            types = rest[0] if len(rest) == 1 else rest
        if "enum" in schema:
            values = [v for v in schema["enum"] if v is not None]
            nullable = nullable or None in schema["enum"]
            text = f"Literal[{', '.join(json.dumps(v) for v in values)}]"
        elif isinstance(types, list):
            text = " | ".join(self.type_of({**schema, "type": t}, name) for t in types)
        elif types == "string":
            text = "str"
        elif types == "integer":
            text = "int"
        elif types == "number":
            text = "float"
        elif types == "boolean":
            text = "bool"
        elif types == "array":
            text = f"list[{self.type_of(schema.get('items', {}), name + 'Item')}]"
        elif types == "object" or "properties" in schema:
            text = self.object_type(schema, name)
        else:
            text = "Any"
        return f"{text} | None" if nullable else text

    def object_type(self, schema: dict[str, Any], name: str) -> str:
        props: dict[str, Any] = schema.get("properties") or {}
        if not props:
            extra = schema.get("additionalProperties")
            value = self.type_of(extra, name + "Value") if isinstance(extra, dict) else "Any"
            return f"dict[str, {value}]"
        self.typed_dict(name, schema)
        return name

    def typed_dict(self, name: str, schema: dict[str, Any]) -> None:
        if name in self.names:
            return
        self.names.add(name)
        required = set(schema.get("required", []))
        fields: list[tuple[str, str, str | None]] = []
        for prop, sub in schema.get("properties", {}).items():
            text = self.type_of(sub, name + camel(prop))
            fields.append((prop, text if prop in required else f"NotRequired[{text}]", sub.get("description")))
        doc = schema.get("description")
        if all(p.isidentifier() and not keyword.iskeyword(p) for p, _, _ in fields):
            lines = [f"class {name}(TypedDict):"]
            if doc:
                lines.append(f"    {docstring(doc, 4)}")
            for prop, text, about in fields:
                if about:
                    lines.append(f"    # {one_line(about)}")
                lines.append(f"    {prop}: {text}")
        else:
            # A key such as `from` is no identifier: the functional form spells it as a string.
            entries = "".join(f"        {json.dumps(p)}: {json.dumps(t)},\n" for p, t, _ in fields)
            lines = [f"{name} = TypedDict(\n    {json.dumps(name)},\n    {{\n{entries}    }},\n)"]
        self.blocks.append("\n".join(lines))



def models_module(doc: dict[str, Any], models: Models) -> str:
    for name, schema in doc["components"]["schemas"].items():
        if name != "Error":
            models.typed_dict(name, schema)
    head = (
        HEADER
        + '"""Types of the REST API: a TypedDict per schema, as the JSON answers hold them."""\n\n'
        + "from __future__ import annotations\n\n"
        + "from typing import Any, Literal, NotRequired, TypedDict\n\n"
        + "__all__ = [\n"
        + "".join(f'    "{n}",\n' for n in sorted(models.names))
        + "]\n"
    )
    return head + "\n\n" + "\n\n\n".join(models.blocks) + "\n"
