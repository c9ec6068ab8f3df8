"""Per-game encodings: one module per game, named after it (``toy.py``, later
``tikal.py`` and ``tzolkin.py``), each registering a
:class:`~mayagames.rl.encoding.GameEncoding` on import."""
