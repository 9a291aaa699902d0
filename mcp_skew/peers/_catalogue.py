"""Named peers: real MCP implementations, by release line, as simulator models.

Notation: ``FAMILY@VERSION[:MODE]``, usable wherever a peer spec is accepted
(``mcp-skew simulate --client py-mcp@2.3 --server py-mcp@1.0``), optionally
followed by quirks that are added or overridden (``py-mcp@2.3+probe-timeout=3000``).

- ``VERSION`` with a major only (``@1``, ``@4``) is the newest release line of
  that major, as ``npm install pkg@1`` would pick; ``@1.10`` or ``@1.12.3`` is
  the line that contains that version (missing parts are zero, so ``@1.9`` is
  1.9.0, whose line ends at 1.9.3, and ``@1.9.4`` is the next line).
- ``MODE`` picks a set-up where one package has several (``py-mcp@2.3:legacy``,
  ``ts-server@2.4:modern``); without it the package's default is modelled.

Every model says where it was measured (:attr:`Model.measured`), which version
the drift checks install (:attr:`Line.installs`), and what the model knowingly
leaves out (:attr:`Model.gaps`). The behaviour comes from ``docs/real-peers.md``
(measured by ``benchmarks/measure_real_peers.py``) and from this module's own
measurements, which the drift tests repeat (``tests/interop/test_drift_servers.py``,
``tests/interop/test_drift_clients.py``, ``mcp-skew verify-peer NAME``).

:func:`named_peer` is the built-in resolver: :data:`mcp_skew.peers.NAMED_RESOLVERS`
lists it, and :func:`mcp_skew.peers.resolve_peer` consults it for a head with ``@``
(the simulator's own ``parse_peer`` knows no names).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from ..errors import UsageError
from ..simulator import PeerSpec, parse_peer
from ..versions import Role

__all__ = [
    "FAMILIES",
    "REAL_CLIENTS",
    "REAL_SERVERS",
    "Family",
    "Line",
    "Model",
    "Named",
    "Package",
    "Resolved",
    "builtin_peer",
    "iter_models",
    "known_names",
    "model_names",
    "named_peer",
    "resolve",
    "split_name",
]

Version = tuple[int, int, int]
Ecosystem = Literal["pypi", "npm"]

#: Every legacy revision the registry knows, newest first (what SDKs list as supported).
_ALL_LEGACY = "2025-11-25,2025-06-18,2025-03-26,2024-11-05"
_TO_0618 = "2025-06-18,2025-03-26,2024-11-05"
_TO_0326 = "2025-03-26,2024-11-05"
_DUAL_ALL = f"dual:2026-07-28,{_ALL_LEGACY}"
#: How the Python 1.x and TypeScript 1.x OAuth clients authorize (scenario auth), read from
#: mcp/client/auth/oauth2.py and dist/esm/client/auth.js and checked by
#: tests/interop/test_auth_realpeer.py: without protected resource metadata the MCP origin
#: and the 2025-03-26 default endpoints; dynamic registration only; resource only once
#: protected resource metadata was found.
_AUTH_1X = "+auth-origin-fallback+dcr-only+resource-with-prm-only+default-endpoints"
_AUTH_1X_NOTE = ("; its OAuthClientProvider authorizes by 2025-11-25's discovery with the "
                 "2025-03-26 fallbacks, registers dynamically only, sends resource only "
                 "with protected resource metadata (tests/interop/test_auth_realpeer.py)")

ROLES: Final[tuple[Role, Role]] = ("server", "client")
SERVER_TESTS: Final = "tests/interop/test_drift_servers.py"
CLIENT_TESTS: Final = "tests/interop/test_drift_clients.py"


@dataclass(frozen=True, slots=True)
class Package:
    """What a drift check installs to run the real thing."""

    ecosystem: Ecosystem
    requirements: tuple[str, ...]  #: pip requirements or npm package specs
    version: str  #: the version of the family's package that this installs

    @property
    def text(self) -> str:
        return " ".join(self.requirements)


@dataclass(frozen=True, slots=True)
class Model:
    """One role and set-up of a release line: its simulator notation and its evidence."""

    notation: str  #: the simulator peer spec this set-up behaves like
    evidence: str  #: where the behaviour was measured or read
    #: arguments for the runner script: the server script's (after the interpreter or
    #: ``node_modules``), or the client driver's mode flags
    args: tuple[str, ...] = ()
    #: what the model knowingly leaves out (each a sentence; the docs list them)
    gaps: tuple[str, ...] = ()
    #: a shorter probe wait the drift check gives the real client (and the model) when
    #: the real default would make a check slow (TypeScript v2: 60 s)
    drift_probe_ms: int | None = None
    #: (clients) simulated servers the drift check adds to the common set, for a decision
    #: point of this client's own (a result it refuses)
    drift_servers: tuple[str, ...] = ()
    #: (servers) the scenario a drift check plays after negotiation: ``drift`` (the default
    #: scenario's protocol-level steps, against the project's test server) or ``protocol``
    #: (list the tools, read a missing resource: for a server with its own tools)
    drift_scenario: str = "drift"
    #: (servers) the runner script's arguments for its Streamable HTTP set-up (the check adds
    #: ``--port N``); empty: the model is checked over stdio only
    http_args: tuple[str, ...] = ()
    #: the drift test that checks this model, where the stdio drift check cannot (a client
    #: that speaks only Streamable HTTP upstream: its authorization against serve --http)
    checked_by: str = ""


@dataclass(frozen=True, slots=True)
class Line:
    """A release line: versions ``first`` up to the next line's first, and its models."""

    first: Version
    span: str  #: the versions it covers, as a person reads them (``1.10.0-1.13.x``)
    installs: Package | None  #: the package the drift checks install (None: none exists)
    servers: dict[str, Model] = field(default_factory=dict)  #: mode -> model ('' = default)
    clients: dict[str, Model] = field(default_factory=dict)

    def models(self, role: Role) -> dict[str, Model]:
        return self.servers if role == "server" else self.clients

    @property
    def first_text(self) -> str:
        """``first`` as names write it: ``1.10``, or ``1.9.4`` where the patch is not 0."""
        return ".".join(map(str, self.first if self.first[2] else self.first[:2]))


@dataclass(frozen=True, slots=True)
class Family:
    """One package (or package pair) and its release lines, oldest first."""

    name: str  #: the notation's name (``py-mcp``)
    package: str  #: the package, as its registry names it
    lines: tuple[Line, ...]
    #: the server / client script that runs it (in ``mcp_skew/realpeers/servers/``)
    server_script: str = ""
    client_script: str = ""

    def majors(self) -> list[int]:
        return sorted({line.first[0] for line in self.lines})


@dataclass(frozen=True, slots=True)
class Resolved:
    """A named peer, resolved: the family, the line, the mode and the model."""

    name: str  #: as written, without quirks (``py-mcp@1.12.3``)
    family: Family
    line: Line
    role: Role
    mode: str  #: the mode's key ('' = the default set-up)
    model: Model

    @property
    def default_mode(self) -> str:
        return _DEFAULT_LABEL[self.role].get(self.family.name, "")

    @property
    def canonical(self) -> str:
        """``family@first-of-line[:mode]``: the name of the line itself."""
        return f"{self.family.name}@{self.line.first_text}" + (f":{self.mode}" if self.mode else "")

    def note(self) -> str:
        """Where the behaviour was measured: package, version, and the test that measures it."""
        installs = self.line.installs
        test = self.model.checked_by or (SERVER_TESTS if self.role == "server" else CLIENT_TESTS)
        how = "" if self.model.checked_by else f" (mcp-skew verify-peer {self.canonical})"
        measured = (f"drift-checked on {installs.text} by {test}{how}" if installs
                    else "not installable; model from sources")
        mode = f", {self.mode or self.default_mode or 'default'} set-up" if (
            self.mode or self.default_mode) else ""
        return (f"{self.family.package} {self.line.span} {self.role}{mode}: "
                f"{self.model.evidence}; {measured}")

    def peer(self) -> PeerSpec:
        spec = parse_peer(self.model.notation, self.role)
        return replace(spec, label=self.name, note=self.note())


# -- the catalogue -------------------------------------------------------------------------------

_PY_SILENT = ("the answer to an unknown request is silence, and the process exits on its next "
              "input (mcp/shared/session.py BaseSession._receive_loop validates without a try)")
_PY_32602 = ("unknown and early requests -> -32602 'Invalid request parameters' "
             "(BaseSession._receive_loop's except)")
_PY_APP = ("prompts/list and tools/call of an unknown tool are answered by the application "
           "layer (FastMCP declares prompts; a tool exception becomes isError); the drift "
           "scenario leaves them out")

PY_MCP: Final = Family(
    name="py-mcp",
    package="mcp (PyPI)",
    server_script="py_mcp_server.py",
    client_script="py_mcp_client.py",
    lines=(
        Line((1, 0, 0), "1.0.0-1.8.x", Package("pypi", ("mcp==1.0.0", "pydantic==2.10.*"), "1.0.0"),
             servers={"": Model(
                 "legacy:2024-11-05+silent-exit+strict-lifecycle+fixed=2024-11-05+not-found-code=0"
                 "+drop-unparsable",
                 "initialize always answers 2024-11-05 (types.LATEST_PROTOCOL_VERSION, the request "
                 f"is not read); {_PY_SILENT}; an unknown resource is error 0; measured on 1.0.0, "
                 "versions 1.3-1.8 read in the wheels (docs/real-peers.md §mcp 1.0.0)",
                 gaps=(_PY_APP,))},
             clients={"": Model(
                 "legacy:2024-11-05+stalls-on-server-request",
                 "ClientSession.initialize sends 2024-11-05 and accepts only it "
                 "(SUPPORTED_PROTOCOL_VERSIONS = [1, '2024-11-05'] in mcp/shared/version.py); it "
                 "declares roots, and once the server asks roots/list it reads no more answers "
                 "(its tools/list never returns; no request timeout in 1.0.0): docs/real-peers.md "
                 "§server-everything",
                 args=("--mode", "session"),
                 drift_servers=("legacy:2025-11-25,2024-11-05+asks-roots",))}),
        Line((1, 9, 0), "1.9.0-1.9.3", Package("pypi", ("mcp==1.9.3", "pydantic==2.11.*"), "1.9.3"),
             servers={"": Model(
                 f"legacy:{_TO_0326}+silent-exit+strict-lifecycle+not-found-code=0+drop-unparsable",
                 "initialize negotiates 2025-03-26 / 2024-11-05 (first line to read the request); "
                 f"{_PY_SILENT}; wheels 1.9.0-1.9.3 (docs/real-peers.md §mcp 1.0.0, source "
                 "bisection)", gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{_TO_0326}",
                 "ClientSession.initialize sends 2025-03-26, accepts 2025-03-26 and 2024-11-05",
                 args=("--mode", "session"))}),
        Line((1, 9, 4), "1.9.4-1.9.x", Package("pypi", ("mcp==1.9.4", "pydantic==2.11.*"), "1.9.4"),
             servers={"": Model(
                 f"legacy:{_TO_0326}+unknown-32602+strict-lifecycle+not-found-code=0+drop-unparsable",
                 f"{_PY_32602}, ping before initialize too; initialize negotiates 2025-03-26 / "
                 "2024-11-05; an unknown resource is error 0 (docs/real-peers.md §mcp 1.9.4)",
                 gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{_TO_0326}",
                 "ClientSession.initialize sends 2025-03-26, accepts 2025-03-26 and 2024-11-05",
                 args=("--mode", "session"))}),
        Line((1, 10, 0), "1.10.0-1.13.x",
             Package("pypi", ("mcp==1.10.0", "pydantic==2.11.*"), "1.10.0"),
             servers={"": Model(
                 f"legacy:{_TO_0618}+unknown-32602+strict-lifecycle+not-found-code=0+drop-unparsable",
                 f"as 1.9.4, negotiating up to 2025-06-18; {_PY_32602}, ping before initialize "
                 "too (docs/real-peers.md §mcp 1.10.0 … 1.13.x)", gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{_TO_0618}",
                 "ClientSession.initialize sends 2025-06-18 (types.LATEST_PROTOCOL_VERSION) and "
                 "raises on a revision outside SUPPORTED_PROTOCOL_VERSIONS",
                 args=("--mode", "session"))}),
        Line((1, 14, 0), "1.14.0-1.23.x", Package("pypi", ("mcp==1.22.0",), "1.22.0"),
             servers={"": Model(
                 f"legacy:{_TO_0618}+unknown-32602+not-found-code=0+drop-unparsable",
                 f"{_PY_32602}; ping allowed before initialize from 1.14.0; initialize negotiates "
                 "up to 2025-06-18 (docs/real-peers.md §mcp 1.14.0 … 1.23.x)", gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{_TO_0618}",
                 "ClientSession.initialize sends 2025-06-18; 1999-01-01 answered -> RuntimeError "
                 "(docs/real-peers.md §Python mcp 1.22.0 client)", args=("--mode", "session"))}),
        Line((1, 24, 0), "1.24.0-1.x", Package("pypi", ("mcp==1.30.0",), "1.30.0"),
             servers={"": Model(
                 f"legacy:{_ALL_LEGACY}+unknown-32602+not-found-code=0+drop-unparsable",
                 f"{_PY_32602}; ping allowed early; initialize negotiates up to 2025-11-25 "
                 "(docs/real-peers.md §mcp 1.24.0 … 1.30.0)", gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{_ALL_LEGACY}{_AUTH_1X}",
                 "ClientSession.initialize sends 2025-11-25 (LATEST_PROTOCOL_VERSION from 1.24)"
                 + _AUTH_1X_NOTE, args=("--mode", "session"))}),
        Line((2, 0, 0), "2.0.0-2.x", Package("pypi", ("mcp==2.3.0",), "2.3.0"),
             servers={"": Model(
                 f"{_DUAL_ALL}+sticky-era+early-32602+not-found-code=-32602+drop-unparsable",
                 "MCPServer on mcp/server/runner.py serve_dual_era_loop: the first request fixes "
                 "the era; server/discover without _meta and unknown methods -> -32601; a known "
                 "method before initialize -> -32602; an unsupported initialize revision -> "
                 "2025-11-25; an unknown resource -> -32602 (docs/real-peers.md §mcp 2.0.0 and "
                 "2.3.0)",
                 gaps=(_PY_APP,
                       "on a modern connection a request without _meta (ping included) gets "
                       "-32602; the model serves ping"))},
             clients={
                 # +strict-results: ClientSession.send_request (mcp/client/session.py) runs
                 # mcp_types.methods.validate_server_result(method, negotiated version, raw),
                 # and the 2026-07-28 wire models (mcp_types/_v2026_07_28 ListToolsResult)
                 # require resultType, ttlMs and cacheScope: a result without them raises
                 # pydantic.ValidationError (read in mcp 2.3.0; seen by probe-client's
                 # real-peer test)
                 "": Model(
                     f"{_DUAL_ALL}+probe-timeout=10000+fallback-denylist+strict-results"
                     "+discover-fallback",
                     "Client(mode='auto'), the default: server/discover at 2026-07-28 with a 10 s "
                     "timeout, every error but a disjoint -32022 falls back to initialize "
                     "2025-11-25, and so does a DiscoverResult offering no modern revision "
                     "(mcp/client/_probe.py negotiate_auto; docs/real-peers.md §Python "
                     "mcp 2.3.0 client)", args=("--mode", "auto"),
                     gaps=("a -32022 answer to the fallback initialize re-probes at once; the "
                           "model re-probes only after a probe timeout",)),
                 "legacy": Model(
                     f"legacy:{_ALL_LEGACY}",
                     "Client(mode='legacy'): initialize 2025-11-25 only, 'byte-identical pre-2026 "
                     "behavior'; ClientSession.initialize() behaves the same",
                     args=("--mode", "legacy")),
             }),
    ),
)

FASTMCP: Final = Family(
    name="fastmcp",
    package="fastmcp (PyPI)",
    server_script="fastmcp_server.py",
    lines=(
        Line((4, 0, 0), "4.0.0-4.x", Package("pypi", ("fastmcp==4.2.3",), "4.2.3"),
             servers={"": Model(
                 f"{_DUAL_ALL}+sticky-era+early-32602+not-found-code=-32602+drop-unparsable",
                 "runs on mcp 2.3.0: the mcp 2.x seams message for message (docs/real-peers.md "
                 "§fastmcp 4.2.3)", gaps=(_PY_APP,))}),
    ),
)

_TS_LENIENT = ("no lifecycle gate (requests before initialize are served, _meta is ignored); "
               "unknown methods -> -32601; an unsupported initialize revision -> the latest")
_TS_APP = ("tools/call of an unknown tool is an isError result in 1.x and -32602 in 2.x; the "
           "drift scenario leaves it out")

#: a tools/list whose tools' inputSchema has no type (server-filesystem 2025.1.14)
_UNTYPED_TOOLS = ("legacy:2025-11-25+untyped-input-schema",)

TS_SDK: Final = Family(
    name="ts-sdk",
    package="@modelcontextprotocol/sdk (npm)",
    server_script="ts_sdk_server.mjs",
    client_script="ts_client.mjs",
    lines=(
        Line((1, 25, 0), "1.25.0-1.x",
             Package("npm", ("@modelcontextprotocol/sdk@1.32.2",), "1.32.2"),
             servers={"": Model(
                 f"legacy:{_ALL_LEGACY}+lenient+not-found-code=-32602+drop-unparsable",
                 f"McpServer + StdioServerTransport: {_TS_LENIENT} (2025-11-25 from 1.25.0: "
                 "dist/esm/types.js LATEST_PROTOCOL_VERSION); an unknown resource -> -32602 "
                 "(docs/real-peers.md §TypeScript @modelcontextprotocol/sdk 1.32.2)",
                 args=("--v1",), gaps=(_TS_APP,))},
             clients={"": Model(
                 f"legacy:{_ALL_LEGACY}+strict-tools{_AUTH_1X}",
                 "Client.connect: initialize 2025-11-25, raises on a revision outside "
                 "SUPPORTED_PROTOCOL_VERSIONS (dist/esm/client/index.js); listTools validates "
                 "each tool with ToolSchema (inputSchema type z.literal('object'), "
                 "dist/esm/types.js)" + _AUTH_1X_NOTE,
                 args=("--v1",), drift_servers=_UNTYPED_TOOLS)}),
    ),
)

_V2_PKGS = ("@modelcontextprotocol/server@2.4.0", "@modelcontextprotocol/client@2.4.0")

TS_SERVER: Final = Family(
    name="ts-server",
    package="@modelcontextprotocol/server (npm)",
    server_script="ts_sdk_server.mjs",
    lines=(
        Line((2, 4, 0), "2.4.x", Package("npm", _V2_PKGS, "2.4.0"),
             servers={
                 "dual": Model(
                     f"{_DUAL_ALL}+lenient+not-found-code=-32602+drop-unparsable",
                     "serveStdio(factory): server/discover is a discardable probe, a legacy "
                     f"opening pins a 2025-era instance; {_TS_LENIENT} "
                     "(dist/stdio.mjs; docs/real-peers.md §With serveStdio)",
                     args=("--v2",),
                     gaps=(_TS_APP,
                           "a modern request other than server/discover pins the modern era "
                           "(a later initialize -> -32022); the model keeps serving both")),
                 "modern": Model(
                     "modern:2026-07-28+legacy-32022+no-requested+drop-unparsable",
                     "serveStdio(factory, {legacy: 'reject'}): initialize and every request "
                     "without a protocol version -> -32022 naming 2026-07-28",
                     args=("--v2", "--legacy-reject"), gaps=(_TS_APP,)),
                 "legacy": Model(
                     f"legacy:{_ALL_LEGACY}+lenient+not-found-code=-32602+drop-unparsable",
                     "server.connect(new StdioServerTransport()): as the 1.x SDK, legacy only "
                     "(docs/real-peers.md §With server.connect)",
                     args=("--v2", "--plain-connect"), gaps=(_TS_APP,)),
             }),
    ),
)

_TS_STRICT = ("once negotiated at 2026-07-28, a result without resultType, or a cacheable one "
              "without ttlMs/cacheScope, fails the request (SdkError INVALID_RESULT, "
              "decodeResult in dist/src-*.mjs); the server/discover probe is read leniently")
#: Simulated servers the strict TypeScript v2 client is also checked against.
_STRICT_SERVERS = ("modern:2026-07-28+no-result-type", "modern:2026-07-28+no-cache-hints",
                   "dual:2026-07-28,2025-11-25+no-result-type",
                   # a DiscoverResult offering no modern revision (go-sdk issue 1025)
                   "dual:2026-07-28,2025-11-25+discover-legacy")

TS_CLIENT: Final = Family(
    name="ts-client",
    package="@modelcontextprotocol/client (npm)",
    client_script="ts_client.mjs",
    lines=(
        Line((2, 4, 0), "2.4.x", Package("npm", _V2_PKGS, "2.4.0"),
             clients={
                 "legacy": Model(
                     f"legacy:{_ALL_LEGACY}+strict-tools",
                     "Client with versionNegotiation absent (mode 'legacy', the default): "
                     "initialize 2025-11-25 ('byte-identical' 2025 sequence); listTools "
                     "validates inputSchema type 'object' (core schemas)",
                     args=("--v2", "--mode", "legacy")),
                 "auto": Model(
                     f"{_DUAL_ALL}+restart+probe-timeout=60000+fallback-denylist+strict-results"
                     "+discover-fallback",
                     "versionNegotiation {mode: 'auto'}: server/discover on a throwaway sibling "
                     "process with the request timeout (60 s); a timeout, a closed process, "
                     "any non-modern error or a DiscoverResult offering no modern revision -> "
                     "initialize on the session process; one corrective "
                     "re-probe on -32022 (dist/public-*.mjs negotiateEra, classifyProbeOutcome, "
                     "classifyResult); "
                     f"{_TS_STRICT}",
                     args=("--v2", "--mode", "auto"), drift_probe_ms=3000,
                     drift_servers=_STRICT_SERVERS,
                     gaps=("the probe always runs in a throwaway process, so the session starts "
                           "on a fresh one; the model restarts only after a timeout or an exit",
                           "a -32022 naming a shared modern revision twice fails the connect; "
                           "the model falls back when it also names a handshake revision")),
                 "pin": Model(
                     "modern:2026-07-28+discover+strict-results",
                     "versionNegotiation {mode: {pin: '2026-07-28'}}: server/discover at "
                     "2026-07-28 on a throwaway sibling process; a DiscoverResult offering "
                     "2026-07-28 -> the session speaks it on a fresh process; anything else (an "
                     "error, a timeout, an exit, no 2026-07-28 offered) fails the connect, 'no "
                     "fallback in pin mode' (dist/public-*.mjs negotiateEra); "
                     f"{_TS_STRICT} (docs/real-peers.md §TypeScript v2 client strictness)",
                     args=("--v2", "--mode", "pin"), drift_probe_ms=10_000,
                     drift_servers=_STRICT_SERVERS,
                     gaps=("the probe waits the request timeout (60 s; 10 s in the drift check, "
                           "which a loaded machine's Python start-up must not race), the model "
                           "its request timeout (10 s)",
                           "the probe runs in a throwaway process and the session on a fresh "
                           "one; the model keeps one process")),
             }),
    ),
)

_SE_APP = ("the reference server's own tools (echo takes 'message', there is no 'fail') "
           "and prompts; the drift check plays the protocol steps only (list the tools, read "
           "a missing resource)")


def _everything(version: str) -> Package:
    return Package("npm", (f"@modelcontextprotocol/server-everything@{version}",), version)


_SE_EVIDENCE = ("the reference server's stdio entry (dist/index.js) as npm installs it today; "
                "no lifecycle gate on the SDK's Protocol (requests before initialize are served), "
                "unknown methods -> -32601, an unsupported initialize revision -> the SDK's latest")
_SE_SDK_NOW = "@modelcontextprotocol/sdk resolves to 1.32.2 (the package's caret range)"

SERVER_EVERYTHING: Final = Family(
    name="server-everything",
    package="@modelcontextprotocol/server-everything (npm)",
    server_script="server_everything.mjs",
    lines=(
        Line((2025, 1, 14), "2025.1.14-2025.4.x", _everything("2025.1.14"),
             servers={"": Model(
                 "legacy:2024-11-05+lenient+not-found-code=-32603+drop-unparsable+outlives-stdin",
                 f"{_SE_EVIDENCE}; @modelcontextprotocol/sdk 1.0.1 (pinned): 2024-11-05 only; "
                 "a missing resource -> -32603 (its read handler throws); its update timer keeps "
                 "the process alive after stdin closes (docs/real-peers.md §server-everything)",
                 args=("stdio",), drift_scenario="protocol", gaps=(_SE_APP,))}),
        Line((2025, 5, 12), "2025.5.12-2025.9.x", _everything("2025.5.12"),
             servers={"": Model(
                 f"legacy:{_ALL_LEGACY}+lenient+not-found-code=-32603+drop-unparsable"
                 "+outlives-stdin+not-initialized-32000+one-transport",
                 f"{_SE_EVIDENCE}; {_SE_SDK_NOW}, so up to 2025-11-25; a missing resource -> "
                 "-32603; its log and subscription timers keep the process alive after stdin "
                 "closes (docs/real-peers.md §server-everything)",
                 args=("stdio",), http_args=("streamableHttp",), drift_scenario="protocol",
                 gaps=(_SE_APP,))}),
        Line((2025, 11, 25), "2025.11.25-2026.1.x", _everything("2025.11.25"),
             servers={"": Model(
                 f"legacy:{_ALL_LEGACY}+lenient+early-tools-32603+not-found-code=-32603"
                 "+drop-unparsable+outlives-stdin+not-initialized-32000+asks-roots",
                 f"{_SE_EVIDENCE}; {_SE_SDK_NOW}; tools/list before initialize -> -32603 (the "
                 "handler reads the client's capabilities); a missing resource -> -32603; "
                 "timers keep the process alive after stdin closes (docs/real-peers.md "
                 "§server-everything)",
                 args=("stdio",), http_args=("streamableHttp",), drift_scenario="protocol",
                 gaps=(_SE_APP,))}),
        Line((2026, 8, 31), "2026.7.4-2026.x", _everything("2026.8.31"),
             servers={"": Model(
                 f"legacy:{_ALL_LEGACY}+lenient+not-found-code=-32602+drop-unparsable"
                 "+not-initialized-32000+asks-roots",
                 f"{_SE_EVIDENCE}; {_SE_SDK_NOW}; the rewritten server (dist/server/, "
                 "dist/transports/): a missing resource -> -32602 (the SDK's McpServer), and "
                 "it exits when stdin closes (docs/real-peers.md §server-everything)",
                 args=("stdio",), http_args=("streamableHttp",), drift_scenario="protocol",
                 gaps=(_SE_APP,))}),
    ),
)

#: Servers that declare logging, in each era: the Inspector CLI sets the level on connect in
#: the legacy era only (clients/cli/build/index.js connect: initialLoggingLevel 'debug' where
#: capabilities.logging and protocolEra !== 'modern'; inspector issue 1990's fix)
_LOGGING_SERVERS = ("legacy:2025-11-25+logging", "dual:2026-07-28,2025-11-25+logging")

_INSPECTOR_CLI = ("`inspector --cli --protocol-era ERA --method tools/list` with a stdio target; "
                  "the CLI bundles @modelcontextprotocol/client 2.3.1 and maps the era to its "
                  "versionNegotiation (clients/cli/build/index.js eraToVersionNegotiation)")

INSPECTOR: Final = Family(
    name="inspector",
    package="@modelcontextprotocol/inspector (npm)",
    client_script="inspector_client.mjs",
    lines=(
        Line((2, 12, 0), "2.12.x",
             Package("npm", ("@modelcontextprotocol/inspector@2.12.0",), "2.12.0"),
             clients={
                 "legacy": Model(
                     f"legacy:{_ALL_LEGACY}{_AUTH_1X}+dcr-native+reauthorize-same-scope"
                     "+era-set-level",
                     f"{_INSPECTOR_CLI}; legacy (the default for an ad-hoc target) -> {{mode: "
                     "'legacy'}: initialize 2025-11-25, a counter-offer it supports accepted "
                     "(docs/real-peers.md §Inspector); its OAuth (the bundled client's, with "
                     "the Inspector's provider) authorizes as the SDK 1.x client does, and "
                     "registers as application_type native (clientMetadata); a 403 "
                     "insufficient_scope makes it run its OAuth again from scratch, with the "
                     "scope it asked for first, and retry once (withCliAuthRecoveryRetry): "
                     "measured headless against serve's layouts "
                     "(tests/interop/test_auth_realpeer.py); connected to a server that "
                     "declares logging it sends logging/setLevel debug (era-set-level)",
                     args=("--era", "legacy"), drift_servers=_LOGGING_SERVERS),
                 "auto": Model(
                     f"{_DUAL_ALL}+restart+probe-timeout=60000+connect-timeout=15000"
                     "+fallback-denylist+strict-results+raw-retry+discover-fallback"
                     "+era-set-level",
                     f"{_INSPECTOR_CLI}; auto -> {{mode: 'auto'}}: the SDK's probe and fallback "
                     "(as ts-client@2.4:auto), but the CLI's --connect-timeout (15000 ms) ends a "
                     "silent probe first (exit 4 'Connection timed out after 15000 ms'); "
                     f"{_TS_STRICT}; a refused tools/list is sent once more as 'inspector-ext-1' "
                     "(docs/real-peers.md §Inspector); logging/setLevel on connect in the "
                     "legacy era only, where the server declares logging (era-set-level)",
                     args=("--era", "auto"), drift_servers=_STRICT_SERVERS + _LOGGING_SERVERS,
                     gaps=("the probe runs in a throwaway process and the session on a fresh "
                           "one; the model restarts only after a timeout or an exit",)),
                 "modern": Model(
                     "modern:2026-07-28+discover+strict-results+raw-retry",
                     f"{_INSPECTOR_CLI}; modern -> {{mode: {{pin: '2026-07-28'}}}}: as "
                     "ts-client@2.4:pin, no fallback; a refused tools/list is sent once more "
                     "(docs/real-peers.md §Inspector)",
                     args=("--era", "modern"),
                     drift_servers=_STRICT_SERVERS + _LOGGING_SERVERS[1:],
                     gaps=("a silent probe ends at the CLI's 15 s connect timeout (exit 4); "
                           "the model waits its request timeout (10 s); both fail",)),
             }),
    ),
)

# mcp-remote 0.1.38 (npm; github geelen/mcp-remote): a stdio server to its local client and a
# Streamable HTTP client of the remote, authorizing before it reads its stdin (src/proxy.ts
# runProxy: connectToRemoteServer, then localTransport.start()). Its model is the upstream
# client's authorization; each trait read in its dist/chunk-*.js (the sources named below,
# bundled with @modelcontextprotocol/sdk 1.25.3) and checked against serve --http of each
# layout by tests/interop/test_auth_mcp_remote_realpeer.py:
_MCP_REMOTE_AUTH = (
    # initialize 2025-11-25 from its own test client ("mcp-remote-fallback-test",
    # src/lib/utils.ts connectToRemoteServer), the SDK 1.25.3's LATEST_PROTOCOL_VERSION; the
    # local client's initialize is passed through as it is
    f"legacy:{_ALL_LEGACY}"
    # the SDK's auth() does the discovery (sdk/dist/esm/client/auth.js authInternal): PRM from
    # the WWW-Authenticate resource_metadata, then the path-inserted and the root well-known
    # URLs; RFC 8414 then OpenID discovery; without PRM the MCP origin (new URL("/", serverUrl))
    "+auth-origin-fallback"
    # NodeOAuthClientProvider has no clientMetadataUrl: a client id by registerClient only
    # (src/lib/node-oauth-client-provider.ts)
    "+dcr-only"
    # selectResourceURL: no PRM, no resource (no validateResourceURL on its provider; its
    # --resource flag is off by default: src/lib/utils.ts parseCommandLineArgs)
    "+resource-with-prm-only"
    # without metadata the SDK's /authorize, /token, /register at the issuer
    # (startAuthorization, executeTokenRequest, registerClient)
    "+default-endpoints"
    # getEffectiveScope: the static metadata's scope, WWW-Authenticate's, the PRM's
    # scopes_supported, the registration's, the AS metadata's, else "openid email profile";
    # redirectToAuthorization sets it on every authorization URL
    "+openid-scope")
_MCP_REMOTE_TEST = "tests/interop/test_auth_mcp_remote_realpeer.py"

MCP_REMOTE: Final = Family(
    name="mcp-remote",
    package="mcp-remote (npm)",
    client_script="mcp_remote_client.py",
    lines=(
        Line((0, 1, 0), "0.1.x", Package("npm", ("mcp-remote@0.1.38",), "0.1.38"),
             clients={"": Model(
                 _MCP_REMOTE_AUTH,
                 "the stdio-to-Streamable-HTTP proxy (dist/proxy.js): its OAuth is the SDK "
                 "1.25.3's auth() with its own NodeOAuthClientProvider: the SDK 1.x discovery "
                 "and fallbacks, dynamic registration only, resource only with protected "
                 "resource metadata, and scope openid email profile where it finds none "
                 "(getEffectiveScope); measured headless against serve's layouts "
                 f"({_MCP_REMOTE_TEST})",
                 checked_by=_MCP_REMOTE_TEST,
                 gaps=("before connecting it discovers on its own (src/lib/utils.ts "
                       "discoverOAuthServerInfo: GET the MCP URL, the protected resource "
                       "metadata, RFC 8414 metadata at the issuer's origin only) for its "
                       "scope choice; the model makes the SDK's discovery only",
                       "it connects twice (a test client's initialize, then the local "
                       "client's, each its own session); the model connects once",
                       "against a 2025-03-26-style server with a separate authorization "
                       "server, releases before protected resource metadata discovery "
                       "(mcp-remote issue 192) failed as a 2025-03-26 client does; 0.1.38 "
                       "completes"))}),
    ),
)

FAMILIES: Final[dict[str, Family]] = {f.name: f for f in (PY_MCP, FASTMCP, TS_SDK, TS_SERVER,
                                                          TS_CLIENT, SERVER_EVERYTHING,
                                                          INSPECTOR, MCP_REMOTE)}

#: The mode a bare name means, where a package has several (shown in labels and notes).
_DEFAULT_MODE: Final[dict[Role, dict[str, str]]] = {
    "server": {"ts-server": "dual"},
    "client": {"ts-client": "legacy", "inspector": "legacy"},
}
_DEFAULT_LABEL: Final[dict[Role, dict[str, str]]] = {
    "server": {"ts-server": "dual"},
    "client": {"ts-client": "legacy", "py-mcp": "auto", "inspector": "legacy"},
}

#: The real-world matrix: named clients (rows) and servers (columns).
REAL_CLIENTS: Final[tuple[str, ...]] = (
    "py-mcp@1.0", "py-mcp@1.22", "py-mcp@2.3", "py-mcp@2.3:legacy",
    "ts-sdk@1", "ts-client@2.4:legacy", "ts-client@2.4:auto", "ts-client@2.4:pin",
    "inspector@2.12:legacy", "inspector@2.12:auto", "inspector@2.12:modern",
)
REAL_SERVERS: Final[tuple[str, ...]] = (
    "py-mcp@1.0", "py-mcp@1.9", "py-mcp@1.9.4", "py-mcp@1.10", "py-mcp@1.22", "py-mcp@1.30",
    "py-mcp@2.3", "fastmcp@4", "ts-sdk@1", "ts-server@2.4:dual", "ts-server@2.4:modern",
    "ts-server@2.4:legacy", "server-everything@2025.1.14", "server-everything@2025.5.12",
    "server-everything@2025.11.25", "server-everything@2026.8.31",
)


# -- resolution ------------------------------------------------------------------------------------

_NAME = re.compile(r"(?P<family>[a-z][a-z0-9-]*)@(?P<version>[^:]*)(?::(?P<mode>.*))?")
_VERSION = re.compile(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?")


@dataclass(frozen=True, slots=True)
class Named:
    """A name split into its parts."""

    family: str
    version: str
    mode: str | None


def split_name(head: str) -> Named | None:
    match = _NAME.fullmatch(head.strip())
    if match is None:
        return None
    return Named(match["family"], match["version"], match["mode"])


def _modes(family: Family, line: Line, role: Role) -> set[str]:
    """The modes a person writes for this line and role (none when it has one set-up)."""
    models = line.models(role)
    if len(models) <= 1 and "" in models:
        return set()
    return {m or _DEFAULT_LABEL[role].get(family.name, "") for m in models} - {""}


def _line_names(family: Family, role: Role) -> str:
    out = []
    for line in family.lines:
        if not line.models(role):
            continue
        modes = "|".join(sorted(_modes(family, line, role)))
        out.append(f"{family.name}@{line.first_text}" + (f"[:{modes}]" if modes else "") + f" ({line.span})")
    return ", ".join(out)


def known_names(role: Role | None = None) -> list[str]:
    """``family@LINE[:modes]`` for every line with a model (for ``role``, or either)."""
    names: list[str] = []
    for family in FAMILIES.values():
        for line in family.lines:
            if role is not None and not line.models(role):
                continue
            if role is None and not (line.servers or line.clients):
                continue
            modes = sorted(set().union(*(_modes(family, line, r) for r in ROLES
                                         if role is None or r == role)))
            names.append(f"{family.name}@{line.first_text}" + (f"[:{'|'.join(modes)}]" if modes else ""))
    return names


def _pick_line(family: Family, version: str, spec: str, role: Role) -> Line:
    match = _VERSION.fullmatch(version)
    if match is None:
        raise UsageError(f"peer spec {spec!r}: {version!r} is not a version (e.g. "
                         f"{family.name}@{family.lines[-1].first[0]} or "
                         f"{family.name}@{family.lines[-1].first[0]}.{family.lines[-1].first[1]})")
    parts = [int(p) for p in match.groups() if p is not None]
    with_role = [line for line in family.lines if line.models(role)]
    if len(parts) == 1:
        of_major = [line for line in with_role if line.first[0] == parts[0]]
        if of_major:
            return of_major[-1]
    else:
        wanted: Version = (parts[0], parts[1], parts[2] if len(parts) > 2 else 0)
        below = [line for line in with_role if line.first <= wanted and line.first[0] == wanted[0]]
        if below:
            return below[-1]
    raise UsageError(f"peer spec {spec!r}: no {role} model for {family.name} {version}; "
                     f"known: {_line_names(family, role) or 'none'}")


def resolve(head: str, role: Role, spec: str | None = None) -> Resolved | None:
    """The named peer ``head`` for ``role``; None when the family is not a known one."""
    spec = head if spec is None else spec
    named = split_name(head)
    if named is None or named.family not in FAMILIES:
        return None
    family = FAMILIES[named.family]
    if not any(line.models(role) for line in family.lines):
        others = ", ".join(known_names(role))
        raise UsageError(f"peer spec {spec!r}: {family.name} has no {role} model; known "
                         f"{role}s: {others}")
    line = _pick_line(family, named.version, spec, role)
    models = line.models(role)
    mode = named.mode if named.mode is not None else _DEFAULT_MODE[role].get(family.name, "")
    default = _DEFAULT_LABEL[role].get(family.name)
    key = "" if mode == default and "" in models and len(models) > 1 else mode
    if key not in models or (named.mode is not None and named.mode not in _modes(family, line,
                                                                               role)):
        modes = ", ".join(sorted(_modes(family, line, role))) or "none (one set-up)"
        raise UsageError(f"peer spec {spec!r}: {family.name} {line.span} has no {role} mode "
                         f"{mode!r}; modes: {modes}")
    name = f"{family.name}@{named.version}" + (f":{named.mode}" if named.mode is not None else "")
    return Resolved(name, family, line, role, key, models[key])


def named_peer(head: str, role: Role) -> PeerSpec | None:
    """The resolver: a :class:`PeerSpec` labelled with the name and noted with its evidence
    (``None`` for a family this catalogue does not know)."""
    resolved = resolve(head, role)
    return None if resolved is None else resolved.peer()


def builtin_peer(head: str, role: Role) -> PeerSpec:
    """A named peer of this catalogue (what the real-world sets name); ``UsageError`` otherwise."""
    peer = named_peer(head, role)
    if peer is None:
        raise UsageError(f"peer spec {head!r}: not a named peer of the built-in catalogue; "
                         f"known: {', '.join(known_names(role))}")
    return peer


def model_names(role: Role) -> list[str]:
    """One name per model of ``role`` (``family@line[:mode]``), in catalogue order."""
    names = []
    for family, line, r, mode, _ in iter_models():
        if r != role:
            continue
        label = mode or (_DEFAULT_LABEL[role].get(family.name, "") if len(line.models(role)) > 1
                         else "")
        names.append(f"{family.name}@{line.first_text}" + (f":{label}" if label else ""))
    return names


def iter_models() -> Iterator[tuple[Family, Line, Role, str, Model]]:
    """Every model of the catalogue."""
    for family in FAMILIES.values():
        for line in family.lines:
            for role in ROLES:
                for mode, model in line.models(role).items():
                    yield family, line, role, mode, model

