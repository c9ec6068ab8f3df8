"""A game's rules page as HTML (served at ``/rules/NAME``).

The text is the game package's own Markdown (``GameInfo.rules_page``, e.g.
``mayagames/tikal/rules_page.md``), rendered with ``markdown-it-py`` (already installed
with Rich). Every ``##``/``###`` heading gets an anchor id from its words (``## The gears``
-> ``id="the-gears"``), so other pages can link to a section: ``/rules/tzolkin#buildings``.

>>> from mayagames.core import get_game
>>> page = rules_html(get_game("tzolkin"))
>>> '<h2 id="food-days">Food Days</h2>' in page
True
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from markdown_it import MarkdownIt

from ..core.game import GameInfo

_HEADING = re.compile(r"<h([23])>(.*?)</h\1>")


def slug(text: str) -> str:
    """``The gears`` -> ``the-gears``; ``Tzolk'in: how`` -> ``tzolkin-how`` (tags dropped)."""
    words = re.sub(r"<[^>]+>", "", html.unescape(text)).lower()
    words = re.sub(r"['’]", "", words)
    return re.sub(r"[^a-z0-9]+", "-", words).strip("-")


def anchored(body: str) -> str:
    """Give each h2/h3 an id (its slug)."""
    return _HEADING.sub(lambda m: f'<h{m.group(1)} id="{slug(m.group(2))}">{m.group(2)}</h{m.group(1)}>',
                        body)


def section_ids(info: GameInfo) -> list[str]:
    """The anchor ids of a game's rules page, in order."""
    return [slug(m.group(2)) for m in _HEADING.finditer(render_markdown(info.rules_page))]


def render_markdown(text: str) -> str:
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)


@lru_cache(maxsize=8)
def _page(name: str, title: str, text: str) -> str:
    body = anchored(render_markdown(text))
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)}: rules</title>
  <link rel="stylesheet" href="/static/css/style.css">
  <style>
    main.rules {{ max-width: 52rem; margin: 0 auto; padding: 1rem; line-height: 1.5; }}
    main.rules table {{ border-collapse: collapse; margin: .5rem 0 1rem; }}
    main.rules th, main.rules td {{ border: 1px solid #bbb; padding: .25rem .5rem; vertical-align: top; }}
    main.rules h2 {{ margin-top: 2rem; }}
    main.rules h2:target, main.rules h3:target {{ background: #fff3c4; }}
  </style>
</head>
<body>
  <header class="top"><a href="/">mayagames</a><span class="sub">{html.escape(title)}: rules</span></header>
  <main class="rules" data-game="{html.escape(name)}">
{body}
  </main>
</body>
</html>
"""


def rules_html(info: GameInfo) -> str:
    """The rules page of ``info`` as a whole HTML document (empty string if it has none)."""
    if not info.rules_page:
        return ""
    return _page(info.name, info.title, info.rules_page)
