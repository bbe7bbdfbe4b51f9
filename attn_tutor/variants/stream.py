"""The generator's random numbers: an endless, platform-independent stream of integers named by
its parts (a seed and labels), shared by every kind's generator (attention's in
:mod:`attn_tutor.variants.generate`, each other kind's ``kinds/<name>/generate.py``).

BLAKE2b (``hashlib``, the same on every platform) over a key made from the parts, read as 64-bit
words, with rejection sampling for unbiased ranges. No numpy, no ``random``: a numpy or Python
upgrade cannot change a problem.
"""

from __future__ import annotations

import hashlib
import json

from attn_tutor.core.errors import UsageError
from attn_tutor.core.model import SEED_MAX

IntMatrix = tuple[tuple[int, ...], ...]


class Stream:
    """An endless, platform-independent stream of integers named by ``parts``."""

    def __init__(self, *parts: object) -> None:
        label = json.dumps(parts, ensure_ascii=False, separators=(",", ":")).encode()
        self._key = hashlib.blake2b(label, digest_size=32).digest()
        self._block = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            digest = hashlib.blake2b(self._block.to_bytes(8, "little"), key=self._key, digest_size=64).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[i : i + 8], "little") for i in range(56, -8, -8)]
        return self._words.pop()  # the first 8 bytes first

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def integer(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)

    def matrix(self, rows: int, cols: int, bounds: tuple[int, int], *, nonzero_rows: bool = False) -> IntMatrix:
        """Integers in ``bounds``; with ``nonzero_rows`` an all-zero row is drawn again."""
        out = []
        for _ in range(rows):
            row = tuple(self.integer(*bounds) for _ in range(cols))
            tries = 1
            while nonzero_rows and not any(row):
                row = tuple(self.integer(*bounds) for _ in range(cols))
                tries += 1
                if tries > 64:  # never in practice (a chance of 3^-64 at worst): a fixed non-zero row
                    row = (1,) + (0,) * (cols - 1)
            out.append(row)
        return tuple(out)

    def sample(self, n: int, k: int) -> list[int]:
        """k distinct numbers from 0..n-1 (a partial Fisher-Yates shuffle)."""
        pool = list(range(n))
        for i in range(k):
            j = i + self.below(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


def check_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise UsageError("generate.bad_seed", seed=seed, most=SEED_MAX)
