"""The package's build backend (build_backend/mayagames_build.py, issue 22): a compiled wheel
by default, the pure-Python wheel when asked (MAYAGAMES_PURE=1) or when the compiled build
fails, unless CI requires it (MAYAGAMES_REQUIRE_COMPILED=1). setuptools' own build is replaced
by a stand-in here; CI builds the real wheel (.ci/wheels.sh) and tests it (.ci/compiled.sh)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> Any:
    spec = importlib.util.spec_from_file_location("mayagames_build_under_test",
                                                  ROOT / "build_backend" / "mayagames_build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("MAYAGAMES_PURE", "MAYAGAMES_REQUIRE_COMPILED", module.COMPILE_ENV):
        monkeypatch.delenv(name, raising=False)
    return module


def stand_in(backend: Any, monkeypatch: pytest.MonkeyPatch, compiler_works: bool) -> list[str]:
    built: list[str] = []

    def build_wheel(directory: str, settings: Any = None, metadata: Any = None) -> str:
        if os.environ.get(backend.COMPILE_ENV) == "1":
            if not compiler_works:
                raise SystemExit("error: command 'gcc' failed")
            built.append("compiled")
            return "mayagames-0.1.0-cp311-cp311-linux_x86_64.whl"
        built.append("pure")
        return "mayagames-0.1.0-py3-none-any.whl"

    monkeypatch.setattr(backend._setuptools, "build_wheel", build_wheel)
    return built


def test_a_wheel_is_compiled_by_default(backend, monkeypatch):
    built = stand_in(backend, monkeypatch, compiler_works=True)
    assert backend.build_wheel("dist").endswith("linux_x86_64.whl")
    assert built == ["compiled"]
    assert backend.COMPILE_ENV not in os.environ
    assert any(r.startswith("mypy") for r in backend.get_requires_for_build_wheel())


def test_pure_when_asked(backend, monkeypatch):
    monkeypatch.setenv("MAYAGAMES_PURE", "1")
    built = stand_in(backend, monkeypatch, compiler_works=True)
    assert backend.build_wheel("dist").endswith("py3-none-any.whl")
    assert built == ["pure"]
    assert not any(r.startswith("mypy") for r in backend.get_requires_for_build_wheel())


def test_pure_when_the_compiled_build_fails(backend, monkeypatch, capsys):
    built = stand_in(backend, monkeypatch, compiler_works=False)
    assert backend.build_wheel("dist").endswith("py3-none-any.whl")
    assert built == ["pure"]
    assert "building the pure-Python wheel instead" in capsys.readouterr().err


def test_ci_requires_the_compiled_build(backend, monkeypatch):
    monkeypatch.setenv("MAYAGAMES_REQUIRE_COMPILED", "1")
    stand_in(backend, monkeypatch, compiler_works=False)
    with pytest.raises(SystemExit):
        backend.build_wheel("dist")


def test_setup_compiles_the_modules_build_compiled_lists():
    """setup.py takes its module list from tools/build_compiled.py (mayagames.COMPILED_MODULES)."""
    text = (ROOT / "setup.py").read_text()
    assert "from build_compiled import compiled_modules" in text
    assert "MAYAGAMES_BUILD_COMPILED" in text
