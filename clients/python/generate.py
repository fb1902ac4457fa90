"""Generates memory_service/generated/ from the service's OpenAPI document.

Usage: /usr/bin/python3 clients/python/generate.py <openapi.json> [<out dir>]
(the out dir defaults to clients/python/memory_service/generated; npm test regenerates into a temporary
directory and compares, so a route or schema change that is not regenerated fails the suite).

Standard library only: it runs wherever the package is built. Its parts are in codegen/. Three modules come out:
- models.py: a TypedDict per schema, per inline object of a request or an answer, and Literal aliases;
- errors.py: an exception class per `error.code` of the document's error envelope;
- resources.py: the resource classes (sync and async, the same methods) with one keyword per field.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from codegen.errors import errors_module
from codegen.models import Models, models_module
from codegen.operations import operations
from codegen.resources import resources_module
from codegen.text import HEADER


def generate(doc: dict[str, Any], out_dir: Path) -> None:
    models = Models(doc)
    ops = operations(doc, models)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "models.py").write_text(models_module(doc, models))
    (out_dir / "errors.py").write_text(errors_module(doc))
    (out_dir / "resources.py").write_text(resources_module(ops, models.names))
    (out_dir / "__init__.py").write_text(HEADER + '"""Code generated from the OpenAPI document."""\n')


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: generate.py <openapi.json> [<out dir>]")
    default = Path(__file__).parent / "memory_service" / "generated"
    generate(json.loads(Path(sys.argv[1]).read_text()), Path(sys.argv[2]) if len(sys.argv) == 3 else default)
