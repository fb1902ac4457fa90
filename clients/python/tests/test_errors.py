"""Errors: the class of each error.code, under the class of its status, carrying request_id, code and details."""

from __future__ import annotations

import uuid

import pytest

from memory_service import (
    ERROR_CLASSES,
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ForbiddenError,
    IdempotencyKeyReusedError,
    MemoryService,
    MemoryServiceError,
    NotFoundError,
    PermissionDeniedError,
    UnauthorizedError,
    UnprocessableEntityError,
    ValidationError,
)

MISSING = "00000000-0000-4000-8000-000000000000"


def test_not_found(client: MemoryService) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.memories.get(MISSING)
    e = caught.value
    assert isinstance(e, APIStatusError) and isinstance(e, MemoryServiceError)
    assert e.status == 404 and e.code == "NOT_FOUND" and e.request_id
    assert e.request_id == e.headers["x-request-id"] and e.request_id in str(e)


def test_validation_details(client: MemoryService) -> None:
    with pytest.raises(ValidationError) as caught:
        client.memories.create(content="x", metadata={"__proto__": 1})
    e = caught.value
    assert isinstance(e, BadRequestError) and e.status == 400
    assert e.field == "metadata.__proto__" and e.constraint == "reserved_key"
    assert e.details["field"] == e.field


def test_authentication_and_permission(client: MemoryService, base_url: str) -> None:
    with MemoryService("svc_live_not_a_key", base_url=base_url) as stranger:
        with pytest.raises(UnauthorizedError) as caught:
            stranger.tags.list().page()
        assert isinstance(caught.value, AuthenticationError) and caught.value.status == 401
    reader = client.keys.create(name="read only", scopes=["memories:read"])
    with MemoryService(reader["key"], base_url=base_url) as c:
        with pytest.raises(ForbiddenError) as denied:
            c.memories.create(content="no")
        assert isinstance(denied.value, PermissionDeniedError) and "memories:write" in denied.value.message


def test_idempotency_key_reused(client: MemoryService) -> None:
    key = str(uuid.uuid4())
    first = client.memories.create(content="once", idempotency_key=key)
    again = client.memories.create(content="once", idempotency_key=key)
    assert again["id"] == first["id"]
    with pytest.raises(IdempotencyKeyReusedError) as caught:
        client.memories.create(content="another body", idempotency_key=key)
    assert isinstance(caught.value, UnprocessableEntityError) and caught.value.details["constraint"] == "same_request"


def test_every_code_has_a_class() -> None:
    for code, cls in ERROR_CLASSES.items():
        assert issubclass(cls, APIStatusError), code
    assert ERROR_CLASSES["RATE_LIMITED"].__name__ == "RateLimitedError"
    assert ERROR_CLASSES["TIMEOUT"].__name__ == "ServiceTimeoutError"


def test_missing_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMORY_SERVICE_API_KEY", raising=False)
    with pytest.raises(MemoryServiceError, match="MEMORY_SERVICE_API_KEY"):
        MemoryService()
