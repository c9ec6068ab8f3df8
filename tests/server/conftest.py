"""Fixtures of the server tests: an app on a fresh SQLite file, a TestClient, a live server."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator

import pytest



def pytest_configure(config: pytest.Config) -> None:
    # starlette's TestClient suggests another HTTP library; not our concern
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


def load_support() -> ModuleType:
    """tests/server/support.py, loaded once by path (importlib test mode)."""
    name = "mayagames_server_test_support"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("support.py"))
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
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def make_app(db_url: str, support: ModuleType) -> Callable[..., Any]:
    """Build an app on the test's database (call again to 'restart' the server)."""
    from mayagames.server import create_app
    from mayagames.server.limits import ServerLimits

    def build(**kwargs: Any) -> Any:
        kwargs.setdefault("list_test_games", True)
        # Tests poll in tight loops and fix seeds: the rate limits and the seed policy
        # have tests of their own (test_abuse.py), which pass their own limits.
        kwargs.setdefault("limits", ServerLimits(allow_fixed_seed=True).without_rate_limits())
        return create_app(db_url, **kwargs)

    return build


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(make_app()) as test_client:
        yield test_client


@pytest.fixture
def live(make_app: Callable[..., Any], support: ModuleType) -> Iterator[Any]:
    with support.LiveServer(make_app()) as server:
        yield server


class FakeClock:
    """A time source the test moves by hand (epoch seconds)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def players_app(make_app: Callable[..., Any], fake_clock: FakeClock) -> Callable[..., Any]:
    """An app with a fake clock, cheap password hashes and a fast clock keeper."""
    def build(**kwargs: Any) -> Any:
        kwargs.setdefault("time_source", fake_clock)
        kwargs.setdefault("fast_password_hashes", True)
        kwargs.setdefault("clock_tick", 0.02)
        return make_app(**kwargs)

    return build


@pytest.fixture
def pclient(players_app: Callable[..., Any]) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(players_app()) as test_client:
        yield test_client
