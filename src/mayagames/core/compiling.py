"""What the engine modules need for the optional compiled build (docs/design.md, "The
compiled build"): mypyc's ``mypyc_attr`` class decorator, a no-op when ``mypy_extensions`` is
not installed (the pure-Python package needs nothing of it).

``@mypyc_attr(native_class=False)`` keeps a class a regular Python class (with a
``__dict__``, attributes added freely, generated methods) when its module is compiled; its
methods are still compiled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # mypy (and so mypyc) must see the real decorator to honour it
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # pure Python without mypy installed: the decorator changes nothing
        def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[Any], Any]:
            return lambda cls: cls

__all__ = ["mypyc_attr"]
