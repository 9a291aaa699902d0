"""The Python family tables of the named-peer catalogue: the official ``mcp`` SDK
(``py-mcp``) by release line, and ``fastmcp`` on it (data; each model's evidence
names the source it was read from).
"""

from __future__ import annotations

from typing import Final

from ._family import (
    ALL_LEGACY,
    AUTH_1X,
    AUTH_1X_NOTE,
    DUAL_ALL,
    TO_0326,
    TO_0618,
    Family,
    Model,
    Package,
    ReleaseLine,
)

__all__ = ["FASTMCP", "PY_MCP"]

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
        ReleaseLine((1, 0, 0), "1.0.0-1.8.x", Package("pypi", ("mcp==1.0.0", "pydantic==2.10.*"), "1.0.0"),
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
        ReleaseLine((1, 9, 0), "1.9.0-1.9.3", Package("pypi", ("mcp==1.9.3", "pydantic==2.11.*"), "1.9.3"),
             servers={"": Model(
                 f"legacy:{TO_0326}+silent-exit+strict-lifecycle+not-found-code=0+drop-unparsable",
                 "initialize negotiates 2025-03-26 / 2024-11-05 (first line to read the request); "
                 f"{_PY_SILENT}; wheels 1.9.0-1.9.3 (docs/real-peers.md §mcp 1.0.0, source "
                 "bisection)", gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{TO_0326}",
                 "ClientSession.initialize sends 2025-03-26, accepts 2025-03-26 and 2024-11-05",
                 args=("--mode", "session"))}),
        ReleaseLine((1, 9, 4), "1.9.4-1.9.x", Package("pypi", ("mcp==1.9.4", "pydantic==2.11.*"), "1.9.4"),
             servers={"": Model(
                 f"legacy:{TO_0326}+unknown-32602+strict-lifecycle+not-found-code=0+drop-unparsable",
                 f"{_PY_32602}, ping before initialize too; initialize negotiates 2025-03-26 / "
                 "2024-11-05; an unknown resource is error 0 (docs/real-peers.md §mcp 1.9.4)",
                 gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{TO_0326}",
                 "ClientSession.initialize sends 2025-03-26, accepts 2025-03-26 and 2024-11-05",
                 args=("--mode", "session"))}),
        ReleaseLine((1, 10, 0), "1.10.0-1.13.x",
             Package("pypi", ("mcp==1.10.0", "pydantic==2.11.*"), "1.10.0"),
             servers={"": Model(
                 f"legacy:{TO_0618}+unknown-32602+strict-lifecycle+not-found-code=0+drop-unparsable",
                 f"as 1.9.4, negotiating up to 2025-06-18; {_PY_32602}, ping before initialize "
                 "too (docs/real-peers.md §mcp 1.10.0 … 1.13.x)", gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{TO_0618}",
                 "ClientSession.initialize sends 2025-06-18 (types.LATEST_PROTOCOL_VERSION) and "
                 "raises on a revision outside SUPPORTED_PROTOCOL_VERSIONS",
                 args=("--mode", "session"))}),
        ReleaseLine((1, 14, 0), "1.14.0-1.23.x", Package("pypi", ("mcp==1.22.0",), "1.22.0"),
             servers={"": Model(
                 f"legacy:{TO_0618}+unknown-32602+not-found-code=0+drop-unparsable",
                 f"{_PY_32602}; ping allowed before initialize from 1.14.0; initialize negotiates "
                 "up to 2025-06-18 (docs/real-peers.md §mcp 1.14.0 … 1.23.x)", gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{TO_0618}",
                 "ClientSession.initialize sends 2025-06-18; 1999-01-01 answered -> RuntimeError "
                 "(docs/real-peers.md §Python mcp 1.22.0 client)", args=("--mode", "session"))}),
        ReleaseLine((1, 24, 0), "1.24.0-1.x", Package("pypi", ("mcp==1.30.0",), "1.30.0"),
             servers={"": Model(
                 f"legacy:{ALL_LEGACY}+unknown-32602+not-found-code=0+drop-unparsable",
                 f"{_PY_32602}; ping allowed early; initialize negotiates up to 2025-11-25 "
                 "(docs/real-peers.md §mcp 1.24.0 … 1.30.0)", gaps=(_PY_APP,))},
             clients={"": Model(
                 f"legacy:{ALL_LEGACY}{AUTH_1X}",
                 "ClientSession.initialize sends 2025-11-25 (LATEST_PROTOCOL_VERSION from 1.24)"
                 + AUTH_1X_NOTE, args=("--mode", "session"))}),
        ReleaseLine((2, 0, 0), "2.0.0-2.x", Package("pypi", ("mcp==2.3.0",), "2.3.0"),
             servers={"": Model(
                 f"{DUAL_ALL}+sticky-era+early-32602+not-found-code=-32602+drop-unparsable",
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
                     f"{DUAL_ALL}+probe-timeout=10000+fallback-denylist+strict-results"
                     "+discover-fallback+strict-discover",
                     "Client(mode='auto'), the default: server/discover at 2026-07-28 with a 10 s "
                     "timeout, every error but a disjoint -32022 falls back to initialize "
                     "2025-11-25, and so does a DiscoverResult offering no modern revision "
                     "or failing validation (strict-discover: except ValidationError) "
                     "(mcp/client/_probe.py negotiate_auto; the 10 s probe wait is "
                     "mcp/client/session.py DISCOVER_TIMEOUT_SECONDS; docs/real-peers.md "
                     "§Python mcp 2.3.0 client)", args=("--mode", "auto"),
                     gaps=("a -32022 answer to the fallback initialize re-probes at once; the "
                           "model re-probes only after a probe timeout",)),
                 "legacy": Model(
                     f"legacy:{ALL_LEGACY}",
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
        ReleaseLine((4, 0, 0), "4.0.0-4.x", Package("pypi", ("fastmcp==4.2.3",), "4.2.3"),
             servers={"": Model(
                 f"{DUAL_ALL}+sticky-era+early-32602+not-found-code=-32602+drop-unparsable",
                 "runs on mcp 2.3.0: the mcp 2.x seams message for message (docs/real-peers.md "
                 "§fastmcp 4.2.3)", gaps=(_PY_APP,))}),
    ),
)
