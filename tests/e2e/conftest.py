"""Browser tests: real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright,
against a live server in a thread. Skipped cleanly when Chromium or Playwright is missing."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

from mayagames.server.limits import ServerLimits

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    reason = None
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} is not installed (apt-get install chromium)"
    elif importlib.util.find_spec("playwright") is None:
        reason = "playwright is not installed"
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.e2e)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


def load_support() -> ModuleType:
    name = "mayagames_server_test_support"
    if name not in sys.modules:
        path = Path(__file__).parent.parent / "server" / "support.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture
def support(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = load_support()
    module.install(monkeypatch)
    return module


@pytest.fixture
def server(tmp_path: Path, support: ModuleType) -> Iterator[Any]:
    from mayagames.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'e2e.db'}", bot_delay=0.05, list_test_games=True,
                     limits=ServerLimits(allow_fixed_seed=True).without_rate_limits())  # seeds fixed; API-driven moves run fast
    with support.LiveServer(app) as live:
        yield live


@pytest.fixture
def quick_server(tmp_path: Path, support: ModuleType) -> Iterator[Any]:
    """A live server whose bots move at once (long games against a bot)."""
    from mayagames.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'e2e.db'}", bot_delay=0.0, list_test_games=True,
                     limits=ServerLimits(allow_fixed_seed=True).without_rate_limits())  # seeds fixed; API-driven moves run fast
    with support.LiveServer(app) as live:
        yield live


@pytest.fixture
def players_server(tmp_path: Path, support: ModuleType) -> Iterator[Any]:
    """A live server for accounts and the lobby: bots move at once, no per-address rate
    limits (games are driven through the API at full speed)."""
    from mayagames.server import create_app

    app = create_app(f"sqlite:///{tmp_path / 'players.db'}", bot_delay=0.0,
                     fast_password_hashes=True, limits=ServerLimits().without_rate_limits())
    with support.LiveServer(app) as live:
        yield live


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Open pages in fresh browser contexts (separate localStorage: separate people)."""
    contexts = []

    def open_page(width: int = 1280, height: int = 860, tour: bool = False, **options: Any) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(15_000)
        if not tour:  # the first-game guide is tested on its own; elsewhere it is done
            context.add_init_script("for (const g of ['tikal', 'tzolkin', 'toy', 'tally', 'toysecret'])"
                                    " localStorage.setItem('mayagames:tour:' + g, 'done');")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    errors: list[str] = []
    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors in the page: {errors}"


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $MAYAGAMES_SCREENSHOTS if set (CI artefacts), else the test's tmp dir."""
    folder = Path(os.environ.get("MAYAGAMES_SCREENSHOTS", tmp_path / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
