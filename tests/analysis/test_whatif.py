"""replay --methodology: decisions other weights would have made, counterfactual turns marked."""

from __future__ import annotations

from pathlib import Path

import pytest

from interview_cli.analysis.replay.whatif import what_if
from interview_cli.analysis.sources import read_session, snapshot_methodology
from interview_cli.config.schemas import Methodology
from interview_cli.session.schema import SessionFile


def with_bonus(session: SessionFile, strategy: str, bonus: float) -> Methodology:
    """The session's own methodology with ``bonus`` added to ``strategy`` in every phase."""
    data = snapshot_methodology(session).model_dump(mode="json")
    for phase in ("early", "mid", "late"):
        data["phases"][phase]["phase_bonuses"][strategy] = bonus
    return Methodology.model_validate(data)


def closing_name(session: SessionFile) -> str:
    return next(
        s.name for s in snapshot_methodology(session).strategies if s.generates_closing_question
    )


def test_the_same_methodology_changes_nothing(produced: dict[str, Path]) -> None:
    session = read_session(produced["mec-cooperative"])
    result = what_if(session, snapshot_methodology(session))
    assert result.changed == [] and result.first_change is None
    assert len(result.rows) == session.turn_count
    assert not any(r.counterfactual for r in result.rows)
    for row in result.rows:
        assert row.alternative == row.recorded
    assert result.reached == result.rows and result.not_reached == []


def test_a_strategy_made_impossible_changes_its_turns_and_marks_later_ones(
    produced: dict[str, Path],
) -> None:
    session = read_session(produced["mec-scripted"])
    recorded = [t.decision.strategy for t in session.completed_turns if t.decision]
    assert "deepen" in recorded
    first = recorded.index("deepen") + 1
    result = what_if(session, with_bonus(session, "deepen", -100.0), other_label="no deepen")
    assert result.other_methodology == "no deepen"
    assert result.first_change == first
    changed = {r.turn: r for r in result.changed}
    assert first in changed
    row = changed[first]
    assert row.recorded.strategy == "deepen" and row.alternative is not None
    assert row.alternative.strategy != "deepen"
    assert not row.counterfactual  # the history up to here is the recorded one
    # the recorded move still scores under the new weights, 100 lower than the recorded score
    assert row.recorded_score_under_other is not None and row.recorded.score is not None
    assert row.recorded_score_under_other < row.recorded.score - 50
    assert all(r.counterfactual for r in result.rows if r.turn > first)
    assert not any(r.counterfactual for r in result.rows if r.turn <= first)
    assert all(r.alternative is None or r.alternative.strategy != "deepen" for r in result.rows)
    data = result.to_dict()
    assert data["first_change"] == first and first in data["changed_turns"]


def test_other_weights_that_close_at_once_end_the_what_if_interview(
    produced: dict[str, Path],
) -> None:
    session = read_session(produced["mec-cooperative"])
    other = with_bonus(session, closing_name(session), 100.0)
    # The stop guard would defer an early closing; switched off, the bonus closes at once.
    data = other.model_dump(mode="json")
    data["tuning"]["saturation"]["probe_attributes_before_stop"] = False
    for strategy in data["strategies"]:
        strategy["breadth_check"] = False
    result = what_if(session, Methodology.model_validate(data))
    assert result.ended_at == 1 and result.first_change == 1
    first = result.rows[0]
    assert first.alternative is not None and not first.alternative.should_continue
    assert "would end the interview here" in first.note
    rest = result.rows[1:]
    assert len(rest) == session.turn_count - 1
    # never reached is not "decided differently": counted apart, in not_reached only
    assert all(r.alternative is None and r.counterfactual and not r.differs for r in rest)
    assert "not reached" in rest[0].note
    assert result.changed == [first] and result.reached == [first]
    assert result.not_reached == rest


def test_other_weights_that_would_go_on_are_noted_at_the_recorded_end(
    produced: dict[str, Path],
) -> None:
    session = read_session(produced["oat-sceptical"])
    last = session.completed_turns[-1]
    if last.continuation is None or last.continuation.should_continue:
        pytest.skip("this session did not end on the core's own decision")
    if last.continuation.reason != "Closing strategy selected":
        pytest.skip("this session ended on another rule than the closing strategy")
    result = what_if(session, with_bonus(session, closing_name(session), -100.0))
    row = result.rows[-1]
    assert row.alternative is not None and row.alternative.should_continue
    assert "would go on" in row.note
    assert result.ended_at is None


def test_a_methodology_of_the_same_name_without_a_relation_the_graph_uses_is_refused(
    produced: dict[str, Path],
) -> None:
    from interview_cli.analysis.replay.whatif import ontology_mismatch
    from interview_cli.errors import UsageError

    session = read_session(produced["mec-scripted"])
    used = {r for link in session.graph["links"] for r in link["relations"]}
    assert "leads_to" in used
    data = snapshot_methodology(session).model_dump(mode="json")
    data["ontology"]["edges"] = [e for e in data["ontology"]["edges"] if e["name"] != "leads_to"]
    other = Methodology.model_validate(data)
    assert other.name == session.methodology.name  # same name, same node types
    problem = ontology_mismatch(session, other)
    assert problem is not None and "lacks the relation(s) leads_to" in problem
    with pytest.raises(UsageError, match="lacks the relation"):
        what_if(session, other)
    # a relation the methodology knows but this graph never used may go (a tuned copy)
    data = snapshot_methodology(session).model_dump(mode="json")
    unused = [e for e in data["ontology"]["edges"] if e["name"] not in used]
    if unused:
        data["ontology"]["edges"].remove(unused[0])
        assert ontology_mismatch(session, Methodology.model_validate(data)) is None
