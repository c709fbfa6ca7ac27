"""Corrections revise and steers are obeyed, through ``advance()`` with the shipped laddering
methodology: "sorry, I said four days, it's two" supersedes the earlier node, which is never
a focus again; "can we go back to the charging?" makes the node it names the next focus,
with the reason in the decision, unless the node ran dry or the interview ends."""

from __future__ import annotations

from typing import Any

from moderation_fixtures import CONCEPT, assessment, mec

from interview_cli.config.schemas import Methodology
from interview_cli.core.decide.decision import Decision, DecisionInputs
from interview_cli.core.graph.update import GraphDelta
from interview_cli.core.models import ExtractedEdge, ExtractedNode, Extraction
from interview_cli.core.turn import CoreState, TurnInput, TurnOutcome, advance, content_of

A, F = "attribute", "functional_consequence"


def node(label: str, kind: str = A, corrects: str | None = None) -> ExtractedNode:
    return ExtractedNode(label=label, node_type=kind, quote=label, corrects=corrects)


def turn(
    state: CoreState,
    nodes: list[ExtractedNode],
    *,
    steer: str | None = None,
    retracted: tuple[str, ...] = (),
    max_turns: int = 20,
    edges: tuple[tuple[str, str], ...] = (),
    methodology: Methodology | None = None,
    **extra: Any,
) -> tuple[CoreState, TurnOutcome]:
    links = [ExtractedEdge(source=a, target=b, relation="leads_to") for a, b in edges]
    extraction = Extraction(
        extractable=bool(nodes), nodes=nodes, edges=links, steer=steer, retracted=list(retracted)
    )
    return advance(
        state,
        TurnInput(
            methodology=methodology or mec(),
            concept=CONCEPT,
            extraction=extraction,
            assessment=assessment(**extra),
            utterance_id=f"u{state.turn_count + 1}",
            max_turns=max_turns,
        ),
    )


def ids(state: CoreState) -> dict[str, str]:
    return {n.label: n.id for n in state.graph.nodes()}


def test_a_correction_supersedes_the_earlier_node_which_is_never_a_focus_again() -> None:
    s, _ = turn(CoreState(), [node("charge every four days"), node("no charging worry", F)])
    s, out = turn(s, [node("charge every two days", corrects="charge every four days")])
    old, new = ids(s)["charge every four days"], ids(s)["charge every two days"]
    assert s.graph.node(old).superseded_by == new
    (record,) = out.delta.superseded
    assert (record.node_id, record.by, record.label) == (old, new, "charge every four days")
    for _ in range(4):
        assert all(c.node_id != old for c in out.decision.candidates)
        assert out.decision.selected.node_id != old
        s, out = turn(s, [], answer_kind="dont_know", knowledge_ceiling="exploratory")


def test_a_correction_that_names_no_earlier_node_is_refused_with_its_reason() -> None:
    s, _ = turn(CoreState(), [node("light frame")])
    s, out = turn(s, [node("carbon fork", corrects="steel wheels")])
    assert out.delta.superseded == [] and "carbon fork" in ids(s)
    (refused,) = out.delta.rejected
    assert "corrects 'steel wheels'" in refused.reason and "not in the graph" in refused.reason


def test_values_recorded_before_corrections_and_steers_dump_as_they_did() -> None:
    # a replay compares recorded extractions and deltas with new ones: no new keys when unused
    assert "corrects" not in node("light frame").model_dump()
    assert "steer" not in Extraction().model_dump()
    assert "retracted" not in Extraction().model_dump()
    assert "superseded" not in GraphDelta().model_dump()
    assert "retracted" not in GraphDelta().model_dump()
    inputs = DecisionInputs(
        methodology=mec(), tracker=CoreState().tracker, turn_number=1, max_turns=5
    )
    assert "steer" not in inputs.to_dict()


def _three_rungs() -> CoreState:
    s, _ = turn(CoreState(), [node("big lock"), node("bike not stolen", F)])
    s, _ = turn(s, [node("bright lights"), node("seen in the dark", F)])
    s, _ = turn(s, [node("feel safe", "psychosocial_consequence")])
    return s


def test_a_steer_makes_the_node_it_names_the_next_focus_with_the_reason_recorded() -> None:
    s = _three_rungs()
    s, out = turn(s, [], steer="big lock")
    assert out.decision.selected.node_id == ids(s)["big lock"]
    assert out.decision.steer is not None and "asked to go back to 'big lock'" in out.decision.steer
    assert any("the respondent asked to go back to 'big lock'" in r for r in out.decision.rationale)
    # the decision and its inputs keep the request, for /why and replay
    again = Decision.from_dict(out.decision.to_dict())
    assert again.steer == out.decision.steer


def test_a_steer_to_a_corrected_node_goes_to_what_corrected_it() -> None:
    s, _ = turn(CoreState(), [node("charge every four days"), node("never worry", F)])
    s, _ = turn(s, [node("charge every two days", corrects="charge every four days")])
    s, _ = turn(s, [node("noise cancelling"), node("switch off", F)])
    s, out = turn(s, [], steer="charge every four days")
    assert out.decision.selected.node_id == ids(s)["charge every two days"]


def test_a_steer_is_not_taken_when_the_interview_ends() -> None:
    s = _three_rungs()
    s, out = turn(s, [], steer="big lock", max_turns=4)
    assert not out.continuation.should_continue
    assert out.decision.steer is not None and "the interview ends" in out.decision.steer


def test_a_steer_is_not_taken_on_a_node_that_ran_dry() -> None:
    # (a third node: the lock's first steer leaves the node it answered, ``steer_leaves_focus``)
    s, out = turn(CoreState(), [node("big lock"), node("gears"), node("basket")])
    lock = ids(s)["big lock"]
    for _ in range(2):  # asked about the lock (the second time because they asked to) ...
        if out.decision.selected.node_id != lock:
            s, out = turn(s, [], steer="big lock")
        assert out.decision.selected.node_id == lock
        # ... and nothing came of it
        s, out = turn(s, [], answer_kind="dont_know", knowledge_ceiling="exploratory")
    assert s.tracker.states[lock].fruitless_probes == mec().tuning.vetoes.fruitless_probe_limit
    s, out = turn(s, [], steer="big lock")
    assert out.decision.selected.node_id != lock
    assert out.decision.steer is not None and "exhausted" in out.decision.steer


def test_a_steer_away_leaves_the_node_asked_about_as_a_move_on_does() -> None:
    # round 209: "Not really no. Can we go back to the printer firm?" answered a question on
    # "phone them through to the council", which was asked about again four questions later
    s = _three_rungs()
    s, out = turn(s, [node("charging at work"), node("keep to budget", F)])
    asked = out.decision.selected.node_id
    assert asked is not None and asked != ids(s)["big lock"]
    s, out = turn(s, [], steer="big lock")
    assert out.decision.selected.node_id == ids(s)["big lock"]
    state = s.tracker.states[asked]
    assert state.closed_by_respondent is not None and state.probes[-1].outcome == "move_on"
    for _ in range(4):
        s, out = turn(s, [], answer_kind="dont_know", knowledge_ceiling="exploratory")
        assert out.decision.selected.node_id != asked
    # (what this answer says matters most is no leaving: "Keeping them light is the thing"
    # goes on from the node asked about, from the review)
    s = _three_rungs()
    s, out = turn(s, [node("charging at work"), node("keep to budget", F)])
    s, out = turn(s, [node("keeping them light")], steer="keeping them light")
    assert s.tracker.states[asked].closed_by_respondent is None
    # (off, as in a session recorded before it: the node is left only after empty answers)
    m = mec()
    vetoes = m.tuning.vetoes.model_copy(update={"steer_leaves_focus": False})
    mec_off = m.model_copy(update={"tuning": m.tuning.model_copy(update={"vetoes": vetoes})})
    s = _three_rungs()
    s, out = turn(s, [node("charging at work"), node("keep to budget", F)], methodology=mec_off)
    s, out = turn(s, [], steer="big lock", methodology=mec_off)
    assert s.tracker.states[asked].closed_by_respondent is None


def test_a_steer_that_names_no_node_is_refused_with_its_reason() -> None:
    s = _three_rungs()
    s, out = turn(s, [], steer="the weather")
    assert out.decision.steer is None
    assert any("names no node" in r.reason for r in out.delta.rejected)


def test_a_safety_reading_drops_the_request_with_the_rest() -> None:
    extraction = Extraction(extractable=False, steer="big lock")
    kept = content_of(extraction, assessment(answer_kind="move_on"))
    assert kept.steer == "big lock"  # "can we go back to the lock?" is obeyed, whatever its kind
    assert content_of(extraction, assessment(safety="distress")).steer is None


def test_what_is_taken_back_is_disowned_and_never_the_next_focus() -> None:
    s, out = turn(CoreState(), [node("brakes squeak"), node("motor for the hill")])
    brakes = ids(s)["brakes squeak"]
    # "the brakes thing was a joke": nothing else said, still taken in
    s, out = turn(s, [], retracted=("brakes squeak",))
    (record,) = out.delta.retracted
    assert (record.node_id, record.label) == (brakes, "brakes squeak")
    assert s.graph.node(brakes).confidence == 0.0 and "brakes squeak" in ids(s)
    for _ in range(4):
        assert out.decision.selected.node_id != brakes
        s, out = turn(s, [], answer_kind="dont_know", knowledge_ceiling="exploratory")


def test_what_is_said_again_after_it_was_taken_back_counts_again() -> None:
    s, _ = turn(CoreState(), [node("brakes squeak")])
    s, _ = turn(s, [], retracted=("brakes squeak",))
    s, _ = turn(s, [node("brakes squeak")])
    assert s.graph.node(ids(s)["brakes squeak"]).confidence > 0.5


def test_taking_back_what_is_not_in_the_graph_is_refused_with_its_reason() -> None:
    s, _ = turn(CoreState(), [node("light frame")])
    s, out = turn(s, [], retracted=("steel wheels",))
    assert out.delta.retracted == []
    (refused,) = out.delta.rejected
    assert "takes back 'steel wheels'" in refused.reason


def test_a_reply_read_as_distress_takes_nothing_back() -> None:
    extraction = Extraction(extractable=False, retracted=["brakes squeak"])
    assert content_of(extraction, assessment(safety="distress")).retracted == []
    assert content_of(extraction, assessment()).retracted == ["brakes squeak"]


def test_what_a_non_answer_asks_to_talk_about_is_kept_and_asked_next() -> None:
    # "It doesn't, I said. Can we go back to the independence thing?": read as "already
    # said", the reply adds nothing but the thing it asks for, which is asked about next
    s, _ = turn(CoreState(), [node("annoying app"), node("sore back", F)])
    s, out = turn(
        s,
        [node("real answer", F), node("independence thing")],
        steer="independence thing",
        answer_kind="already_said",
    )
    assert "independence thing" in ids(s) and "real answer" not in ids(s)
    assert out.decision.selected.node_id == ids(s)["independence thing"]


def test_taking_back_a_label_disowns_every_node_of_it_whatever_its_type() -> None:
    s, _ = turn(CoreState(), [node("fridge"), node("fridge", F), node("big drum")])
    fridges = [n.id for n in s.graph.nodes() if n.label == "fridge"]
    assert len(fridges) == 2
    s, out = turn(s, [], retracted=("fridge",))
    assert {r.node_id for r in out.delta.retracted} == set(fridges)
    assert all(s.graph.node(i).confidence == 0.0 for i in fridges)


def _without_following(m: Methodology) -> Methodology:
    vetoes = m.tuning.vetoes.model_copy(update={"steer_follows_what_was_said": False})
    return m.model_copy(update={"tuning": m.tuning.model_copy(update={"vetoes": vetoes})})


def test_a_steer_that_says_what_its_node_leads_to_is_asked_on_what_it_said() -> None:
    # "Going back to the big lock, it means the bike's still there in the morning": asked
    # why of the lock again, they would be asked what they just answered
    s = _three_rungs()
    said = [node("bike still there in the morning", F)]
    link = (("big lock", "bike still there in the morning"),)
    after, out = turn(s, said, steer="big lock", edges=link)
    assert out.decision.selected.node_id == ids(after)["bike still there in the morning"]
    assert out.decision.steer is not None
    assert "went back to 'big lock' and said it leads to" in out.decision.steer
    again = Decision.from_dict(out.decision.to_dict())
    assert again.steer == out.decision.steer
    # off (sessions recorded before it), the node gone back to is asked on, as it was
    off = _without_following(mec())
    after, out = turn(s, said, steer="big lock", edges=link, methodology=off)
    assert out.decision.selected.node_id == ids(after)["big lock"]


def test_a_steer_with_nothing_said_of_its_node_is_asked_on_that_node() -> None:
    s = _three_rungs()
    s, out = turn(s, [node("grey colour")], steer="big lock")  # said, but not of the lock
    assert out.decision.selected.node_id == ids(s)["big lock"]


def test_a_steer_is_not_followed_to_a_node_no_higher_than_it() -> None:
    # "Going back to the big lock, it is big because it is a D-lock": a cause said of it, not
    # what it leads to; the lock is asked about
    s = _three_rungs()
    said = [node("d-lock")]
    after, out = turn(s, said, steer="big lock", edges=(("big lock", "d-lock"),))
    assert out.decision.selected.node_id == ids(after)["big lock"]


def test_a_steer_is_not_followed_to_a_node_read_with_doubt() -> None:
    # dev3's teacher: "it's more that I was brought up you dinnae waste ... I tell a lie, it was
    # seventy-nine, I mind because it was the same as the gas bill" linked the two, and the
    # gas bill (how they know the figure, read with doubt) was asked about over its veto
    s = _three_rungs()
    doubtful = node("same as the gas bill", F).model_copy(update={"confidence": 0.5})
    link = (("big lock", "same as the gas bill"),)
    after, out = turn(s, [doubtful], steer="big lock", edges=link)
    assert out.decision.selected.node_id == ids(after)["big lock"]
    # (said surely, it is followed, as before)
    sure = node("same as the gas bill", F).model_copy(update={"confidence": 0.7})
    after, out = turn(s, [sure], steer="big lock", edges=link)
    assert out.decision.selected.node_id == ids(after)["same as the gas bill"]
