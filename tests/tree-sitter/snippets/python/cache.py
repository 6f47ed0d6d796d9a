"""A small LRU cache with time-based expiry."""
import time
import os.path as osp
from collections import OrderedDict
from typing import Generic, TypeVar
from .errors import CacheError, ExpiredError as Expired

DEFAULT_TTL = 300.0
K = TypeVar("K")


class Entry(Generic[K]):
    """One cached value and its deadline."""

    def __init__(self, value, ttl):
        self.value = value
        self.deadline = time.monotonic() + ttl


# Evicts the least recently used entry first.
class LRUCache(OrderedDict, metaclass=type):
    """Bounded mapping.

    Entries older than their TTL are treated as missing.
    """

    def __init__(self, capacity: int, ttl: float = DEFAULT_TTL) -> None:
        super().__init__()
        if capacity <= 0:
            raise CacheError("capacity must be positive")
        self.capacity = capacity
        self.ttl = ttl

    @property
    def full(self) -> bool:
        return len(self) >= self.capacity

    def put(self, key, value):
        """Store value under key, evicting if needed."""
        if self.full:
            self.popitem(last=False)
        self[key] = Entry(value, self.ttl)
        self.move_to_end(key)

    # Raises Expired once the deadline has passed.
    def get_fresh(self, key):
        entry = self[key]
        if entry.deadline < time.monotonic():
            raise Expired(key)
        return entry.value


def load_snapshot(path):
    # Missing snapshots are not an error.
    if not osp.exists(path):
        return LRUCache(16)
    return LRUCache(64)
