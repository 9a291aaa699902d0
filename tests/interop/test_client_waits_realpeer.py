"""The named clients' waits, read from their packages' sources (issue 37, docs/time.md).

Each wait a named client model states as a quirk value (``probe-timeout``,
``connect-timeout``, ``request-timeout``) is the default a constant of its package sets;
this drift check installs the package (or reuses the cached install) and reads the
constant from the file the model cites, so a release that changes a default fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcp_skew.peers import resolve
from mcp_skew.realpeers._envs import EnvironmentUnavailable
from mcp_skew.realpeers._installs import install

#: (named client, quirk, the file under the install root (a glob), the constant, ms per unit)
WAITS = (
    ("py-mcp@2.3", "probe-timeout", "lib/python*/site-packages/mcp/client/session.py",
     r"DISCOVER_TIMEOUT_SECONDS = ([\d.]+)", 1000),
    ("ts-client@2.4:auto", "probe-timeout", "@modelcontextprotocol/client/dist/src-*.mjs",
     r"DEFAULT_REQUEST_TIMEOUT_MSEC = ([\de.]+)", 1),
    *((f"inspector@2.12:{mode}", "connect-timeout",
       "@modelcontextprotocol/inspector/clients/cli/build/index.js",
       r"DEFAULT_CONNECT_TIMEOUT_MS = ([\de.]+)", 1) for mode in ("legacy", "auto", "modern")),
    *((f"inspector@2.12:{mode}", "request-timeout", "@modelcontextprotocol/client/dist/src-*.mjs",
       r"DEFAULT_REQUEST_TIMEOUT_MSEC = ([\de.]+)", 1) for mode in ("legacy", "auto", "modern")),
)


def _constant(root: Path, pattern: str, regex: str) -> float:
    values = {float(m.group(1)) for path in sorted(root.glob(pattern))
              for m in re.finditer(regex, path.read_text(encoding="utf-8", errors="replace"))}
    assert len(values) == 1, f"{regex} in {pattern} under {root}: {sorted(values)}"
    return values.pop()


@pytest.mark.parametrize(("name", "quirk", "pattern", "regex", "unit"), WAITS,
                         ids=[f"{w[0]}-{w[1]}" for w in WAITS])
def test_a_named_clients_wait_is_its_packages_default(name: str, quirk: str, pattern: str,
                                                       regex: str, unit: int) -> None:
    resolved = resolve(name, "client")
    assert resolved is not None
    package = resolved.line.installs
    assert package is not None
    try:
        env = install(package)
    except EnvironmentUnavailable as exc:
        pytest.skip(str(exc))
    stated = dict(resolved.peer().quirks)[quirk]
    assert stated is not None
    assert _constant(env.root, pattern, regex) * unit == int(stated)
