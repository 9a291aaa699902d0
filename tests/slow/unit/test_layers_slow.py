"""The import direction: each layer of ``mcp_skew`` imports only the layers below it.

The layers are DESIGN.md's "The layout", written here as data (:data:`LAYERS`):
``versions`` at the bottom, the pure ``simulator`` on it, the ``wire`` (real
transports) on that, the features above, and the command line on top. The check
reads every module with :mod:`ast`, so it sees what an import-time test would miss:
imports inside functions, under ``TYPE_CHECKING``, and the names given to
``importlib.import_module`` / ``__import__`` (a string, a module-level string
constant, or the constant head of an f-string), relative ones resolved against the
module's package. The simulator is also checked for I/O: it imports no process,
socket, thread, file or clock module and calls no ``print``/``open``/``input``.

Sideways imports between features are named exceptions (:data:`EXCEPTIONS`), each
with its reason; a test fails when one is no longer used, so the list only shrinks.
The self-tests run the checker on a synthetic package, so this test can fail.

These tests start processes or open sockets (slow);
the fast ones are in ``tests/unit/test_layers.py``.
"""

from __future__ import annotations

import subprocess
import sys

from _paths import ROOT


def test_importing_the_simulator_loads_only_the_layers_below_it() -> None:
    """The simulator, the transcript record it writes and versions, and the leaves it uses
    (``_memo``, ``_numbers``): nothing above (the package's own ``__init__`` reads the
    version, a literal in ``_version``). The JSON limits (``_jsontext``) load when a profile
    file or a document from outside is read, not with the simulator."""
    code = ("import sys, mcp_skew.simulator; print(' '.join(sorted({'.'.join(m.split('.')[:2]) "
            "for m in sys.modules if m.startswith('mcp_skew')})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["mcp_skew", "mcp_skew._memo", "mcp_skew._numbers",
                   "mcp_skew._version", "mcp_skew.errors", "mcp_skew.simulator",
                   "mcp_skew.transcript", "mcp_skew.versions"]
