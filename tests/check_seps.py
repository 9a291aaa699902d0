"""Is the built-in draft still current? A maintainer's script, not a test.

For each SEP layer (``mcp-skew versions --seps``), the text it cites as stored in a spec
checkout against the digest recorded when it was last checked, and the built-in draft
``next`` against the checkout's draft schema (``schema/draft/``). Prints a line per layer
and per mismatch; the exit code is 1 where something needs a look, 0 where all is current,
2 where no spec is found.

Run: ``.venv/bin/python tests/check_seps.py [SPEC_CHECKOUT]`` (default:
``$MCP_SKEW_SPEC_CHECKOUT``, else ``../shared/spec``). ``tests/schema/test_draft_schema.py``
fails on the same mismatches of the draft schema.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the tests' helpers

from _draft_spec import builtin_draft, draft_mismatches, layer_report, spec_root, stored_draft

from mcp_skew.versions._seps import LAYERS


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else spec_root()
    if root is None or not root.is_dir():
        print("no spec checkout: pass one, or set MCP_SKEW_SPEC_CHECKOUT", file=sys.stderr)
        return 2
    stale = False
    for layer in LAYERS:
        line, look = layer_report(root, layer)
        print(line)
        stale |= look
    draft = stored_draft(root)
    if draft is None:
        print(f"draft schema: not in {root} (schema/draft/schema.json)")
    else:
        problems = draft_mismatches(*draft, builtin_draft())
        for problem in problems:
            print(f"draft schema: {problem}")
        if not problems:
            print("draft schema: the built-in next matches it")
        stale |= bool(problems)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
