"""``mcp-skew``'s command line, as a main script whose spawned worker processes stop in
their start (test_census_cluster_stop_slow.py).

A ``multiprocessing`` spawn child runs its parent's main script as ``__mp_main__`` before it
reads the process object its parent writes into its pipe. Here that run waits until the
FIFO named by ``MCP_SKEW_TEST_HOLD`` is opened for writing, so each worker's start is held
under way, its parent's write unfinished (when what it writes is more than a pipe holds).
"""

import os

if __name__ == "__mp_main__":
    with open(os.environ["MCP_SKEW_TEST_HOLD"], encoding="ascii") as hold:
        hold.read()
elif __name__ == "__main__":
    from mcp_skew.cli import run

    run()
