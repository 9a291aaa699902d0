"""Capability-gated features by name: which revision adds, changes or removes each, and
how each revision carries it.

The profiles' ``features`` table says *that* a revision has a feature; this table says
*how* it travels, where that changes across revisions. A feature keeps its name when its
carrier changes: elicitation is a server-to-client request (``elicitation/create``) from
2025-06-18 to 2025-11-25 and an input request of a multi round-trip result
(``InputRequiredResult.inputRequests``, then a retry with ``inputResponses`` and
``requestState``) from 2026-07-28 (``basic/patterns/mrtr.mdx``), and is lost only on a
revision that has no carrier for it at all.

Each :class:`Feature` has a history of :class:`Carried` steps, one per revision that adds
it, changes how it is carried, or removes it (``how`` None), each with its citation.
:func:`carriage` reads a profile through its lineage: the latest step of a revision in it
says how that profile carries the feature, so a draft or a profile file evolved from a
built-in revision carries what it inherits. Nothing here compares revision strings.

The features view of the matrix names, per pair, the features of each side's newest
revision the negotiated revision does not carry (:func:`lost_features`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ._profile import Cite, Profile

__all__ = [
    "CARRIERS",
    "FEATURES",
    "Carried",
    "Feature",
    "carriage",
    "feature_named",
    "lost_features",
]

#: How a feature travels, the words the table uses (``Carried.how``).
CARRIERS: Final = MappingProxyType({
    "server request": "a JSON-RPC request the server sends to the client",
    "input request": "an embedded request in a multi round-trip result "
                     "(InputRequiredResult.inputRequests), answered in the client's retry "
                     "(inputResponses, requestState echoed)",
    "client request": "a JSON-RPC request the client sends to the server",
    "notification": "a JSON-RPC notification",
    "request _meta": "a key of each request's params._meta",
    "listen stream": "a notification on a subscriptions/listen stream the client opened",
})


@dataclass(frozen=True, slots=True)
class Carried:
    """How one revision (and those after it, until the next step) carries a feature.

    ``how`` is a key of :data:`CARRIERS`, or None where the revision removes the feature;
    ``via`` names the methods or keys that carry it.
    """

    revision: str
    how: str | None
    via: tuple[str, ...]
    cite: Cite
    note: str = ""

    def __post_init__(self) -> None:
        if self.how is not None and self.how not in CARRIERS:
            raise ValueError(f"{self.revision}: carrier {self.how!r} is none of "
                             f"{', '.join(CARRIERS)}")


@dataclass(frozen=True, slots=True)
class Feature:
    """A capability-gated (or utility) feature, named as the profiles' ``features`` table
    names it, with the capability that gates it and its history, oldest first."""

    name: str
    summary: str
    #: ("client" | "server", dotted capability key), None where no capability gates it
    capability: tuple[str, str] | None
    history: tuple[Carried, ...]


def _c(revision: str, source: str, section: str = "") -> Cite:
    return Cite(revision, source, section)


_MRTR = _c("2026-07-28", "basic/patterns/mrtr.mdx")
_R24, _R25A, _R25B, _R25C, _R26 = "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", \
    "2026-07-28"

#: Every named feature, in the order the docs list them.
FEATURES: Final[tuple[Feature, ...]] = (
    Feature("elicitation", "the server asks the user for input through a form",
            ("client", "elicitation"), (
                Carried(_R25B, "server request", ("elicitation/create",),
                        _c(_R25B, "client/elicitation.mdx")),
                Carried(_R25C, "server request", ("elicitation/create",),
                        _c(_R25C, "client/elicitation.mdx", "Capabilities"),
                        'form mode is elicitation.form; "elicitation": {} still means form'),
                Carried(_R26, "input request", ("elicitation/create",), _MRTR,
                        "servers MUST NOT send inputRequests the client has not declared"),
            )),
    Feature("url-elicitation", "the server sends the user to a URL (out-of-band input)",
            ("client", "elicitation.url"), (
                Carried(_R25C, "server request",
                        ("elicitation/create", "notifications/elicitation/complete"),
                        _c(_R25C, "client/elicitation.mdx", "URL Mode"),
                        "error -32042 asks for it; a notification says it completed"),
                Carried(_R26, "input request", ("elicitation/create",),
                        _c(_R26, "changelog.mdx", "Minor changes, item 11"),
                        "no completion notification and no -32042: the client learns the "
                        "outcome by retrying"),
            )),
    Feature("sampling", "the server asks the client's model for a completion",
            ("client", "sampling"), (
                Carried(_R24, "server request", ("sampling/createMessage",),
                        _c(_R24, "client/sampling.mdx")),
                Carried(_R26, "input request", ("sampling/createMessage",), _MRTR,
                        "deprecated (SEP-2577): deprecated.mdx"),
            )),
    Feature("sampling-with-tools", "sampling requests that offer the model tools",
            ("client", "sampling.tools"), (
                Carried(_R25C, "server request", ("sampling/createMessage",),
                        _c(_R25C, "client/sampling.mdx")),
                Carried(_R26, "input request", ("sampling/createMessage",), _MRTR),
            )),
    Feature("roots", "the server asks which directories or files the client exposes",
            ("client", "roots"), (
                Carried(_R24, "server request", ("roots/list",), _c(_R24, "client/roots.mdx")),
                Carried(_R26, "input request", ("roots/list",), _MRTR,
                        "deprecated (SEP-2577): deprecated.mdx"),
            )),
    Feature("roots-list-changed", "the client tells the server its roots changed",
            ("client", "roots.listChanged"), (
                Carried(_R24, "notification", ("notifications/roots/list_changed",),
                        _c(_R24, "client/roots.mdx")),
                Carried(_R26, None, (), _c(_R26, "schema.json#/$defs/ClientCapabilities"),
                        "ask for roots in an input request of the call that needs them"),
            )),
    Feature("logging", "the server sends log messages to the client",
            ("server", "logging"), (
                Carried(_R24, "client request", ("logging/setLevel", "notifications/message"),
                        _c(_R24, "server/utilities/logging.mdx")),
                Carried(_R26, "request _meta",
                        ("io.modelcontextprotocol/logLevel", "notifications/message"),
                        _c(_R26, "server/utilities/logging.mdx"),
                        "per request, on that request's response stream only; deprecated"),
            )),
    Feature("completion", "argument completion for prompts and resource templates",
            None, (
                Carried(_R24, "client request", ("completion/complete",),
                        _c(_R24, "server/utilities/completion.mdx")),
                Carried(_R25A, "client request", ("completion/complete",),
                        _c(_R25A, "schema.json#/definitions/ServerCapabilities"),
                        "gated by the server capability completions from here on"),
            )),
    Feature("resource-subscriptions", "the client follows changes to one resource",
            ("server", "resources.subscribe"), (
                Carried(_R24, "client request",
                        ("resources/subscribe", "resources/unsubscribe",
                         "notifications/resources/updated"),
                        _c(_R24, "server/resources.mdx", "Subscriptions")),
                Carried(_R26, "listen stream",
                        ("subscriptions/listen", "notifications/resources/updated"),
                        _c(_R26, "basic/patterns/subscriptions.mdx"),
                        "resourceSubscriptions in the listen filter"),
            )),
    Feature("list-changed", "the server says its tools, prompts or resources changed",
            ("server", "tools.listChanged"), (
                Carried(_R24, "notification", ("notifications/tools/list_changed",),
                        _c(_R24, "server/tools.mdx", "List Changed Notification")),
                Carried(_R26, "listen stream",
                        ("subscriptions/listen", "notifications/tools/list_changed"),
                        _c(_R26, "basic/patterns/subscriptions.mdx"),
                        "only to a client that opted in (toolsListChanged, ...)"),
            )),
    Feature("progress", "progress of a long request", None, (
        Carried(_R24, "notification", ("notifications/progress",),
                _c(_R24, "basic/utilities/progress.mdx"), "either side"),
        Carried(_R26, "notification", ("notifications/progress",),
                _c(_R26, "basic/patterns/progress.mdx"),
                "server to client only, scoped to a request in flight"),
    )),
    Feature("cancellation", "a side cancels a request in flight", None, (
        Carried(_R24, "notification", ("notifications/cancelled",),
                _c(_R24, "basic/utilities/cancellation.mdx")),
        Carried(_R26, "notification", ("notifications/cancelled",),
                _c(_R26, "basic/patterns/cancellation.mdx"),
                "stdio only: on HTTP, closing the response stream cancels"),
    )),
    Feature("ping", "either side checks the other is alive", None, (
        Carried(_R24, "client request", ("ping",), _c(_R24, "basic/utilities/ping.mdx"),
                "either side may send it"),
        Carried(_R26, None, (), _c(_R26, "changelog.mdx", "Major changes"),
                "removed in both directions"),
    )),
    Feature("tasks", "task-augmented requests, polled for their result",
            ("client", "tasks"), (
                Carried(_R25C, "client request",
                        ("tasks/get", "tasks/result", "tasks/list", "tasks/cancel"),
                        _c(_R25C, "basic/utilities/tasks.mdx"), "experimental; both ways"),
                Carried(_R26, None, (), _c(_R26, "changelog.mdx", "Major changes, item 6"),
                        "moved to the io.modelcontextprotocol/tasks extension"),
            )),
)

_BY_NAME: Final = MappingProxyType({f.name: f for f in FEATURES})


def carriage(profile: Profile) -> Mapping[str, Carried]:
    """The named features ``profile`` carries, each with the step that says how (read
    through the profile's lineage; a removed feature is absent). Cheap (a few dozen steps);
    a caller that asks per cell keeps the answer per profile."""
    revisions = {node.revision for node in profile.lineage()}
    found: dict[str, Carried] = {}
    for feature in FEATURES:
        steps = [step for step in feature.history if step.revision in revisions]
        if steps and steps[-1].how is not None:
            found[feature.name] = steps[-1]
    return MappingProxyType(found)


def lost_features(newest: Profile, negotiated: Profile) -> tuple[str, ...]:
    """The named features ``newest`` (a side's newest revision) carries and ``negotiated``
    does not, in :data:`FEATURES` order: what that side loses on the pair."""
    have, had = carriage(negotiated), carriage(newest)
    return tuple(f.name for f in FEATURES if f.name in had and f.name not in have)


def feature_named(name: str) -> Feature:
    """The feature ``name`` (KeyError when there is none)."""
    return _BY_NAME[name]
