"""The API's types (TypedDicts of the answers and of nested request fields), generated from its OpenAPI
document: `from memory_service.types import Memory`."""

from .generated.models import *  # noqa: F403
from .generated.models import __all__ as __all__
