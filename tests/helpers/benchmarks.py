"""A benchmark script of ``benchmarks/`` loaded as a module, for the tests that run its parts."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from helpers.paths import ROOT


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as the module ``name`` (registered first: its dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
