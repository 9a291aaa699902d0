"""The next revision before it ships: the SEPs in flight as layers over 2026-07-28.

Theory of operation
-------------------
Each :class:`Layer` is one SEP (or one scheduled removal) written the way a revision
writes its changes (:class:`~._profile.Change`: rule ids, citations, impact, steps),
with its status at its source (Final, In review, Draft) and the date it was last
checked there. Layers are deltas over 2026-07-28 and compose:

- ``next`` is 2026-07-28 with every Final layer that the next revision may carry
  (:attr:`Layer.earliest` empty: the deprecated features of 2026-07-28 may go only in
  a revision released on or after 2027-07-28);
- ``next+sep-3279`` is ``next`` with the layer ``sep-3279`` on top; several layers
  compose left to right (``next+sep-3279+sep-3221``).

A draft's identity and its wire string are two values (conformance PR 495: the spec
repository's ``schema/draft/schema.ts`` declares the release's
``LATEST_PROTOCOL_VERSION``, 2026-07-28): every composed profile is named by its
identity (``next+sep-3279``, what every report shows) and puts :data:`WIRE` on the
wire (what the transcript shows).

Nothing here is in :data:`~._registry.REGISTRY`: :func:`with_drafts` gives a registry
holding the drafts a command names, so the default matrix never meets them.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from . import r2026_07_28 as _base
from ._profile import Binding, Change, Cite, Direction, Impact, Kind, Method, Obligation, Profile
from ._registry import Registry, UnknownRevision

__all__ = [
    "BASE",
    "DRAFT",
    "LAYERS",
    "WIRE",
    "Layer",
    "Status",
    "UnknownLayer",
    "compose",
    "drafts_named",
    "is_draft_name",
    "layer",
    "next_layers",
    "seps_document",
    "seps_text",
    "seps_to_dict",
    "with_drafts",
    "with_drafts_named",
]

#: The built-in draft's identity.
DRAFT: Final = "next"
#: The revision every layer changes.
BASE: Final[Profile] = _base.PROFILE
#: What a draft puts on the wire: the draft schema's ``LATEST_PROTOCOL_VERSION``
#: (``schema/draft/schema.ts`` at b0f60ba, 2026-08-22, the commit the stored texts'
#: digests are of).
WIRE: Final = BASE.revision

_REPO: Final = "https://github.com/modelcontextprotocol/modelcontextprotocol"


class Status(enum.Enum):
    """Where a SEP stands at its source."""

    FINAL = "Final"  #: accepted: merged with status Final
    IN_REVIEW = "In review"  #: an open pull request under review
    DRAFT = "Draft"  #: proposed, not accepted (or only on a roadmap)


@dataclass(frozen=True, slots=True)
class Layer:
    """One SEP as a delta over 2026-07-28."""

    name: str  #: ``sep-3279``: what ``next+NAME`` composes
    title: str
    status: Status
    checked: str  #: the date its source was last read (ISO)
    sources: tuple[str, ...]  #: the SEP file and its pull request, as addresses
    changes: tuple[Change, ...]
    #: the earliest release it may ship in, where its source sets one (empty: the next)
    earliest: str = ""
    #: the path of its text in the spec repository, where one is stored (for
    #: ``tests/check_seps.py``); empty: the text is in a pull request only
    path: str = ""
    #: the sha256 of that text as last checked (empty: none stored)
    digest: str = ""
    #: the extension id where the SEP is an extension (its methods and fields are not in the
    #: core schema: ``tests/check_seps.py`` leaves them out of the comparison)
    extension: str = ""
    #: the status its stored text states, where the layer's own differs on purpose (the
    #: tasks extension is Final; moving it into core is only its stated intent)
    source_status: str = ""

    @property
    def in_next(self) -> bool:
        """Whether ``next`` carries it: Final, and allowed in the next release."""
        return self.status is Status.FINAL and not self.earliest


def _pr(number: int) -> str:
    return f"{_REPO}/pull/{number}"


def _sep_file(path: str) -> str:
    return f"{_REPO}/blob/main/{path}"


def _cite(source: str, section: str = "") -> Cite:
    """A citation of a SEP's pull request, named by the SEP (``SEP-3279``)."""
    return Cite(f"SEP-{source.rsplit('/', 1)[-1]}", source, section)


def _request(*, capability: str | None = None, answer: Mapping[str, Any] | None = None) -> Method:
    """A client-to-server request a layer adds."""
    return Method(Kind.REQUEST, Direction.C2S, capability, answer)


def _must(rule: str) -> Binding:
    return Binding(Obligation.MUST, rule)


_CHECKED: Final = "2026-12-05"
_SKILLS_EXT: Final = "io.modelcontextprotocol/skills"
#: A feature named by an extension id: the simulated client of a revision that has it
#: declares it in ``capabilities.extensions`` (2026-07-28 ``basic/versioning.mdx``
#: §Extension Negotiation).
_SECURE: Final = "io.modelcontextprotocol/secure-params"

LAYERS: Final[tuple[Layer, ...]] = (
    Layer(
        name="sep-2640",
        title="Skills extension: skills/list, skills/get",
        status=Status.FINAL,
        checked=_CHECKED,
        sources=(_pr(2640), _sep_file("seps/2640-skills-extension.md")),
        path="seps/2640-skills-extension.md",
        extension=_SKILLS_EXT,
        changes=(
            Change(
                id="sep-2640-skills",
                summary=f"Skills ({_SKILLS_EXT}): servers list skills with skills/list (paginated, "
                "with the caching hints ttlMs/cacheScope) and return one with skills/get",
                cite=_cite(_pr(2640), "Specification"),
                impact=Impact.ADDITIVE,
                add={
                    "methods": {
                        "skills/list": _request(answer={"skills": []}),
                        "skills/get": _request(answer={}),
                    },
                    "cacheable_results": ["skills/list"],
                    "features": ["skills"],
                },
                steps=(
                    f"Servers: to serve skills, declare {_SKILLS_EXT} in capabilities.extensions "
                    "and answer skills/list (with ttlMs and cacheScope) and skills/get; content is "
                    "read with resources/read.",
                    "Clients: call skills/list only where the server declares the extension; an "
                    "SDK that sends ttlMs/cacheScope to a 2025-11-25 client sends fields that "
                    "revision does not define (ignore unknown fields).",
                ),
            ),
        ),
    ),
    Layer(
        name="sep-2596",
        title="HTTP+SSE transport removed (eligible three months after SEP-2596 is Final)",
        status=Status.FINAL,
        checked=_CHECKED,
        sources=(_sep_file("docs/specification/2026-07-28/deprecated.mdx"), _pr(2596)),
        path="docs/specification/2026-07-28/deprecated.mdx",
        digest="6ec5fc903d1be37e5ab0afda2acd7765aaf2909b90a2dca405e1aaea8936225b",
        changes=(
            Change(
                id="sep-2596-http-sse-removed",
                summary="The HTTP+SSE transport (2024-11-05) is removed: a server of the next "
                "revision serves Streamable HTTP only, so a 2024-11-05-only client loses its HTTP "
                "transport",
                cite=Cite("2026-07-28", "deprecated.mdx", "Deprecated"),
                impact=Impact.BREAKING,
                transport="http",
                remove={"features": ["http+sse"], "deprecations": ["HTTP+SSE transport"]},
                steps=(
                    "Servers: drop the HTTP+SSE endpoint (GET stream plus POST to the announced "
                    "endpoint); serve Streamable HTTP only, and tell 2024-11-05-only clients to "
                    "upgrade.",
                    "Clients: speak Streamable HTTP (2025-03-26 on); a client that only knows "
                    "HTTP+SSE cannot reach a next-revision server over HTTP.",
                ),
                severity={"server": Binding(
                    Obligation.SHOULD, "existing implementations SHOULD migrate before the "
                    "feature's earliest removal", Cite("2026-07-28", "deprecated.mdx"))},
            ),
        ),
    ),
    Layer(
        name="sep-3279",
        title="Negotiated tool result variants: outputVariants, requestedOutputs, outputs",
        status=Status.IN_REVIEW,
        checked=_CHECKED,
        sources=(_pr(3279),),
        changes=(
            Change(
                id="sep-3279-tool-output-variants",
                summary="Tool.outputVariants replaces outputSchema: a tool lists the output "
                "representations it can give, each structured one with its own schema",
                cite=_cite(_pr(3279), "Breaking Changes"),
                impact=Impact.BREAKING,
                remove={"tool_fields": ["outputSchema"]},
                add={"tool_fields": ["outputVariants"]},
                steps=("Servers: describe each tool's outputs as outputVariants instead of "
                       "outputSchema.",),
            ),
            Change(
                id="sep-3279-call-tool-outputs",
                summary="CallToolResult.outputs replaces content and structuredContent (tools/call "
                "gains requestedOutputs); earlier revisions keep the old shape, so a client that "
                "reads content gets a result it cannot read from a server of this revision",
                cite=_cite(_pr(3279), "Breaking Changes"),
                impact=Impact.BREAKING,
                remove={"call_tool_result_fields": ["content", "structuredContent"]},
                add={"call_tool_result_fields": ["outputs"], "features": ["tool-output-variants"]},
                steps=(
                    "Servers: answer tools/call with outputs, per requestedOutputs; answer a "
                    "client of an earlier revision with content and structuredContent (the wire "
                    "string alone may not tell them apart while the draft declares 2026-07-28).",
                    "Clients: send requestedOutputs and read outputs; until the revision has its "
                    "own version string, accept both shapes.",
                ),
                severity={"server": _must("Earlier protocol versions retain the legacy wire shape")},
            ),
        ),
    ),
    Layer(
        name="sep-3221",
        title="Secure parameters extension (io.modelcontextprotocol/secure-params)",
        status=Status.DRAFT,
        checked=_CHECKED,
        sources=(_pr(3221),),
        extension=_SECURE,
        changes=(
            Change(
                id="sep-3221-secure-params",
                summary=f"Secure parameters ({_SECURE}): a tool's secureInputSchema and a call's "
                "secureArguments carry host-injected values apart from the model's arguments; a "
                "tool that needs them is hidden from a client that does not declare the "
                "extension, and a direct call gets -32021",
                cite=_cite(_pr(3221), "Specification"),
                impact=Impact.BEHAVIOUR,
                add={"tool_fields": ["secureInputSchema"], "features": [_SECURE]},
                steps=(
                    f"Servers: list a tool with secureInputSchema only to clients whose "
                    f"capabilities.extensions declare {_SECURE}; answer a call from any other "
                    "with -32021 MissingRequiredClientCapability; drop colliding keys from "
                    "arguments.",
                    f"Clients (hosts): declare {_SECURE} and send host values in secureArguments, "
                    "never in the model's arguments.",
                ),
                severity={"server": _must("a call from a client without the extension gets -32021 "
                                          "(MISSING_REQUIRED_CLIENT_CAPABILITY)")},
            ),
        ),
    ),
    Layer(
        name="sep-1932",
        title="DPoP profile for MCP authorization (RFC 9449 sender-constrained tokens)",
        status=Status.IN_REVIEW,
        checked=_CHECKED,
        sources=(_pr(1932),),
        changes=(
            Change(
                id="sep-1932-dpop",
                summary="Access tokens may be DPoP-bound (RFC 9449): the client proves possession "
                "of a key with a DPoP proof on every request (Authorization: DPoP); a server that "
                "accepts only DPoP-bound tokens is opaque to a Bearer-only client",
                cite=_cite(_pr(1932), "Specification"),
                impact=Impact.ADDITIVE,
                transport="http",
                add={"features": ["dpop"]},
                steps=(
                    "Servers: if you require DPoP, keep accepting Bearer tokens for clients "
                    "that do not send proofs, or say in the 401 challenge (WWW-Authenticate: "
                    "DPoP) what is needed.",
                    "Clients: obtain DPoP-bound tokens where the authorization server advertises "
                    "dpop_signing_alg_values_supported, and send a fresh proof per request.",
                ),
            ),
        ),
    ),
    Layer(
        name="sep-2663",
        title="Tasks move from the extension into core (SEP-2663's stated intent)",
        status=Status.DRAFT,
        checked=_CHECKED,
        sources=(_sep_file("seps/2663-tasks-extension.md"), _pr(2663)),
        path="seps/2663-tasks-extension.md",
        source_status="Final",
        digest="2bd75e527a0796ffbc07ed34c47307a43c78de1e3001eada52e601051c09a385",
        changes=(
            Change(
                id="sep-2663-tasks-in-core",
                summary="Tasks (tasks/get, tasks/update, tasks/cancel) become core methods; a "
                "server that can answer only with a task gets -32021 from a client without it",
                cite=Cite("2026-07-28", _sep_file("seps/2663-tasks-extension.md"), "Abstract"),
                impact=Impact.ADDITIVE,
                add={
                    "methods": {
                        "tasks/get": _request(capability="tasks"),
                        "tasks/update": _request(capability="tasks"),
                        "tasks/cancel": _request(capability="tasks"),
                    },
                    "features": ["tasks"],
                },
                steps=(
                    "Servers: serve tasks/get, tasks/update and tasks/cancel as core methods; a "
                    "request you can only answer with a task gets -32021 from a client that does "
                    "not declare tasks (SEP-2663 uses -32021; earlier drafts named -32003).",
                    "Clients: poll with tasks/get, not the removed tasks/result.",
                ),
            ),
        ),
    ),
    Layer(
        name="sep-2577",
        title="Roots, Sampling, Logging and Dynamic Client Registration removed",
        status=Status.FINAL,
        checked=_CHECKED,
        earliest="2027-07-28",
        sources=(_sep_file("seps/2577-deprecate-roots-sampling-and-logging.md"), _pr(2577),
                 _pr(2858)),
        path="seps/2577-deprecate-roots-sampling-and-logging.md",
        digest="ff22b7a6f476b0462e346f79c1dcb091db4e8f487e5d6ee300f7f7fcf32abd7b",
        changes=(
            Change(
                id="sep-2577-roots-sampling-logging-removed",
                summary="Roots, Sampling and Logging are removed (deprecated in 2026-07-28; "
                "removable in the first revision released on or after 2027-07-28)",
                cite=Cite("2026-07-28", "deprecated.mdx", "Deprecated"),
                impact=Impact.BREAKING,
                remove={
                    "client_capabilities": ["roots", "sampling", "sampling.context",
                                            "sampling.tools"],
                    "features": ["roots", "sampling", "sampling-with-tools", "logging"],
                    "deprecations": ["Roots", "Sampling", "Logging",
                                     "includeContext thisServer/allServers"],
                },
                steps=(
                    "Servers: pass directories via tool parameters, resource URIs or "
                    "configuration; call LLM provider APIs directly; log to stderr (stdio) or "
                    "OpenTelemetry.",
                    "Clients: stop declaring roots and sampling.",
                ),
            ),
            Change(
                id="sep-2577-dcr-removed",
                summary="OAuth Dynamic Client Registration is removed for Client ID Metadata "
                "Documents (PR #2858)",
                cite=Cite("2026-07-28", "deprecated.mdx", "Deprecated"),
                impact=Impact.BREAKING,
                transport="http",
                remove={"deprecations": ["Dynamic Client Registration"]},
                steps=("Clients: register with a Client ID Metadata Document.",),
            ),
        ),
    ),
)


class UnknownLayer(UnknownRevision):
    """A draft name naming a layer that is not in :data:`LAYERS` (one line, as an unknown
    revision's)."""

    def __init__(self, message: str) -> None:
        LookupError.__init__(self, message)
        self.revision, self.known = "", ()


def layer(name: str) -> Layer:
    for found in LAYERS:
        if found.name == name:
            return found
    known = ", ".join(x.name for x in LAYERS)
    raise UnknownLayer(f"unknown SEP layer {name!r}; known layers: {known}")


def next_layers() -> tuple[Layer, ...]:
    """The layers ``next`` carries."""
    return tuple(x for x in LAYERS if x.in_next)


_NAME: Final = re.compile(rf"{DRAFT}(?:\+[a-z0-9-]+)*")


def is_draft_name(name: str) -> bool:
    """Whether ``name`` reads as a built-in draft (``next``, ``next+sep-3279``)."""
    return _NAME.fullmatch(name) is not None


def _next() -> Profile:
    changes = [c for x in next_layers() for c in x.changes]
    return BASE.evolve(revision=DRAFT, wire=WIRE, changes=changes,
                       title="The next revision: 2026-07-28 with the Final SEPs ("
                       + ", ".join(x.name for x in next_layers()) + ")")


def compose(name: str) -> tuple[Profile, ...]:
    """The profiles of draft ``name``, base first: ``next`` then each layer named after it
    (``next+sep-3279+sep-3221`` is three). Raises :class:`UnknownLayer`."""
    if not is_draft_name(name):
        raise UnknownLayer(f"{name!r} is not a draft name (next, or next+LAYER...)")
    parts = name.split("+")[1:]
    chain = [_next()]
    for index, part in enumerate(parts):
        found = layer(part)
        if found.in_next:
            raise UnknownLayer(f"{name!r}: {part} is already in {DRAFT}")
        revision = "+".join([DRAFT, *parts[: index + 1]])
        chain.append(chain[-1].evolve(revision=revision, wire=WIRE, changes=found.changes,
                                      title=f"{DRAFT} with {found.name}: {found.title}"))
    return tuple(chain)


def with_drafts(names: Iterable[str], registry: Registry) -> Registry:
    """``registry`` with the drafts ``names`` (and the ones each is composed on) it lacks."""
    for name in names:
        for profile in compose(name):
            if profile.revision not in registry:
                registry = registry.with_profile(profile)
    return registry


_MENTION: Final = re.compile(rf"(?<![\w.-]){DRAFT}(?:\+sep-\d+)*"
                             r"(?![\w.-])")


def drafts_named(texts: Iterable[str]) -> tuple[str, ...]:
    """The built-in drafts ``texts`` (a command line's arguments) name, in order: a whole
    word ``next`` with its layers (a revision argument, a peer spec ``modern:next+sep-3279``,
    ``--with next``)."""
    found: dict[str, None] = {}
    for text in texts:
        for match in _MENTION.finditer(text):
            found[match.group(0)] = None
    return tuple(found)


def with_drafts_named(texts: Iterable[str], registry: Registry) -> Registry:
    """``registry`` with the built-in drafts ``texts`` name (:func:`drafts_named`); a layer
    that does not exist raises :class:`UnknownLayer` (one line)."""
    return with_drafts(drafts_named(texts), registry)


def seps_document(fmt: str) -> str:
    """``versions --seps`` in ``fmt``: ``json``, ``markdown`` or ``text``."""
    if fmt == "json":
        from .._jsontext import to_json  # noqa: PLC0415 - the JSON writer, for --format json

        return to_json(seps_to_dict())
    return seps_text(markdown=fmt == "markdown")


def seps_to_dict() -> dict[str, object]:
    """The layers as plain data (``versions --seps --format json``)."""
    return {
        "base": BASE.revision,
        "draft": DRAFT,
        "wire": WIRE,
        "next": [x.name for x in next_layers()],
        "layers": [
            {
                "name": x.name,
                "title": x.title,
                "status": x.status.value,
                "checked": x.checked,
                "in_next": x.in_next,
                "earliest": x.earliest or None,
                "sources": list(x.sources),
                "changes": [{"id": c.id, "impact": c.impact.value, "summary": c.summary,
                             "cite": str(c.cite), "transport": c.transport} for c in x.changes],
            }
            for x in LAYERS
        ],
    }


def seps_text(markdown: bool = False) -> str:
    """The layers for people: one block per layer (``versions --seps``)."""
    lines = [f"# SEP layers over {BASE.revision}" if markdown else
             f"SEP layers over {BASE.revision}", ""]
    lines.append(f"{DRAFT} = {BASE.revision} + {' + '.join(x.name for x in next_layers())} "
                 f"(wire string {WIRE}); compose others: {DRAFT}+LAYER[+LAYER...], e.g. "
                 f"mcp-skew diff {DRAFT} {DRAFT}+sep-3279")
    lines.append("")
    for x in LAYERS:
        where = "in next" if x.in_next else (f"not before {x.earliest}" if x.earliest
                                             else f"compose: {DRAFT}+{x.name}")
        head = f"{x.name}: {x.title}"
        lines.append(f"## {head}" if markdown else head)
        bullet = "- " if markdown else "  "
        lines.append(f"{bullet}status {x.status.value}, checked {x.checked}, {where}")
        lines += [f"{bullet}source {s}" for s in x.sources]
        lines += [f"{bullet}{c.id} ({c.impact.value}): {c.summary}" for c in x.changes]
        lines.append("")
    return "\n".join(lines)
