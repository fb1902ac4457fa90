"""HTTP for both clients, the transports the generated resources call: the blocking one (_sync_transport.py) and
the asyncio one (_async_transport.py), over the settings and decisions they share (_transport_base.py): answers as
envelopes or exceptions by `error.code` (_response.py) and the retry rules with their idempotency keys
(_retry.py)."""

from ._async_transport import AsyncTransport
from ._retry import DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_WAIT
from ._sync_transport import SyncTransport
from ._transport_base import DEFAULT_BASE_URL, DEFAULT_TIMEOUT, BodyFactory, TransportBase

__all__ = [
    "AsyncTransport",
    "SyncTransport",
    "TransportBase",
    "BodyFactory",
    "DEFAULT_BASE_URL",
    "DEFAULT_TIMEOUT",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_MAX_RETRY_WAIT",
]
