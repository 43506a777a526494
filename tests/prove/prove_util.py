"""Shared helpers for the reliability and security proofs (issue 8).

Imported as a plain module (pytest puts this directory on sys.path).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_path(relative: str) -> ModuleType:
    """Import a script that is not in a package (fuzz/ and benchmarks/ files)."""
    path = ROOT / relative
    name = "prove_" + path.stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
