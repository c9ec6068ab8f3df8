"""The browser client: static files (HTML, CSS, ES modules), no build step.

``static/games/<game>.js`` draws a game's board as SVG from a seat's view; the
table page falls back to ``static/games/generic.js`` when a game has none.
"""

from pathlib import Path

STATIC_DIR = Path(__file__).parent / "static"
