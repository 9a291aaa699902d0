"""A server that crashes as it starts: a line on stderr, exit code 3, nothing on stdout.

Test helper for the census (a listed package whose process dies at once); not part of mcp-skew.
"""

import sys

print("crash_at_start: cannot load configuration", file=sys.stderr, flush=True)
sys.exit(3)
