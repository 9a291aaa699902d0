"""Names of a package face read on first use (PEP 562), so that importing the face does not
load a heavy module until one of its names is asked for."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["first_use"]


def first_use(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name of ``homes`` is imported from its
    module (relative to ``package``) when first read, then kept in the package."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home, package), name)
        setattr(sys.modules[package], name, value)  # read once
        return value

    return __getattr__
