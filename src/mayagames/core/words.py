"""Small helpers for texts a player reads, shared by the games' phrasings.

>>> plural(1, "worker"), plural(3, "worker")
('1 worker', '3 workers')
"""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``n word`` with an English plural ``s`` unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
