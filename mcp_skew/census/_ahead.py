"""Installs ahead of the probes: a few threads of the census process build the environments
of the jobs the workers will run next, so that both CPUs probe while environments arrive.

An install is mostly waiting (on the registry, on the disk); a probe is CPU. Each job's
worker installs as before, and finds the environment ready (or waits on its lock while a
thread here finishes it: :mod:`mcp_skew.realpeers._envs` locks each environment), so the
rows are those of a census without this. The threads stay a bounded distance ahead: job
``i`` (in the order the jobs are given to the workers) is started only while ``i`` is below
the count of rows stored plus ``lead``, so a stopped census has installed little that it did
not probe. The threads are daemons: a census that ends, or is stopped, does not wait for
them, and the installers they started end with the census (:mod:`mcp_skew.wire._procs`),
leaving unfinished environments that the next census builds again.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Final

from ..errors import UsageError
from ._listing import Job
from ._work import Settings, install_ahead

__all__ = ["MOST_INSTALL_JOBS", "InstallAhead", "parse_install_jobs"]

#: The most ``census --install-jobs`` takes: each install is a process (uv, pip, npm) here.
MOST_INSTALL_JOBS: Final = 32


def parse_install_jobs(text: str) -> int:
    """``--install-jobs N``: 0 to :data:`MOST_INSTALL_JOBS` in ASCII digits; UsageError if not."""
    if not (text.isascii() and text.isdigit() and len(text) <= 3
            and int(text) <= MOST_INSTALL_JOBS):
        raise UsageError(f"--install-jobs {text[:40]!r}: expected a count of installs at once "
                         f"ahead of the probes, 0 (none ahead) to {MOST_INSTALL_JOBS}")
    return int(text)


class InstallAhead:
    """``threads`` daemon threads installing ``jobs`` in order, at most ``lead`` jobs past
    the rows stored (:meth:`stored` counts them); :meth:`stop` starts no more."""

    def __init__(self, jobs: Sequence[Job], settings: Settings, *, threads: int,
                 lead: int) -> None:
        self.jobs, self.settings, self.lead = list(jobs), settings, max(1, lead)
        self.threads = [threading.Thread(target=self._loop, name=f"census-install-{i}",
                                         daemon=True) for i in range(max(0, threads))]
        self.ready: list[Job] = []  #: jobs whose environment a thread here found or built
        self._cond = threading.Condition()
        self._next = self._done = 0
        self._stopped = False

    def start(self) -> InstallAhead:
        for thread in self.threads:
            thread.start()
        return self

    def stored(self) -> None:
        """One more row was stored: the threads may go one job further."""
        with self._cond:
            self._done += 1
            self._cond.notify_all()

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()

    def may_start(self) -> bool:
        """Whether the next job may start now: it is within ``lead`` of the rows stored."""
        return self._next < self._done + self.lead

    def _take(self) -> Job | None:
        with self._cond:
            while not self._stopped and self._next < len(self.jobs) and not self.may_start():
                self._cond.wait()
            if self._stopped or self._next >= len(self.jobs):
                return None
            self._next += 1
            return self.jobs[self._next - 1]

    def _loop(self) -> None:
        while (job := self._take()) is not None:
            if install_ahead(job, self.settings):
                with self._cond:
                    self.ready.append(job)
