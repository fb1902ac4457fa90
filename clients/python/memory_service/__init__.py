"""Python client of the Memory Storage Service: `MemoryService` and `AsyncMemoryService`."""

from ._base import NOT_GIVEN, NotGiven
from ._client import AsyncMemoryService, MemoryService
from ._errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    MemoryServiceError,
    PermissionDeniedError,
    ServerError,
    TooManyRequestsError,
    UnprocessableEntityError,
)
from ._extras import ExportRecord, ImportReport
from ._pagination import AsyncPaginator, Page, SyncPaginator
from ._version import __version__
from .generated.errors import *  # noqa: F403 (one class per error.code)
from .generated.errors import ERROR_CLASSES

__all__ = [
    "MemoryService",
    "AsyncMemoryService",
    "NOT_GIVEN",
    "NotGiven",
    "Page",
    "SyncPaginator",
    "AsyncPaginator",
    "ExportRecord",
    "ImportReport",
    "MemoryServiceError",
    "APIConnectionError",
    "APITimeoutError",
    "APIStatusError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "ConflictError",
    "UnprocessableEntityError",
    "TooManyRequestsError",
    "ServerError",
    "ERROR_CLASSES",
    "__version__",
    *(cls.__name__ for cls in ERROR_CLASSES.values()),
]
