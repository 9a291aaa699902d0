"""A large matrix keeps what many cells say once: shared labels and values, no copy to show it."""

from __future__ import annotations

import json
import pickle
from dataclasses import FrozenInstanceError, replace

import pytest

from mcp_skew.matrix import Cell, Matrix, build_matrix, render
from mcp_skew.matrix._build import FORMAT_VERSION
from mcp_skew.matrix._cell import sharing
from mcp_skew.matrix._shown import shown
from mcp_skew.peers import resolve_peer
from mcp_skew.peers._sets import sweep_peers
from mcp_skew.simulator import run


def _matrix(keep: bool = False) -> Matrix:
    clients = [resolve_peer(s, "client") for s in ("legacy:2025-11-25", "2025-06-18",
                                                  "legacy:2025-11-25")]
    servers = [resolve_peer(s, "server") for s in ("legacy:2025-11-25", "legacy:2025-06-18",
                                                  "legacy:2025-11-25+silent")]
    return build_matrix(clients, servers, keep_transcripts=keep)


def test_cells_share_labels_and_equal_values() -> None:
    matrix = _matrix()
    first, _, third = matrix.cells
    # one label object per row and per column, however many cells name it
    assert all(cell.client is first[0].client for cell in first)
    assert all(row[1].server is matrix.cells[0][1].server for row in matrix.cells)
    assert first[0].client is matrix.clients[0].label
    # the same client twice: equal cells, and every value they hold is the same object
    for a, b in zip(first, third, strict=True):
        assert a == b
        for name in ("revision", "path", "reason", "steps", "features_lost", "findings",
                     "features_kept"):
            assert getattr(a, name) is getattr(b, name), name


def test_sharing_changes_no_output() -> None:
    """The values shared are equal to those each cell would hold on its own."""
    matrix = _matrix(keep=True)
    again = _matrix(keep=True)
    assert render(matrix, "json") == render(again, "json")
    for _, _, cell in matrix.pairs():
        assert cell.path == tuple(cell.to_dict()["path"])


def test_shown_keeps_a_plain_matrix_as_it_is() -> None:
    matrix = _matrix()
    assert shown(matrix) is matrix


def test_shown_copies_only_the_cells_it_changes() -> None:
    matrix = _matrix()
    bad = matrix.cells[1][2].replace(reason="a reason with \x1b[31m in it")
    rows = [list(row) for row in matrix.cells]
    rows[1][2] = bad
    changed = replace(matrix, cells=tuple(map(tuple, rows)))
    out = shown(changed)
    assert out is not changed
    assert out.cells[0] is changed.cells[0] and out.cells[2] is changed.cells[2]
    assert out.cells[1][0] is changed.cells[1][0]
    assert out.cells[1][2].reason == "a reason with \\u001b[31m in it"
    assert out.cells[1][2].path == bad.path


def test_shown_looks_into_shared_values() -> None:
    """A value many cells share is checked once, but an unsafe one is still escaped."""
    matrix = build_matrix(sweep_peers("client", ())[:3], sweep_peers("server", ())[:3],
                          keep_transcripts=False)
    cell = matrix.cells[0][0]
    unsafe = (*cell.path, "step \x07")
    rows = [[c.replace(path=unsafe) if j == 1 else c for j, c in enumerate(row)]
            for row in matrix.cells]
    out = shown(replace(matrix, cells=tuple(map(tuple, rows))))
    assert all(row[1].path[-1] == "step \\u0007" for row in out.cells)
    assert all(row[0] is orig[0] for row, orig in zip(out.cells, matrix.cells, strict=True))


def test_cells_that_say_the_same_share_one_said() -> None:
    """A cell is its labels, its transcript and a reference to what it says: equal ones are
    one object however many cells say it (a sweep's million cells say a few hundred things)."""
    matrix = build_matrix(sweep_peers("client", ())[:6], sweep_peers("server", ())[:6],
                          keep_transcripts=False)
    cells = [cell for _, _, cell in matrix.pairs()]
    said = {id(cell.said): cell.said for cell in cells}
    assert len(said) == len(set(said.values())) < len(cells)
    for cell in cells:  # the fields read what the cell says
        assert (cell.status, cell.revision, cell.path, cell.findings) == (
            cell.said.status, cell.said.revision, cell.said.path, cell.said.findings)


def test_sharing_keeps_an_int_and_an_equal_float_apart() -> None:
    """1 == 1.0, but the JSON writes them apart: a time of 1.0 ms does not take 1's said."""
    client, server = resolve_peer("2025-11-25", "client"), resolve_peer("2025-11-25", "server")
    record = run(client, server)
    assert type(record.t_first_useful_ms) is int
    floated = run(client, server)
    floated.t_first_useful_ms = float(record.t_first_useful_ms)  # type: ignore[assignment]
    share = sharing()
    whole = Cell.of(record, transcript=False, share=share)
    other = Cell.of(floated, transcript=False, share=share)
    assert whole.said == other.said and whole.said is not other.said
    assert json.dumps(other.to_dict()["t_first_useful_ms"]).endswith(".0")
    assert Cell.of(run(client, server), transcript=False, share=share).said is whole.said


def test_a_cell_is_frozen_and_compared_like_the_dataclass_it_was() -> None:
    matrix = _matrix(keep=True)
    cell = matrix.cells[0][1]
    with pytest.raises(FrozenInstanceError):
        cell.reason = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field 'colour'"):
        cell.replace(colour="red")
    changed = cell.replace(reason="changed", client="another")
    assert (changed.reason, changed.client, changed.server, changed.path) == (
        "changed", "another", cell.server, cell.path)
    assert changed != cell and cell.replace() == cell and cell.replace() is not cell
    assert Cell.from_dict(cell.to_dict(), FORMAT_VERSION) == cell
    assert pickle.loads(pickle.dumps(cell)) == cell
    lean = cell.replace(transcript=None)
    assert hash(lean) == hash(lean.replace()) and lean != cell
    assert repr(lean).startswith(f"Cell(client={cell.client!r}, server={cell.server!r}, "
                                 f"status={cell.status!r}, revision=")
    assert f"failed_step=None, transcript=None, failure={cell.failure!r}, " in repr(lean)
