"""Read a wire log as a person would, and say what happened: ``mcp-skew show-log``.

Theory of operation
-------------------
:class:`Annotator` walks the entries in order, pairing each answer with its
request by id, and keeps three things:

- **who speaks what**: the revision of each request (``initialize``'s
  ``protocolVersion``, or ``_meta["io.modelcontextprotocol/protocolVersion"]``,
  or the revision negotiated before) and of each answer (``protocolVersion`` of
  an InitializeResult, ``supportedVersions`` of a DiscoverResult, ``data`` of a
  -32022);
- **the negotiation path**, in the simulator's words (``discover 2026-07-28 ->
  error -32601 -> initialize 2025-11-25 -> counter-offer 2025-06-18 -> accepted
  2025-06-18``), so a recorded path and a simulated one compare as strings. A
  request left unanswered when the client sends its next negotiation step is a
  ``timeout after N ms``;
- **findings**, where a message breaks the rules of the revision it is sent
  under: result fields a revision requires (:func:`check_result`), the code of
  a missing resource, a counter-offer that is no legacy revision, a rejection
  where the lifecycle asks for a counter-offer, silence, a crash, a line that is
  not JSON, a required ``_meta`` key missing, an answer nobody asked for.

What it returns is an :class:`~._annotation.Annotation`. Rule: revisions are
looked up in the registry, never compared as strings.
"""

from __future__ import annotations

import json
from typing import Any

from ..simulator import PathStep, check_result, negotiation
from ..simulator import path_steps as steps
from ..simulator.findings import Finding, FindingCode, Severity
from ..simulator.messages import CLIENT_INFO_KEY, SERVER_INFO_KEY, VERSION_KEY
from ..versions import HTTP_HEADERS, Era, Message, Profile, Registry
from ._annotation import Annotation, Pending, Side
from ._log import LogEntry

__all__ = ["Annotator", "annotate"]


CITE_PROBE = "2026-07-28: basic/transports/stdio.mdx §Backward Compatibility"
CITE_LIFECYCLE = "basic/lifecycle.mdx §Version Negotiation"
#: (lower-case name, label) of the request headers an annotation shows, from the header table.
HTTP_SHOWN = tuple((h.key, h.shown) for h in HTTP_HEADERS if h.shown is not None)


def _key(msg_id: Any) -> str:
    return json.dumps(msg_id, sort_keys=True)


def _era_of(registry: Registry, revision: Any) -> Era | None:
    if isinstance(revision, str) and revision in registry:
        return registry.get(revision).era
    return None


def _profile(registry: Registry, revision: str | None) -> Profile | None:
    return registry.get(revision) if revision is not None and revision in registry else None


def _info(value: Any) -> str | None:
    if not isinstance(value, dict) or "name" not in value:
        return None
    version = value.get("version")
    return f"{value['name']} {version}" if version else str(value["name"])


class Annotator:
    """Feed it entries in order; :meth:`finish` returns the :class:`Annotation`."""

    def __init__(self, registry: Registry) -> None:
        #: where the revisions the log names are looked up
        self.registry = registry
        #: the codes of an UnsupportedProtocolVersion error (-32022 in 2026-07-28)
        self.unsupported = negotiation.unsupported_codes_of(registry)
        self.entries: list[LogEntry] = []
        self.notes: dict[int, list[str]] = {}
        self.findings: list[Finding] = []
        self.path: list[PathStep] = []  #: in the simulator's words: the same typed steps
        self.pending: dict[str, Pending] = {}
        self.client, self.server = Side(), Side()
        self.neg: Pending | None = None  #: the negotiation step awaiting its answer
        self.revision: str | None = None
        self.era: Era | None = None
        self.status, self.reason = "undecided", ""
        self.counter_offer: str | None = None  #: awaiting the client's acceptance
        self.offered: list[str] = []  #: DiscoverResult versions the client did not ask for
        self.retry_from: list[str] = []  #: data.supported of the last -32022
        self.modern_tried = self.legacy_tried = False
        self.fell_back = self.reprobed = self.retried = self.downgraded = False
        self.tools: set[str] = set()
        self.initialized_early = False  #: notifications/initialized before the init answer
        self.client_closing = False  #: the client closed its end or had the server signalled
        self.seen_client = False  #: a client line was seen (a later start is a restart)
        self.restarting = False  #: a restart event, and no line since (its start is the same)
        self.client_eof: LogEntry | None = None  #: where the client closed its end

    # -- helpers ----------------------------------------------------------------------
    def note(self, index: int, text: str) -> None:
        self.notes.setdefault(index, []).append(text)

    def find(self, code: FindingCode, severity: Severity, message: str, index: int | None,
             cite: str = "") -> None:
        self.findings.append(Finding(code, severity, message, index, cite))
        if index is not None:
            self.note(index, f"[{severity}] {code}: {message}")

    def accept(self, revision: str, era: Era | None, index: int) -> None:
        self.path.append(steps.accepted(revision))
        self.status, self.revision, self.era, self.reason = "ok", revision, era, ""
        self.neg = None
        self.note(index, f"negotiated: {revision}" + (f" ({era.value})" if era else ""))
        for pending in self.pending.values():  # requests pipelined behind the handshake
            if pending.revision is None and not pending.negotiating:
                pending.revision = revision

    def fail(self, reason: str) -> None:
        self.status, self.reason, self.revision, self.era = "failed", reason, None, None
        self.neg = None

    @property
    def decided(self) -> bool:
        return self.status == "ok"

    @property
    def _initializing(self) -> bool:
        return self.neg is not None and self.neg.method == "initialize"

    # -- entry point ------------------------------------------------------------------
    def feed(self, entry: LogEntry) -> None:
        self.entries.append(entry)
        if entry.dir == "c2s":
            self.seen_client = True
        if entry.dir == "event":
            self._event(entry)
            return
        self.restarting = False
        if entry.dir == "stderr":
            return
        if not entry.is_json:
            self._not_json(entry)
        elif isinstance(entry.message, list):
            self.note(entry.index, f"a JSON-RPC batch of {len(entry.message)}")
            for item in entry.message:
                self._message(entry, item)
        else:
            self._message(entry, entry.message)
        if entry.http:
            self._http(entry)

    def _http(self, entry: LogEntry) -> None:
        info = entry.http or {}
        if "status" in info:
            self.note(entry.index, f"HTTP {info['status']}")
            return
        headers = info.get("headers") if isinstance(info.get("headers"), dict) else {}
        assert isinstance(headers, dict)
        shown = [f"{name} {str(headers[key])[:8] if name == 'session' else headers[key]}"
                 for key, name in HTTP_SHOWN if key in headers]
        self.note(entry.index, f"HTTP {info.get('method', 'POST')}"
                  + (": " + ", ".join(shown) if shown else " without MCP headers"))

    def _not_json(self, entry: LogEntry) -> None:
        who = "client" if entry.dir == "c2s" else "server"
        if not (entry.line or "").strip():
            self.note(entry.index, f"an empty line from the {who}")
            return
        stream = "standard input" if entry.dir == "c2s" else "standard output"
        self.find("not-json", "error", f"the {who} wrote a line that is not JSON on {stream} "
                  "(only MCP messages may go there; logs go to standard error)", entry.index,
                  "basic/transports stdio: newline-delimited JSON-RPC")

    def _message(self, entry: LogEntry, message: Any) -> None:
        if not isinstance(message, dict):
            self.note(entry.index, "not a JSON-RPC object")
            return
        has_method, has_id = "method" in message, "id" in message
        if entry.dir == "c2s":
            if has_method and has_id:
                self._client_request(entry, message)
            elif has_method:
                self._client_notification(entry, message)
            else:
                self.note(entry.index, f"client answers the server's request id "
                          f"{_key(message.get('id'))}")
        elif has_method:
            kind = "request" if has_id else "notification"
            self.note(entry.index, f"server {kind} {message['method']}")
        elif has_id:
            self._answer(entry, message)
        else:
            self.note(entry.index, "a message with neither method nor id")

    # -- the client's side ------------------------------------------------------------
    def _client_request(self, entry: LogEntry, message: Message) -> None:
        method = str(message["method"])
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        assert isinstance(params, dict)
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        assert isinstance(meta, dict)
        if self.counter_offer is not None and method != "initialize":
            self._accept_counter_offer(entry.index)
        if method != "initialize" and VERSION_KEY not in meta:
            self._plain_request(entry, message, method, params)
            return
        self._give_up_waiting(entry)
        if method == "initialize":
            self._initialize(entry, message, params)
        else:
            self._modern_request(entry, message, method, params, meta)

    def _give_up_waiting(self, entry: LogEntry) -> None:
        """The client takes its next negotiation step with the last one unanswered."""
        neg = self.neg
        if neg is None:
            return
        gap = round(entry.t_ms - neg.ms)
        neg.abandoned_ms = entry.t_ms
        self.path.append(steps.timeout(gap))
        self.note(entry.index, f"no answer to id {_key(neg.msg_id)} ({neg.method}) after "
                  f"{gap} ms: the client stops waiting")
        self.neg = None

    def _track(self, entry: LogEntry, message: Message, params: dict[str, Any],
               revision: str | None, *, negotiating: bool) -> Pending:
        pending = Pending(message["id"], str(message["method"]), entry.index, entry.t_ms, params,
                          revision, negotiating=negotiating,
                          early=(not self.decided and self.counter_offer is None
                                 and message["method"] != "initialize"
                                 and not self._initializing))
        self.pending[_key(message["id"])] = pending
        if negotiating:
            self.neg = pending
        return pending

    def _initialize(self, entry: LogEntry, message: Message, params: dict[str, Any]) -> None:
        asked = params.get("protocolVersion")
        if self.decided:
            self.note(entry.index, "the client initializes again: a new negotiation")
            self.status = "undecided"
        if self.counter_offer is not None:  # asking again instead of taking the offer
            self.counter_offer = None
            self.downgraded = True
        if self.modern_tried and not self.legacy_tried:
            self.fell_back = True
        self.legacy_tried = True
        self.path.append(steps.request("initialize", asked))
        era = _era_of(self.registry, asked)
        how = "legacy handshake" if era is not Era.MODERN else "but a modern revision"
        self.note(entry.index, f"client offers {asked} ({how}: initialize)")
        self.client.add(f"{asked} (legacy)")
        self.client.info = _info(params.get("clientInfo")) or self.client.info
        if asked not in self.registry:
            self.note(entry.index, f"{asked} is not a revision mcp-skew knows")
        self._track(entry, message, params, asked if isinstance(asked, str) else None,
                    negotiating=True)

    def _modern_request(self, entry: LogEntry, message: Message, method: str,
                        params: dict[str, Any], meta: dict[str, Any]) -> None:
        version = meta.get(VERSION_KEY)
        rev = version if isinstance(version, str) else None
        self.client.add(f"{version} (modern)")
        self.client.info = _info(meta.get(CLIENT_INFO_KEY)) or self.client.info
        self.note(entry.index, f"client speaks {version} (modern, _meta): {method}")
        self._check_meta(entry, rev, meta)
        if self.decided:
            if rev != self.revision:
                self.note(entry.index, f"the negotiated revision is {self.revision}")
            self._track(entry, message, params, rev, negotiating=False)
            return
        if rev in self.offered:
            self.path.append(steps.choose(rev))
            self.downgraded = True
        elif self.legacy_tried:
            self.path.append(steps.re_probe())
            self.fell_back, self.reprobed = False, True
        elif rev in self.retry_from:
            self.path.append(steps.retry(rev))
            self.retried = True
        self.offered, self.retry_from = [], []
        self.modern_tried = True
        self.path.append(steps.request(method, version))
        self._track(entry, message, params, rev, negotiating=True)

    def _check_meta(self, entry: LogEntry, rev: str | None, meta: dict[str, Any]) -> None:
        profile = _profile(self.registry, rev)
        if profile is None:
            self.note(entry.index, f"{rev} is not a revision mcp-skew knows")
            return
        missing = sorted(profile.names("request_meta_required") - set(meta))
        if missing:
            self.find("schema-violation", "error", f"request _meta lacks {', '.join(missing)} "
                      f"(required in {rev})", entry.index, f"{rev}: basic/index.mdx §_meta")

    def _plain_request(self, entry: LogEntry, message: Message, method: str,
                       params: dict[str, Any]) -> None:
        if self.decided and self.era is Era.LEGACY:
            self._track(entry, message, params, self.revision, negotiating=False)
            return
        if method == "ping":
            self.note(entry.index, "ping (allowed before the handshake)")
        elif self._initializing or self.counter_offer is not None:
            self.note(entry.index, f"{method} sent before the handshake completed (pipelined)")
        elif not self.decided:
            self.note(entry.index, f"no protocol version: {method} before any handshake "
                      "(an era-ambiguous request)")
        self._track(entry, message, params, self.revision, negotiating=False)

    def _client_notification(self, entry: LogEntry, message: Message) -> None:
        method = message["method"]
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        assert isinstance(params, dict)
        if method == "notifications/initialized":
            if self.counter_offer is not None:
                self._accept_counter_offer(entry.index)
            elif self.neg is not None and self.neg.method == "initialize":
                self.initialized_early = True
                self.note(entry.index, "client completes the handshake before the answer came")
                return
            self.note(entry.index, "client completes the handshake")
        elif method == "notifications/cancelled":
            target = self.pending.get(_key(params.get("requestId")))
            if target is not None:
                target.cancelled = True
            reason = params.get("reason")
            self.note(entry.index, f"client cancels id {_key(params.get('requestId'))}"
                      + (f": {reason}" if reason else ""))
        else:
            self.note(entry.index, f"client notification {method}")

    def _accept_counter_offer(self, index: int) -> None:
        offer, self.counter_offer = self.counter_offer, None
        assert offer is not None
        self.downgraded = True
        self.accept(offer, _era_of(self.registry, offer) or Era.LEGACY, index)

    # -- the server's side ------------------------------------------------------------
    def _answer(self, entry: LogEntry, message: Message) -> None:
        pending = self.pending.pop(_key(message["id"]), None)
        if pending is None and message["id"] is None and isinstance(message.get("error"), dict):
            error = message["error"]
            self.note(entry.index, f"error {error.get('code')}: {error.get('message', '')} "
                      "(about a message the server could not read)")
            return
        if pending is None:
            self.find("unexpected-answer", "warning", f"an answer to id {_key(message['id'])}, "
                      "which no pending request has", entry.index, "JSON-RPC 2.0 §5")
            return
        error = message.get("error")
        result = message.get("result")
        if pending.abandoned_ms is not None:
            late = round(entry.t_ms - pending.abandoned_ms)
            self.note(entry.index, f"a late answer to id {_key(pending.msg_id)} "
                      f"({pending.method}): {late} ms after the client stopped waiting")
        if isinstance(error, dict):
            self._error(entry, pending, error)
        elif isinstance(result, dict):
            self._result(entry, pending, result)
        else:
            self.find("schema-violation", "error", "a response with neither an error object nor "
                      "a result object", entry.index, "JSON-RPC 2.0 §5")

    def _error(self, entry: LogEntry, pending: Pending, error: dict[str, Any]) -> None:
        code, text = error.get("code"), error.get("message", "")
        data = error.get("data") if isinstance(error.get("data"), dict) else {}
        assert isinstance(data, dict)
        self.note(entry.index, f"error {code}: {text} (to {pending.method})")
        supported = data.get("supported")
        if code in self.unsupported:
            self.server.add(f"modern, supports {', '.join(map(str, supported or []))}")
        if pending is self.neg:
            self.path.append(steps.error(code))
            self.neg = None
            if code in self.unsupported and isinstance(supported, list):
                self.retry_from = [str(s) for s in supported]
            if pending.method == "initialize":
                self._initialize_refused(entry, pending, code, str(text), supported)
        self._check_error(entry, pending, code)

    def _initialize_refused(self, entry: LogEntry, pending: Pending, code: Any, text: str,
                            supported: Any) -> None:
        asked = pending.params.get("protocolVersion")
        self.fail(f"initialize {asked} rejected: {code} {text}".strip())
        listed = [s for s in supported if isinstance(s, str)] if isinstance(supported, list) else []
        legacy = [s for s in listed if _era_of(self.registry, s) is Era.LEGACY]
        if legacy or (code == -32602 and "version" in text.lower()):
            self.find("rejects-instead-of-counter-offer", "warning",
                      f"initialize {asked} was refused with an error; the lifecycle asks the "
                      "server to answer with a version it supports instead", entry.index,
                      f"{pending.revision}: {CITE_LIFECYCLE}")
        elif listed:
            self.server.add(f"modern only ({', '.join(listed)})")

    def _check_error(self, entry: LogEntry, pending: Pending, code: Any) -> None:
        profile = _profile(self.registry, pending.revision)
        if profile is None:
            return
        if pending.method == "resources/read" and code in (-32002, -32602):
            wanted = profile.error(profile.settings["resource_not_found"]).code
            if code != wanted:
                must = profile.era is Era.MODERN
                self.find("resource-not-found-code", "error" if must else "warning",
                          f"a missing resource answered {code}; {profile.revision} uses {wanted}"
                          + (" (servers MUST NOT send -32002)" if must else ""), entry.index,
                          f"{profile.revision}: server/resources.mdx §Error Handling")
        name = pending.params.get("name")
        as_tool_error = profile.settings.get("tool_input_errors", "").startswith("tool execution")
        if (pending.method == "tools/call" and code == -32602 and name in self.tools
                and as_tool_error):
            self.find("tool-input-error-as-protocol-error", "warning",
                      f"tools/call of the listed tool {name!r} failed with -32602; "
                      f"{profile.revision} reports input errors as a tool error (isError)",
                      entry.index, f"{profile.revision}: server/tools.mdx §Error Handling")

    def _result(self, entry: LogEntry, pending: Pending, result: dict[str, Any]) -> None:
        if pending.method == "initialize":
            self._initialize_result(entry, pending, result)
        elif pending.method == "server/discover":
            self._discover_result(entry, pending, result)
        elif pending is self.neg:
            self.server.add(f"{pending.revision} (modern)")
            self.accept(str(pending.revision), Era.MODERN, entry.index)
        self._describe_result(entry, pending, result)
        profile = _profile(self.registry, pending.revision)
        if profile is not None and profile.era is Era.MODERN:
            for finding in check_result(profile, pending.method, result, entry.index):
                self.find(finding.code, finding.severity, finding.message, entry.index,
                          finding.cite)
        meta = result.get("_meta") if isinstance(result.get("_meta"), dict) else {}
        assert isinstance(meta, dict)
        self.server.info = _info(meta.get(SERVER_INFO_KEY)) or self.server.info

    def _describe_result(self, entry: LogEntry, pending: Pending, result: dict[str, Any]) -> None:
        if pending.method == "tools/list" and isinstance(result.get("tools"), list):
            names = [t.get("name") for t in result["tools"] if isinstance(t, dict)]
            self.tools.update(n for n in names if isinstance(n, str))
            self.note(entry.index, f"tools: {', '.join(map(str, names)) or '(none)'}")
        elif pending.method == "tools/call":
            self.note(entry.index, "a tool error (isError)" if result.get("isError") is True
                      else "a tool result")
        elif pending.method not in ("initialize", "server/discover"):
            self.note(entry.index, f"result of {pending.method}")

    def _initialize_result(self, entry: LogEntry, pending: Pending,
                           result: dict[str, Any]) -> None:
        asked = pending.params.get("protocolVersion")
        answered = result.get("protocolVersion")
        self.server.info = _info(result.get("serverInfo")) or self.server.info
        self.server.add(f"{answered} (legacy)")
        if pending is not self.neg:
            self.note(entry.index, f"server answers {answered}, after the client moved on")
            return
        self.neg = None
        if answered == asked:
            self.note(entry.index, f"server accepts {answered}")
            if asked not in self.registry:
                self.find("echoes-any-revision", "warning", f"the server echoed {asked}, which "
                          "is no known revision", entry.index, CITE_LIFECYCLE)
            self.accept(str(answered), _era_of(self.registry, answered) or Era.LEGACY, entry.index)
            return
        self.note(entry.index, f"server counter-offers {answered} (the client asked {asked})")
        self.path.append(steps.counter_offer(answered))
        self.counter_offer = str(answered)
        if self.initialized_early:  # the client went on without waiting for the answer
            self.initialized_early = False
            self._accept_counter_offer(entry.index)
        era = _era_of(self.registry, answered)
        if era is not Era.LEGACY:
            what = "a modern revision" if era is Era.MODERN else "no known revision"
            self.find("counter-offer-unsupported", "error", f"the server counter-offers "
                      f"{answered}, {what}; a handshake can only agree on a legacy revision",
                      entry.index, CITE_LIFECYCLE)

    def _discover_result(self, entry: LogEntry, pending: Pending, result: dict[str, Any]) -> None:
        offered = [str(v) for v in result.get("supportedVersions") or []]
        self.server.add(f"modern, supports {', '.join(offered)}")
        self.server.info = _info(result.get("serverInfo")) or self.server.info
        self.note(entry.index, f"server is modern: supports {', '.join(offered) or '(none)'}")
        if pending is not self.neg:
            return
        if pending.revision in offered:
            self.accept(str(pending.revision), Era.MODERN, entry.index)
        else:
            self.neg = None
            self.offered = offered
            self.note(entry.index, f"{pending.revision} is not offered: the client must choose")

    # -- events -----------------------------------------------------------------------
    def _event(self, entry: LogEntry) -> None:
        if entry.kind == "exit" and entry.get("side", "server") == "server":
            self._server_exit(entry)
        elif entry.kind == "client-eof" or (entry.kind == "eof"
                                             and entry.get("side") == "c2s"):
            self._client_gone(entry)
        elif entry.kind == "signal":
            self.client_closing = True
        elif entry.kind in ("start", "restart") and self.seen_client and not self.restarting:
            # a client's restart (the simulator, the probe) and the start of the new
            # process after it are one restart; a start alone (a proxy restarted on
            # the same log) is one too
            self.restarting = entry.kind == "restart"
            self._restart(entry)

    def _restart(self, entry: LogEntry) -> None:
        """A new server process in the same log: the client restarted it."""
        self.client_closing, self.client_eof = False, None
        if self.decided:
            self.note(entry.index, "a new server process")
            return
        self._give_up_waiting(entry)
        self.path.append(steps.restart())
        self.note(entry.index, "the client restarts the server")

    def _server_exit(self, entry: LogEntry) -> None:
        open_ = [p for p in self.pending.values() if not p.cancelled]
        crashed = (entry.get("code") not in (0, None) or entry.get("signal")) \
            and not self.client_closing
        silent = [p for p in open_ if p.abandoned_ms is not None and p.early and crashed]
        if self.neg is not None and self.client_eof is not None:
            self._stopped_waiting()
        elif self.neg is not None and not self.client_closing:
            self.path.append(steps.exited())
            self.fail(f"{self.neg.method}: the server exited before answering")
        if silent:
            first = silent[0]
            self.find("crash-on-unknown", "error", f"the server left {first.method} (id "
                      f"{_key(first.msg_id)}) unanswered, then exited", entry.index, CITE_PROBE)

    def _client_gone(self, entry: LogEntry) -> None:
        # The client may still read after closing its end: decide at the exit or the end.
        self.client_closing = True
        self.client_eof = self.client_eof or entry
        if self.counter_offer is not None:
            self._disconnect(entry)

    def _stopped_waiting(self) -> None:
        """The negotiation step never got its answer, and the client had closed its end."""
        assert self.neg is not None and self.client_eof is not None
        method = self.neg.method
        self._give_up_waiting(self.client_eof)
        self.fail(f"{method}: no answer before the client closed its end")

    def _disconnect(self, entry: LogEntry) -> None:
        offer, self.counter_offer = self.counter_offer, None
        assert offer is not None
        self.path.append(steps.disconnect())
        self.fail(f"the client disconnected after the counter-offer {offer}")
        if _era_of(self.registry, offer) is Era.LEGACY:
            self.find("counter-offer-unsupported", "warning", f"the client disconnected after "
                      f"the counter-offer {offer}: it does not support it", entry.index,
                      CITE_LIFECYCLE)

    # -- the end ----------------------------------------------------------------------
    def finish(self) -> Annotation:
        unanswered = [p for p in self.pending.values() if not p.cancelled]
        for p in unanswered:
            if p.early:
                waited = ("the client moved on" if p.abandoned_ms is not None
                          else "none by the end of the log")
                self.find("silent-on-unknown", "warning", f"{p.method} (id {_key(p.msg_id)}) "
                          f"got no answer ({waited})", p.index, CITE_PROBE)
        if self.neg is not None and self.client_eof is not None:
            self._stopped_waiting()
        elif self.neg is not None:
            self.path.append(steps.no_answer())
            self.fail(f"{self.neg.method}: no answer by the end of the log")
        if self.counter_offer is not None and self.client_eof is not None:
            self._disconnect(self.client_eof)
        elif self.counter_offer is not None:
            self.reason = f"counter-offer {self.counter_offer} not yet accepted"
        findings = sorted(self.findings, key=lambda f: -1 if f.index is None else f.index)
        return Annotation(self.entries, self.notes, findings, self.path, self.status,
                          self.revision, self.era, self._mark(), self.reason, self.client,
                          self.server, unanswered)

    def _mark(self) -> str:
        if self.status not in ("ok", "failed"):
            return "undecided"
        return negotiation.mark(self.status == "ok", fell_back=self.fell_back,
                                reprobed=self.reprobed, retried=self.retried,
                                downgraded=self.downgraded)


def annotate(entries: list[LogEntry], registry: Registry) -> Annotation:
    """Annotate a whole log; its revisions are looked up in ``registry``."""
    annotator = Annotator(registry)
    for entry in entries:
        annotator.feed(entry)
    return annotator.finish()
