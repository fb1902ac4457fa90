"""errors.py: an exception class per `error.code` of the document's error envelope, under its status's class."""

from __future__ import annotations

import builtins
from typing import Any

from .text import HEADER, camel

# Status classes the per-code exceptions derive from (memory_service/_errors.py defines them).
STATUS_BASES = {
    400: "BadRequestError",
    401: "AuthenticationError",
    403: "PermissionDeniedError",
    404: "APIStatusError",
    409: "ConflictError",
    422: "UnprocessableEntityError",
    429: "TooManyRequestsError",
}


def error_codes(doc: dict[str, Any]) -> list[tuple[str, int | None, bool]]:
    """Each code of the error envelope, its status (from the operations' responses) and whether it is retryable."""
    codes: list[str] = doc["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    status: dict[str, int] = {}
    retryable: set[str] = set()
    responses = doc["components"]["responses"]
    for methods in doc["paths"].values():
        for op in methods.values():
            for code, answer in op["responses"].items():
                ref = answer.get("$ref")
                if ref:
                    for c in responses[ref.rsplit("/", 1)[1]]["description"].split(", "):
                        name = c.split(" ")[0]
                        status[name] = int(code)
                        if c.endswith("(retryable)"):
                            retryable.add(name)
    return [(c, status.get(c), c in retryable) for c in codes]


def error_class(code: str) -> str:
    name = camel(code.lower())
    name = name if name.endswith("Error") else name + "Error"
    # A builtin's name (TimeoutError) would shadow it wherever the package is star-imported.
    return f"Service{name}" if name in dir(builtins) else name


def errors_module(doc: dict[str, Any]) -> str:
    lines = [
        HEADER + '"""An exception class per `error.code` of the API, each under the class of its HTTP status."""',
        "",
        "from __future__ import annotations",
        "",
        "from .._errors import (",
        *[f"    {b}," for b in sorted({*STATUS_BASES.values(), "ServerError"})],
        ")",
        "",
    ]
    table = []
    for code, status, retry in error_codes(doc):
        base = STATUS_BASES.get(status or 0, "ServerError" if (status or 0) >= 500 else "APIStatusError")
        cls = error_class(code)
        lines += [
            "",
            f"class {cls}({base}):",
            f'    """`{code}`{f" (HTTP {status})" if status else ""}{"; retryable" if retry else ""}."""',
            "",
        ]
        table.append(f'    "{code}": {cls},')
    lines += [
        "",
        "# error.code -> its class; a code this version does not know falls back to the class of its status.",
        "ERROR_CLASSES: dict[str, type[APIStatusError]] = {",
        *table,
        "}",
        "# Codes the API marks retryable: a retry may succeed (once the cause passes).",
        "RETRYABLE_CODES = frozenset({" + ", ".join(f'"{c}"' for c, _, r in error_codes(doc) if r) + "})",
        "",
    ]
    return "\n".join(lines)

