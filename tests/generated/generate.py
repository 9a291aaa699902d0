"""Generate, from the official MCP schemas, what the tests need to run anywhere.

The official ``schema.json`` of each revision lives outside the project (at
``../shared/spec`` from its root, on developer and CI machines only) and is never
copied in. From each one this script derives, into ``tests/generated/``:

- ``r<revision>.py``: pydantic models of every definition, written by
  datamodel-code-generator from the schema with its prose (``description``) and
  its annotation-only keywords (``format``, which JSON Schema validators ignore by
  default) taken out. ``tests/oracle.py`` validates instances with them.
- ``r<revision>.facts.json``: the facts the profile tests compare against (the four
  method unions, capability keys, content types, ``_meta`` keys, required result
  fields, caching hints, error codes with their ``data`` keys) and, per definition,
  its property names, required names, ``method`` const and error code.
- ``examples-<revision>.json``: for each official example, its type and file name
  and the key paths it holds (no values).

Run it after the schemas change (the test ``tests/schema/test_generated.py`` fails
until you do, wherever ``../shared/spec`` exists)::

    .venv/bin/python tests/generated/generate.py [SPEC_DIR]

It needs datamodel-code-generator at the version pinned in pyproject.toml's
``dev`` extra, since another version writes other code.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcp_skew.versions import REVISIONS as BUILTIN_REVISIONS

HERE = Path(__file__).resolve().parent
DEFAULT_SPEC = HERE.parents[2] / "shared" / "spec"
#: The revisions whose schemas are turned into models, facts and the unknown-field table,
#: oldest first: the registry's built-in ones (one list).
REVISIONS = BUILTIN_REVISIONS
#: Keywords left out of the models' input: prose, and ``format`` (annotation only).
DROPPED = frozenset({"description", "format", "$comment", "examples"})
CODEGEN_OPTIONS = (
    "--input-file-type", "jsonschema",
    "--output-model-type", "pydantic_v2.BaseModel",
    "--target-python-version", "3.11",
    "--strict-types", "str", "int", "float", "bool",
    "--enum-field-as-literal", "all",
    "--use-annotated",
    "--use-missing-sentinel",
    "--target-pydantic-version", "2.14",
    "--formatters", "builtin",
    "--disable-timestamp",
)  # fmt: skip


def module_name(revision: str) -> str:
    return "r" + revision.replace("-", "_")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- reading a schema ------------------------------------------------------------------------------


def definitions(schema: dict[str, Any]) -> dict[str, Any]:
    """The named types: ``$defs`` (2020-12 schemas) or ``definitions`` (draft-07)."""
    defs: dict[str, Any] = schema.get("$defs") or schema["definitions"]
    return defs


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = definitions(schema)[node["$ref"].rsplit("/", 1)[-1]]
    return node


def members(schema: dict[str, Any], node: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a union; a one-member union is the member itself."""
    node = resolve(schema, node)
    for key in ("anyOf", "oneOf"):
        if key in node:
            return [m for alt in node[key] for m in members(schema, alt)]
    return [node]


def union_methods(schema: dict[str, Any], union: str) -> list[str]:
    defs = definitions(schema)
    if union not in defs:
        return []
    return sorted(m["properties"]["method"]["const"] for m in members(schema, defs[union]))


def capability_keys(schema: dict[str, Any], name: str) -> list[str]:
    """Dotted keys of a capability object; open maps (no ``properties``) are one key."""

    def walk(node: dict[str, Any], prefix: str) -> Iterator[str]:
        for key, sub in node.get("properties", {}).items():
            yield prefix + key
            yield from walk(resolve(schema, sub), f"{prefix}{key}.")

    return sorted(walk(definitions(schema)[name], ""))


def content_types(schema: dict[str, Any], type_name: str, field: str = "content") -> list[str]:
    """The ``type`` consts of the blocks a field (a block or an array of blocks) may hold."""
    node = resolve(schema, definitions(schema)[type_name]["properties"][field])
    node = resolve(schema, node.get("items", node))
    types: set[str] = set()
    for member in members(schema, node):
        block = resolve(schema, member.get("items", member))
        inner = members(schema, block) if ("anyOf" in block or "oneOf" in block) else [block]
        types |= {resolve(schema, m)["properties"]["type"]["const"] for m in inner}
    return sorted(types)


def properties(schema: dict[str, Any], type_name: str) -> list[str]:
    return sorted(definitions(schema)[type_name].get("properties", {}))


def request_meta(schema: dict[str, Any]) -> dict[str, list[str]]:
    """Required and optional keys of every request's ``params._meta``."""
    defs = definitions(schema)
    params = defs["RequestParams"] if "RequestParams" in defs else defs["Request"]["properties"]["params"]
    meta = resolve(schema, params["properties"]["_meta"])
    required = set(meta.get("required", ()))
    return {"required": sorted(required), "optional": sorted(set(meta.get("properties", {})) - required)}


def result_meta(schema: dict[str, Any]) -> list[str]:
    meta = resolve(schema, definitions(schema)["Result"]["properties"]["_meta"])
    return sorted(meta.get("properties", {}))


def cacheable(schema: dict[str, Any]) -> dict[str, list[str]]:
    """Methods whose result carries the caching hints (``XResult`` answers ``XRequest``), and the hints."""
    defs = definitions(schema)
    if "CacheableResult" not in defs:
        return {"methods": [], "hints": []}
    hints = set(properties(schema, "CacheableResult")) - set(properties(schema, "Result"))
    methods = {
        defs[name.removesuffix("Result") + "Request"]["properties"]["method"]["const"]
        for name, node in defs.items()
        if name.endswith("Result") and name != "CacheableResult" and hints <= set(node.get("properties", {}))
    }
    return {"methods": sorted(methods), "hints": sorted(hints)}


def error_parts(node: dict[str, Any]) -> Iterator[tuple[dict[str, Any], bool]]:
    """(the part holding ``code``, whether the definition is a whole error response).

    Two shapes exist: an error object (``properties.code.const``) and an error
    response (``properties.error.allOf[...]`` holding the code and the data).
    """
    props = node.get("properties", {})
    yield props, False
    for part in props.get("error", {}).get("allOf", []):
        yield part.get("properties", {}), True


def error_codes(schema: dict[str, Any]) -> dict[str, list[str]]:
    """Code (as a string key) -> keys of ``data``, for every definition with a code const."""
    found: dict[str, list[str]] = {}
    for node in definitions(schema).values():
        for part, _ in error_parts(node):
            if "const" in part.get("code", {}):
                data = resolve(schema, part.get("data", {}))
                found[str(part["code"]["const"])] = sorted(data.get("properties", {}))
    return dict(sorted(found.items(), key=lambda kv: int(kv[0])))


def shape(node: dict[str, Any]) -> dict[str, list[str]]:
    return {"properties": sorted(node.get("properties", {})), "required": sorted(node.get("required", []))}


def definition_facts(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Property and required names, the ``method`` const, the error code, inline params."""
    facts: dict[str, Any] = shape(node)
    method = node.get("properties", {}).get("method", {})
    facts["method"] = method.get("const")
    facts["code"], facts["whole_response"] = None, False
    for part, whole in error_parts(node):
        if "const" in part.get("code", {}):
            facts["code"], facts["whole_response"] = part["code"]["const"], whole
    params = node.get("properties", {}).get("params")
    facts["params"] = shape(resolve(schema, params)) if isinstance(params, dict) else None
    return facts


def facts(schema: dict[str, Any], revision: str, source: str) -> dict[str, Any]:
    unions = ("ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification")
    return {
        "revision": revision,
        "source_sha256": source,
        "unions": {u: union_methods(schema, u) for u in unions},
        "capability_keys": {n: capability_keys(schema, n) for n in ("ClientCapabilities",
                                                                    "ServerCapabilities")},
        "content_types": {
            "CallToolResult": content_types(schema, "CallToolResult"),
            "PromptMessage": content_types(schema, "PromptMessage"),
            "SamplingMessage": content_types(schema, "SamplingMessage"),
        },
        "request_meta": request_meta(schema),
        "result_meta": result_meta(schema),
        "result_required": sorted(definitions(schema)["Result"].get("required", ())),
        "cacheable": cacheable(schema),
        "error_codes": error_codes(schema),
        "definitions": {name: definition_facts(schema, node)
                        for name, node in sorted(definitions(schema).items())},
    }


# -- models ----------------------------------------------------------------------------------------


def structure_only(node: Any) -> Any:
    """The schema without its prose and annotation-only keywords (see :data:`DROPPED`).

    A keyword's value is never an object here, while a property's schema always
    is, so ``Tool.properties.description`` (a property) stays.
    """
    if isinstance(node, dict):
        return {k: structure_only(v) for k, v in node.items() if k not in DROPPED or isinstance(v, dict)}
    if isinstance(node, list):
        return [structure_only(v) for v in node]
    return node


def models(schema: dict[str, Any], revision: str, source: str) -> str:
    """The datamodel-code-generator module for ``schema``, with our header."""
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / f"{revision}.json", Path(tmp) / "out.py"
        src.write_text(json.dumps(structure_only(schema), indent=1, sort_keys=True), encoding="utf-8")
        command = [sys.executable, "-m", "datamodel_code_generator", "--input", str(src),
                   "--output", str(out), *CODEGEN_OPTIONS]
        subprocess.run(command, check=True, capture_output=True)
        body = out.read_text(encoding="utf-8")
    body = body.split("\n", 2)[2] if body.startswith("# generated by datamodel-codegen") else body
    header = (
        f"# Generated by tests/generated/generate.py from the official MCP schema of {revision}\n"
        f"# (schema/{revision}/schema.json, sha256 {source}) with datamodel-code-generator\n"
        f"# {codegen_version()}; prose and `format` left out. Do not edit: run the script.\n"
    )
    return header + body.lstrip("\n")


def codegen_version() -> str:
    from importlib.metadata import version

    return version("datamodel-code-generator")


def load(module_text: str, revision: str) -> dict[str, Any]:
    """Import generated text as a real module (pydantic resolves its annotations only then)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"_generated_{module_name(revision)}.py"
        path.write_text(module_text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        try:
            spec.loader.exec_module(module)
        finally:
            del sys.modules[path.stem]
        return vars(module)


def class_names(module_text: str, schema: dict[str, Any], revision: str) -> dict[str, str]:
    """Definition name -> the class built from it (the generator renames one that shadows an import).

    A candidate is accepted when it is a model whose wire field names include the
    definition's properties (``allOf`` adds others), or a root model.
    """
    namespace = load(module_text, revision)
    found: dict[str, str] = {}
    for name, node in definitions(schema).items():
        for candidate in (name, f"{name}Model", f"{name}_"):
            fields = getattr(namespace.get(candidate), "model_fields", None)
            if fields is None:
                continue
            wire = {info.alias or key for key, info in fields.items()}
            if "root" in fields or wire >= set(node.get("properties", {})):
                found[name] = candidate
                break
        else:
            raise SystemExit(f"{revision}: no class matches definition {name}")
    return found


def with_index(module_text: str, names: dict[str, str]) -> str:
    """The module, ending with ``DEFINITIONS``: every definition name -> its class."""
    lines = [f"    {name!r}: {cls}," for name, cls in sorted(names.items())]
    return module_text.rstrip("\n") + "\n\n\nDEFINITIONS: dict[str, Any] = {\n" + "\n".join(lines) + "\n}\n"


# -- examples --------------------------------------------------------------------------------------


def key_paths(value: Any, prefix: str = "$") -> Iterator[str]:
    if isinstance(value, dict):
        for key, sub in value.items():
            yield f"{prefix}.{key}"
            yield from key_paths(sub, f"{prefix}.{key}")
    elif isinstance(value, list):
        for sub in value:
            yield from key_paths(sub, f"{prefix}[]")


def examples(root: Path) -> list[dict[str, Any]]:
    out = []
    for path in sorted(root.glob("*/*.json")):
        payload = json.loads(path.read_text(encoding="utf-8"))
        out.append({"type": path.parent.name, "file": path.name, "sha256": digest(path),
                    "is_message": isinstance(payload, dict) and "jsonrpc" in payload,
                    "key_paths": sorted(set(key_paths(payload)))})
    return out


# -- the unknown-field table -----------------------------------------------------------------------

#: Where the package's table goes (``mcp_skew.versions.unknown_fields`` reads it).
FIELDS_MODULE = HERE.parents[1] / "mcp_skew" / "versions" / "_schema_fields.py"
#: Properties whose value is a JSON Schema (``Tool.inputSchema``/``outputSchema``: "A JSON
#: Schema object ..."): its keys are keywords, data to this check.
JSON_SCHEMAS = frozenset({"inputSchema", "outputSchema"})
#: The ``resultType`` of an ``InputRequiredResult`` (schema/2026-07-28/schema.json#/$defs/ResultType:
#: "input_required - ... the result contains an InputRequiredResult"); the schema types it as a string.
INPUT_REQUIRED = ("InputRequiredResult", "resultType", "input_required")


def ref_name(node: dict[str, Any]) -> str:
    return str(node["$ref"]).rsplit("/", 1)[-1]


class FieldTable:
    """The object types one revision's results use (:func:`spelled` writes them for the module).

    Here a type is an object (property -> expression, ``!`` in front if required;
    the key ``*`` if open) or a union (``A|B``). An expression is ``""`` (a value not
    looked into), ``=value`` (a string constant), a type name or ``Name[]`` (a list).
    An inline object or union gets the name ``Parent.property``.
    """

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.types: dict[str, dict[str, str] | str] = {}

    def named(self, name: str, *, meta: bool = False) -> str:
        """The expression of definition ``name``, adding it (and what it uses) to the table."""
        if name in self.types:
            return name
        self.types[name] = ""  # taken while it is built: a definition may refer to itself
        expression = self.node(definitions(self.schema)[name], name, meta=meta)
        if expression != name:  # a plain value, or another definition's name
            del self.types[name]
        return expression

    def node(self, node: dict[str, Any], name: str, *, meta: bool = False) -> str:
        """The expression of ``node``; an object or union is stored under ``name``."""
        if "$ref" in node:
            return self.named(ref_name(node), meta=meta)
        if isinstance(node.get("const"), str):
            return "=" + node["const"]
        if "items" in node:
            element = self.node(node["items"], name)
            if not element or element.startswith("="):
                return ""
            if "|" in element or element.endswith("[]"):
                raise SystemExit(f"{name}: a list of a union or of lists needs a name")
            return element + "[]"
        alternatives = node.get("anyOf") or node.get("oneOf")
        if alternatives:
            return self.union([self.node(alt, f"{name}.{i}") for i, alt in enumerate(alternatives)], name)
        if "allOf" in node:
            return self.store(name, self.merged(node["allOf"], name))
        if not node.get("properties"):
            return ""  # a scalar, a map (``additionalProperties``), any value
        return self.store(name, self.fields(node, name, open_=meta or "additionalProperties" in node))

    def union(self, alternatives: list[str], name: str) -> str:
        parts = [part for alt in alternatives for part in alt.split("|")]
        if "" in parts or any(p.startswith("=") for p in parts):
            if any(p and not p.startswith("=") for p in parts):
                raise SystemExit(f"{name}: a union of objects and plain values")
            return ""
        self.types[name] = "|".join(parts)
        return name

    def merged(self, parts: list[dict[str, Any]], name: str) -> dict[str, str]:
        """An ``allOf`` of objects: their properties together, open only if each part is."""
        merged: dict[str, str] = {}
        opens = []
        for part in parts:
            fields = self.types[self.node(part, name + ".part")]
            assert isinstance(fields, dict), name
            opens.append("*" in fields)
            merged |= fields
        if not all(opens):
            merged.pop("*", None)
        return dict(sorted(merged.items()))

    def fields(self, node: dict[str, Any], name: str, *, open_: bool) -> dict[str, str]:
        required = set(node.get("required", ()))
        out = {"*": ""} if open_ else {}
        for key, sub in sorted(node["properties"].items()):
            expression = "" if key in JSON_SCHEMAS else self.node(sub, f"{name}.{key}", meta=key == "_meta")
            out[key] = ("!" if key in required else "") + expression
        return out

    def store(self, name: str, fields: dict[str, str]) -> str:
        if INPUT_REQUIRED[0] == name and INPUT_REQUIRED[1] in fields:
            fields[INPUT_REQUIRED[1]] = "!=" + INPUT_REQUIRED[2]
        self.types[name] = fields
        return name


def result_methods(schema: dict[str, Any]) -> dict[str, str]:
    """Method -> the result definition its response holds, from the schema's own unions.

    A request union's ``XRequest`` is answered by ``XResult`` of the other side's
    result union, else by its plain ``Result`` (``ping``). Where the schema defines
    ``XResultResponse`` (2026-07-28), its ``result`` says which (``InputRequiredResult|XResult``).
    """
    defs = definitions(schema)
    answers = {"ClientRequest": "ServerResult", "ServerRequest": "ClientResult"}
    found: dict[str, list[str]] = {}
    for union, result_union in answers.items():
        if union not in defs:
            continue
        results = {ref_name(m) for m in members_refs(defs[result_union])}
        for request in members_refs(defs[union]):
            name = ref_name(request)
            method = defs[name]["properties"]["method"]["const"]
            result = name.removesuffix("Request") + "Result"
            response = defs.get(result + "Response", {}).get("properties", {}).get("result")
            names = [ref_name(m) for m in members_refs(response)] if response is not None \
                else [result if result in results else "Result"]
            if found.setdefault(method, names) != names:  # both sides ask it (ping, tasks/get)
                raise SystemExit(f"{method}: answered by {found[method]} and by {names}")
    return dict(sorted((m, "|".join(names)) for m, names in found.items()))


def members_refs(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``$ref`` alternatives of a union node (a lone ``$ref`` is one)."""
    return list(node.get("anyOf") or node.get("oneOf") or [node])


def field_table(schema: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(method -> its result's alternatives, type name -> object or union) of one revision."""
    table = FieldTable(schema)
    methods = {method: tuple(table.named(n) for n in names.split("|"))
               for method, names in result_methods(schema).items()}
    return methods, {name: spelled(entry) for name, entry in sorted(table.types.items())}


def spelled(entry: dict[str, str] | str) -> str | tuple[str, ...]:
    """A table entry as the module spells it: an object's properties in one string, a union a tuple."""
    if isinstance(entry, str):
        return tuple(entry.split("|"))
    words = []
    for key, spec in entry.items():
        expression = spec.removeprefix("!")
        word = spec[: len(spec) - len(expression)] + key + (f":{expression}" if expression else "")
        if " " in word or word.count(":") > 1:
            raise SystemExit(f"cannot spell property {key!r} = {spec!r}")
        words.append(word)
    return " ".join(words)


def fields_module(spec: Path) -> str:
    """The text of :data:`FIELDS_MODULE`: every built-in revision's table."""
    sources, results, types = {}, {}, {}
    for revision in REVISIONS:
        path = spec / "schemas" / revision / "schema.json"
        sources[revision] = digest(path)
        results[revision], types[revision] = field_table(json.loads(path.read_text(encoding="utf-8")))
    return FIELDS_HEADER + "\n".join([
        literal("SOURCES", "dict[str, str]", sources),
        literal("RESULTS", "dict[str, dict[str, tuple[str, ...]]]", results),
        literal("TYPES", "dict[str, dict[str, str | tuple[str, ...]]]", types),
    ])


FIELDS_HEADER = '''"""The fields of each revision's results, from its official schema: generated, do not edit.

Regenerate with ``.venv/bin/python tests/generated/generate.py``: it reads
``schema/<revision>/schema.json`` of each built-in revision (:data:`SOURCES`: the
sha256 of each). :func:`mcp_skew.versions.unknown_fields` reads this table.

:data:`RESULTS`: per revision, each method -> the result definitions its response
may hold (``InputRequiredResult`` first where the revision allows one). :data:`TYPES`:
per revision, each object type those use -> its properties, or a union -> its
alternatives. A property is ``name``, ``!name`` if required, ``name:Type`` or
``name:Type[]`` (a list) for an object or union looked into, ``name:=value`` for a
string constant; a value that is not looked into (a scalar, a map, a JSON Schema,
``_meta`` without named keys) has no type. ``*`` marks an open object: keys it does
not name are data, not unknown fields (``_meta``, ``Result``). An inline object or
union is named ``Parent.property``.
"""

from typing import Final

'''


def literal(name: str, annotation: str, value: dict[str, Any]) -> str:
    """``NAME: Final[annotation] = {...}``, one entry a line, a long string cut at its spaces."""
    return "\n".join([f"{name}: Final[{annotation}] = {{", *entries(value, 1), "}", ""])


def entries(value: dict[str, Any], depth: int) -> list[str]:
    pad = "    " * depth
    out = []
    for key, item in value.items():
        head = f"{pad}{json.dumps(key)}: "
        if isinstance(item, dict):
            out += [head + "{", *entries(item, depth + 1), pad + "},"]
        elif isinstance(item, tuple):
            one = "," if len(item) == 1 else ""
            line = head + "(" + ", ".join(json.dumps(a) for a in item) + one + "),"
            out += [line] if len(line) <= 110 else [head + "(", *(f"{pad}    {json.dumps(a)}," for a in item),
                                                    pad + "),"]
        elif len(head) + len(item) + 3 <= 110:
            out.append(f"{head}{json.dumps(item)},")
        else:
            out += [head + "(", *(f"{pad}    {json.dumps(piece)}" for piece in cut(item, 100 - len(pad))),
                    pad + "),"]
    return out


def cut(text: str, width: int) -> list[str]:
    """``text`` in pieces of at most ``width`` characters, each but the last ending in a space."""
    pieces, line = [], ""
    for word in text.split(" "):
        if line and len(line) + len(word) > width:
            pieces.append(line)
            line = ""
        line += word + " "
    return [*pieces, line.rstrip(" ")]


# -- main ------------------------------------------------------------------------------------------


def outputs(spec: Path) -> dict[str, str]:
    """File name (in this folder) -> text, for everything generated from ``spec``."""
    files: dict[str, str] = {}
    for revision in REVISIONS:
        path = spec / "schemas" / revision / "schema.json"
        schema, source = json.loads(path.read_text(encoding="utf-8")), digest(path)
        text = models(schema, revision, source)
        text = with_index(text, class_names(text, schema, revision))
        files[f"{module_name(revision)}.py"] = text
        files[f"{module_name(revision)}.facts.json"] = dumps(facts(schema, revision, source))
    for folder in sorted((spec / "examples").iterdir()):
        files[f"examples-{folder.name}.json"] = dumps(examples(folder))
    return files


def dumps(value: Any) -> str:
    return json.dumps(value, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    spec = Path(argv[0]) if argv else DEFAULT_SPEC
    if not (spec / "schemas").is_dir():
        print(f"generate.py: {spec} holds no schemas/ folder", file=sys.stderr)
        return 2
    for name, text in outputs(spec).items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote tests/generated/{name}")
    FIELDS_MODULE.write_text(fields_module(spec), encoding="utf-8")
    print(f"wrote {FIELDS_MODULE.relative_to(HERE.parents[1])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
