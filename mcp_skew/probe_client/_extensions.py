"""The extensions a real client advertises, and whether it reads an MCP App's resource.

Read from each run's wire log (:func:`mcp_skew.simulator.read_extensions`): what the
client declared in ``capabilities.extensions`` (``initialize``, or each request's
``_meta`` client capabilities), and, against a served server that offers MCP Apps
(``+ext=ui``: a tool whose ``_meta.ui.resourceUri`` names ``ui://mcp-skew/app.html``,
listed to a client that advertises the extension), whether it called that tool and read
the resource ("Host MUST use resources/read to fetch the referenced resource URI",
ext-apps 2026-01-26 ``apps.mdx`` §Resource Discovery). The inferred client keeps what it
advertised (``+ext=...``) and, where it was offered an app it never read, the quirk
``no-ui-read``, so a saved client (``--save-peer``) keeps both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..simulator import ExtensionsSeen
from ..versions import EXTENSIONS
from ._infer import InferredClient

__all__ = ["app_fates", "extension_lines", "extensions_dict", "with_extensions"]


def advertised(seen: Sequence[ExtensionsSeen | None]) -> list[str]:
    return sorted({e for s in seen if s is not None for e in s.advertised})


def app_fates(seen: Sequence[ExtensionsSeen | None]) -> list[tuple[int, str, bool, bool]]:
    """Per run whose server listed an app to the client: ``(row, uri, called, read)``."""
    out = []
    for index, s in enumerate(seen, 1):
        if s is None:
            continue
        for by_tool in s.tools.values():
            for tool, uri in sorted(by_tool.items()):
                out.append((index, uri, tool in s.called, uri in s.read))
    return out


def with_extensions(inferred: InferredClient,
                    seen: Sequence[ExtensionsSeen | None]) -> InferredClient:
    """``inferred`` advertising what the runs show, with ``no-ui-read`` where it was offered
    an app and never read it."""
    spec = inferred.spec
    known = tuple(e for e in advertised(seen) if EXTENSIONS.get(e) is not None)
    if spec is None or not known:
        return inferred
    fates = app_fates(seen)
    never = bool(fates) and not any(read for *_, read in fates)
    quirks = spec.quirks + ((("no-ui-read", None),) if never and not spec.has("no-ui-read")
                            else ())
    sentence = inferred.sentence + f"; it advertises {', '.join(known)}"
    if never:
        sentence += "; it never reads the ui:// resource an MCP App's tool names"
    return replace(inferred, spec=replace(spec, extensions=known, quirks=quirks),
                   sentence=sentence)


def extension_lines(seen: Sequence[ExtensionsSeen | None], servers: Sequence[str]) -> list[str]:
    """The card's lines: what it advertises, and each app it was offered."""
    ads = advertised(seen)
    out = [f"  advertises: {', '.join(EXTENSIONS.label(e) for e in ads) if ads else 'none'}"]
    fates = app_fates(seen)
    for row, uri, called, read in fates:
        what = "read it" if read else "never read it"
        out.append(f"  MCP App offered (row {row}, {servers[row - 1]}): {uri}: "
                   f"{'called its tool' if called else 'did not call its tool'}, {what}")
    if not fates and ads:
        out.append("  MCP App: no server listed one to it")
    return out


def extensions_dict(seen: Sequence[ExtensionsSeen | None]) -> dict[str, Any]:
    return {"advertised": advertised(seen),
            "apps": [{"row": row, "uri": uri, "called": called, "read": read}
                     for row, uri, called, read in app_fates(seen)]}
