"""The family tables of AI apps in the named-peer catalogue: the coding agents people run
against their servers (data; docs/apps.md).

Three apps can be driven headless without an account, through their own MCP health check
(`claude mcp list`, `gemini mcp list`, `opencode mcp list`: each connects to the configured
stdio server and prints its status), so their models are measured: probe-client ran each
release against every simulated server of the default set plus the sticky-era ones, and the
drift check (``servers/app_client.mjs``) drives it in the real-peer step like the SDK clients.
The others need an account before they touch a server (GitHub Copilot CLI: `copilot -p`
asks for a login first; `copilot mcp list` and `codex mcp list` only print the
configuration), so their lines are built from public reports, marked ``reported`` with the
links, never measured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ._family import ALL_LEGACY, DUAL_ALL, TO_0618, Family, Model, Package, ReleaseLine

__all__ = ["APP_DRIVES", "APP_FAMILIES", "CLAUDE_CODE", "COPILOT_CLI", "GEMINI_CLI", "OPENCODE",
           "AppDrive"]

_DRIVER = "servers/app_client.mjs (a private HOME with the server configured as the app's own " \
          "`mcp add` writes it)"

_CC_96183 = "https://github.com/anthropics/claude-code/issues/96183"

CLAUDE_CODE: Final = Family(
    name="claude-code",
    package="@anthropic-ai/claude-code (npm)",
    client_script="app_client.mjs",
    lines=(
        ReleaseLine((2, 1, 280), "2.1.280 (reported, its stdio negotiation flag on)", None,
             clients={"": Model(
                 f"{DUAL_ALL}+init-after-discover",
                 "with the vendor-set flag tengu_mcp_protocol_negotiation_stdio on, it sends "
                 "server/discover and then initialize 2025-11-25 after a successful "
                 "DiscoverResult; a server on Python mcp 2.x or FastMCP >= 4.0 (sticky-era) "
                 "answers -32022 and the server is lost. Run here headless, 2.1.280 gets no "
                 "such flag and opens with initialize 2025-11-25 only (measured: a legacy "
                 "client), so the behaviour is reported, not measured",
                 reported=(_CC_96183,))}),
        ReleaseLine((2, 1, 332), "2.1.332-2.1.x",
             Package("npm", ("@anthropic-ai/claude-code@2.1.332",), "2.1.332"),
             clients={"": Model(
                 f"{DUAL_ALL}+probe-timeout=2500+restart-after-exit+strict-discover",
                 f"`claude mcp list` (its health check: connect, list the tools) driven by "
                 f"{_DRIVER}; probe-client against the default servers and two sticky-era ones "
                 "(2026-12-05): server/discover 2026-07-28 first (a request id of its own, "
                 "'server-discover-probe-1'), falls back on -32601, -32602 and a silence of "
                 "about 2.5 s (2.53 and 2.58 s measured from the probe) on the same process; "
                 "a server that exits on that initialize is started afresh and initialized "
                 "again (restart-after-exit); a DiscoverResult without capabilities is a "
                 "failed probe (strict-discover); it stays modern with sticky-era servers",
                 args=("--app", "claude-code"),
                 gaps=("its probe wait runs from the server's spawn: a server slower to "
                       "start than 2.5 s (a fresh `mcp-skew serve` on a loaded machine) gets "
                       "initialize before it answers the probe; a modern-only or sticky-era "
                       "server then answers -32022 and it probes again and stays modern (the "
                       "model's re-probe); the drift driver starts each server before the "
                       "app asks for it and hands the app a relay, so it measures the app, "
                       "not the machine",))}),
    ),
)

GEMINI_CLI: Final = Family(
    name="gemini-cli",
    package="@google/gemini-cli (npm)",
    client_script="app_client.mjs",
    lines=(
        ReleaseLine((0, 61, 0), "0.61.x",
             Package("npm", ("@google/gemini-cli@0.61.0",), "0.61.0"),
             clients={"": Model(
                 f"legacy:{TO_0618}",
                 f"`gemini mcp list` (its connection test: initialize, then ping, as client "
                 f"'mcp-test-client') driven by {_DRIVER}, the work folder trusted; "
                 "probe-client against the default servers and two sticky-era ones "
                 "(2026-12-05): initialize 2025-06-18, no probe; a counter-offer of 2025-11-25 "
                 "is refused (not a revision it supports), older ones accepted",
                 args=("--app", "gemini-cli"), drift_scenario="ping")}),
    ),
)

OPENCODE: Final = Family(
    name="opencode",
    package="opencode-ai (npm)",
    client_script="app_client.mjs",
    lines=(
        ReleaseLine((1, 18, 0), "1.18.x",
             Package("npm", ("opencode-ai@1.18.33",), "1.18.33"),
             clients={"": Model(
                 f"legacy:{ALL_LEGACY}",
                 f"`opencode mcp list` (connect, list the tools) with the server in the work "
                 f"folder's opencode.json, driven by {_DRIVER}; probe-client against the "
                 "default servers and two sticky-era ones (2026-12-05): initialize 2025-11-25, "
                 "no probe, counter-offers accepted",
                 args=("--app", "opencode"))}),
    ),
)

_GH_4370 = "https://github.com/github/copilot-cli/issues/4370"
_GH_4525 = "https://github.com/github/copilot-cli/issues/4525"
_GH_4888 = "https://github.com/github/copilot-cli/issues/4888"
_GH_4809 = "https://github.com/github/copilot-cli/issues/4809"

COPILOT_CLI: Final = Family(
    name="copilot-cli",
    package="@github/copilot (npm)",
    lines=(
        ReleaseLine((1, 0, 79), "1.0.79-1.0.80 (reported on 1.0.79-1)", None,
             clients={"": Model(
                 f"{DUAL_ALL}+fallback-32601+exit-fatal",
                 "server/discover first; a -32602 answer (FastMCP on Python mcp 1.x) ends "
                 "the connect where -32601 falls back; 1.0.78 connected",
                 reported=(_GH_4370,))}),
        ReleaseLine((1, 0, 81), "1.0.81-1.0.x (reported on 1.0.81-1.0.86; no fixed release named)",
             None,
             clients={"": Model(
                 f"{DUAL_ALL}+both-at-once+exit-fatal",
                 "server/discover and initialize 2025-11-25 on the wire before either answer "
                 "(a probe wait of about 0.6 s against a server's start-up), initialize's "
                 "answer taken, no second probe: a sticky-era server (Python mcp 2.0-2.2, "
                 "FastMCP 4.0.x) answers -32022 and the server is lost (4525, 4888); a strict "
                 "legacy server that exits on the probe is a permanent 'broken pipe' (4809)",
                 reported=(_GH_4525, _GH_4888, _GH_4809))}),
    ),
)

#: Every app family, in the order the catalogue and `matrix --set apps` list them.
APP_FAMILIES: Final = (CLAUDE_CODE, GEMINI_CLI, OPENCODE, COPILOT_CLI)


@dataclass(frozen=True, slots=True)
class AppDrive:
    """How an app was tried headless, without an account, and when it was measured."""

    command: str  #: the app's own command that connects to a configured stdio server
    measured: str  #: the date probe-client measured it (ISO), or "" where it could not be
    why_not: str = ""  #: why it cannot be driven (a reported-only app)
    package: str = ""  #: the package tried, where no family of the catalogue names it


#: Every app tried, by family (docs/apps.md and docs/named-peers.md list them).
APP_DRIVES: Final[dict[str, AppDrive]] = {
    "claude-code": AppDrive("claude mcp list", "2026-12-05"),
    "gemini-cli": AppDrive("gemini mcp list", "2026-12-05"),
    "opencode": AppDrive("opencode mcp list", "2026-12-05"),
    "copilot-cli": AppDrive(
        "copilot -p PROMPT", "",
        "1.0.102 asks for a login before it starts any server ('To authenticate, you can use "
        "any of the following methods'); `copilot mcp list` and `copilot mcp get` only print "
        "the configuration"),
    "codex": AppDrive(
        "codex exec PROMPT", "",
        "0.171.0: `codex mcp list` only prints the configuration; `codex exec` starts the "
        "configured server (initialize 2025-06-18 seen on the wire) but then calls the model "
        "over the network and never reports the server's status, so nothing headless says "
        "whether it connected; no model is built", package="@openai/codex (npm)"),
}
