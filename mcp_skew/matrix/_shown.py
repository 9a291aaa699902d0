"""Every text from outside a matrix holds, made safe to show: the renderers' one sanitizer.

A matrix carries text that came from outside mcp-skew: labels and notes of ``@FILE``
peers, server names and versions a census read from package registries (``--servers
@census.sqlite``), and, in a document read back with ``--from``, every string of every
cell (reasons, steps, findings, transcripts). :func:`shown` returns the matrix with each
such string passed through :func:`mcp_skew._output.terminal_safe`: ESC, the other C0 and
C1 controls, DEL, lone surrogates and the bidirectional overrides are written as
``\\uXXXX``, shown and never obeyed. Every format for people (``text``, ``grid``,
``markdown``, ``github``, ``html``, and ``csv``, ``junit``) renders the shown matrix, so
the only escape sequences in their output are the renderer's own colours (``--color``);
``json`` renders the matrix as it is (``--from`` reads it back byte for byte).

Applying it twice is applying it once: its output holds nothing it changes.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Final

from .._output import terminal_safe
from ..simulator import StepResult
from ..simulator.findings import Finding
from ._build import Axis, Matrix
from ._cell import Cell, RealRun

__all__ = ["shown"]


def _text(value: str | None) -> Any:
    return None if value is None else terminal_safe(value)


def _json(value: Any) -> Any:
    """A JSON value with every string and key shown (a transcript record)."""
    if isinstance(value, str):
        return terminal_safe(value)
    if isinstance(value, dict):
        return {terminal_safe(str(k)): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def _axis(axis: Axis) -> Axis:
    return Axis(terminal_safe(axis.label), terminal_safe(axis.notation))


def _real(real: RealRun | None) -> RealRun | None:
    if real is None:
        return None
    return replace(real, status=_text(real.status), revision=_text(real.revision),
                   detail=terminal_safe(real.detail))


def _finding(finding: Finding) -> Finding:
    """A finding as a document gave it: its code and severity too may be any text."""
    return replace(finding, code=_json(finding.code), severity=_json(finding.severity),
                   message=terminal_safe(finding.message), cite=terminal_safe(finding.cite))


def _cell(cell: Cell) -> Cell:
    return cell.replace(
        client=terminal_safe(cell.client), server=terminal_safe(cell.server),
        revision=_text(cell.revision), era=_text(cell.era),
        path=tuple(terminal_safe(step) for step in cell.path), mark=terminal_safe(cell.mark),
        reason=terminal_safe(cell.reason), scenario=_text(cell.scenario),
        steps=tuple(StepResult(terminal_safe(s.name), s.ok, terminal_safe(s.expected),
                               terminal_safe(s.got)) for s in cell.steps),
        features_lost=tuple(terminal_safe(f) for f in cell.features_lost),
        findings=tuple(map(_finding, cell.findings)),
        transport=terminal_safe(cell.transport), failed_step=_text(cell.failed_step),
        transcript=None if cell.transcript is None else tuple(
            _json(record) for record in cell.transcript),
        failure=_text(cell.failure),
        features_kept=tuple(terminal_safe(f) for f in cell.features_kept),
        client_loses=tuple(terminal_safe(f) for f in cell.client_loses),
        server_loses=tuple(terminal_safe(f) for f in cell.server_loses),
        real=_real(cell.real))


def _safe(value: Any) -> bool:
    """Whether showing ``value`` (a cell's field) changes nothing: no string in it has a
    character :func:`terminal_safe` escapes. False for anything it does not know."""
    if value is None or isinstance(value, bool | int | float):
        return True
    if isinstance(value, str):
        return terminal_safe(value) == value
    if isinstance(value, tuple):
        return all(map(_safe, value))
    if isinstance(value, StepResult):
        return _safe((value.name, value.expected, value.got))
    if isinstance(value, Finding):
        return _safe((value.code, value.severity, value.message, value.cite))
    return False


#: How many of a matrix's shared values :func:`shown` remembers as safe (by identity).
_MEMO: Final = 1 << 16


def _plain_cells(matrix: Matrix) -> Iterator[bool]:
    """For each cell in reading order, whether showing it changes nothing.

    A built matrix's cells share their tuples (``Cell.of``'s ``share``): each is looked
    at once, remembered by identity while the matrix holds it (a bounded memo: a document
    read back shares nothing)."""
    known: dict[int, bool] = {}
    for row in matrix.cells:
        for cell in row:
            if cell.transcript is not None or cell.real is not None:
                yield False
                continue
            plain = _safe((cell.client, cell.server, cell.revision, cell.era, cell.mark,
                           cell.reason, cell.scenario, cell.transport, cell.failed_step,
                           cell.failure))
            for part in (cell.path, cell.steps, cell.features_lost, cell.findings,
                         cell.features_kept, cell.client_loses, cell.server_loses):
                if not plain:
                    break
                found = known.get(id(part))
                if found is None:
                    if len(known) >= _MEMO:
                        known.clear()
                    found = known[id(part)] = _safe(part)
                plain = found
            yield plain


def shown(matrix: Matrix) -> Matrix:
    """``matrix`` with every string from outside made safe to show (module docstring).

    A cell with nothing to escape is kept as it is, not copied (a matrix of a million
    cells would be held twice), and so is a matrix with nothing to escape anywhere."""
    plain = _plain_cells(matrix)
    cells = tuple(_row(row, plain) for row in matrix.cells)
    clients, servers = tuple(map(_axis, matrix.clients)), tuple(map(_axis, matrix.servers))
    changed = replace(matrix, scenario=terminal_safe(matrix.scenario), clients=clients,
                      servers=servers, cells=cells, version=terminal_safe(matrix.version),
                      transport=terminal_safe(matrix.transport))
    if (changed.scenario, changed.version, changed.transport, clients, servers) == (
            matrix.scenario, matrix.version, matrix.transport, matrix.clients,
            matrix.servers) and all(map(operator.is_, cells, matrix.cells)):
        return matrix
    return changed


def _row(row: tuple[Cell, ...], plain: Iterator[bool]) -> tuple[Cell, ...]:
    """The row shown: the same tuple when none of its cells changes."""
    cells = [cell if next(plain) else _cell(cell) for cell in row]
    return row if all(map(operator.is_, cells, row)) else tuple(cells)
