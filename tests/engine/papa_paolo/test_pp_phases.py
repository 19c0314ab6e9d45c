"""Papà Paolo's phases: one record each (phases.py), read everywhere through ``Phase``.

Every phase has its record (its rules' number, who acts, its moves, how a move plays, what the rules
then do alone), its steps (stepper.py) and its record's reading (record.py), and a move of another
phase is refused as such. No module of the engine or of its renderer compares a phase with a word:
they compare with ``Phase`` (an AST check that fails on a bare string)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pp_testkit import game

from engine.papa_paolo import record, stepper
from engine.papa_paolo.errors import MalformedInput
from engine.papa_paolo.moves import Bid, Settle
from engine.papa_paolo.phases import RULES, Acting, Phase

ROOT = Path(__file__).resolve().parents[3]
PHASE_WORDS = {p.value for p in Phase}


def test_every_phase_has_one_record_and_its_steps():
    assert set(RULES) == set(Phase)
    assert [p.number for p in Phase] == [1, 3, 3, 3, 4, 5, 6]
    assert {p for p in Phase if p.rules.acting is Acting.IN_TURN} == {Phase.PLACE, Phase.BID}
    assert {p for p in Phase if p.rules.acting is Acting.AT_ONCE} == {Phase.DELIVER}
    assert Phase.OVER.rules.moves == () and Phase.OVER.rules.acting is Acting.NOBODY
    played = set(Phase) - {Phase.OVER}
    assert set(stepper.STEPS) == played
    assert all(p.rules.moves for p in played)
    for phase in played:                  # each phase's record reading knows its moves
        with pytest.raises(MalformedInput):
            record.parse_move(phase, {"no": "such move"})
    with pytest.raises(MalformedInput):
        record.parse_move(Phase.OVER, {"stairs": [0, 1]})


def test_a_move_of_another_phase_is_refused():
    g = game(2)
    assert g.phase is Phase.PLACE
    seat = g.to_act()[0]
    for move in (Bid((0, 1)), Settle("IY1")):
        with pytest.raises(MalformedInput, match="not a move of phase place"):
            g.play(seat, move)


def _bare_phase_comparisons(path: Path, root: Path = ROOT) -> list[str]:
    """Comparisons of something named ``phase`` with a phase's word, in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = any(isinstance(s, ast.Name) and "phase" in s.id or isinstance(s, ast.Attribute) and "phase" in s.attr
                    for s in sides)
        words = [c for s in sides for c in ast.walk(s)
                 if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value in PHASE_WORDS]
        if named and words:
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_phase_is_compared_with_a_word():
    paths = [*sorted((ROOT / "engine" / "papa_paolo").glob("*.py")),
             *sorted((ROOT / "renderers" / "papa_paolo").glob("*.py"))]
    assert len(paths) > 20
    assert [hit for path in paths for hit in _bare_phase_comparisons(path)] == []


def test_the_check_finds_a_phase_compared_with_a_word(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('if view.phase == "deliver" or phase in ("bid", "late"):\n    pass\n'
                   'if view.phase == Phase.DELIVER or step.verb == "place":\n    pass\n', encoding="utf-8")
    assert _bare_phase_comparisons(bad, tmp_path) == ["bad.py:1", "bad.py:1"]
