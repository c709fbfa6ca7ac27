"""Matching labels to rungs by meaning, and the ground-truth evaluation of a session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sim_helpers import TOPIC, persona

from interview_cli.config.schemas import Methodology, Rung
from interview_cli.config.yamlio import load_yaml
from interview_cli.session.schema import (
    AnswerRecord,
    ClosingRecord,
    ConceptSnapshot,
    DecisionRecord,
    DeltaRecord,
    MethodologySnapshot,
    QuestionRecord,
    SessionFile,
    SessionSettings,
    TurnRecord,
)
from interview_cli.simulation.evaluation import (
    complaints,
    evaluate_session,
    repeated_questions,
    stored_summary_chains,
    summarise,
)
from interview_cli.simulation.respondents.matching import (
    MATCH_THRESHOLD,
    PersonaBeliefs,
    RungRef,
    label_score,
)

CASES = load_yaml(
    (Path(__file__).parent / "data" / "meaning_cases.yaml").read_text(encoding="utf-8")
)
RUNGS = {name: Rung.model_validate(rung) for name, rung in CASES["rungs"].items()}


def _names(rung: str, label: str) -> bool:
    """Whether the evaluation counts a node labelled ``label`` as naming ``rung``: it names
    that rung best of all the rungs (as ``match_nodes`` assigns it), at the threshold."""
    beliefs = PersonaBeliefs(persona(beliefs={"t": [list(RUNGS.values())]}), "t", methodology=None)
    found = beliefs.locate(label)
    return found is not None and found[0].rung == RUNGS[rung]


@pytest.mark.parametrize(("rung", "label"), CASES["names"], ids=lambda v: str(v))
def test_a_label_in_the_persons_words_names_the_rung(rung: str, label: str) -> None:
    assert _names(rung, label)


@pytest.mark.parametrize(("rung", "label"), CASES["does_not_name"], ids=lambda v: str(v))
def test_a_label_that_is_not_the_meaning_does_not(rung: str, label: str) -> None:
    assert not _names(rung, label)


def test_the_respondent_knows_what_it_misspoke_and_the_evaluation_never_counts_it() -> None:
    beliefs = PersonaBeliefs(persona(beliefs={"t": [list(RUNGS.values())]}), "t", None)
    label = "the motor does all the pedalling"
    assert beliefs.locate(label) is None
    found = beliefs.locate(label, misspoken=True)
    assert found is not None and isinstance(found[0], RungRef) and found[0].index == 0


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Noise-cancelling", "noise cancelling"),  # case and punctuation
        ("not stressed", "not stressed before trips"),  # the extractor cut a clause break
        ("stay", "stay in while cycling"),  # ... even down to the first word
        ("feel peace of mind", "peace of mind"),  # ... or added a frame word
        ("feel deserve nice things", "feel I deserve nice things"),  # ... or dropped a pronoun
        ("rich life", "a full and rich life"),  # a contiguous part keeping most of it
        ("high ankle", "the high ankle that laces up tight"),  # the start, past its "the"
        ("still going", "it's still going after fifteen years"),  # ... or past "it's", "I"
        ("not off the grid", "I'm not off the grid if it smashes"),
        # the rung's negation is in the tail the extractor cut, not in what the label keeps
        ("spins fourteen hundred", "it spins fourteen hundred without walking across the floor"),
        ("less on the line", "less on the line and no tumble dryer bill"),
        # two letters swapped by its own keys: dev persona asked about "the puprle ones" it
        # had typed, and answered "what do you mean by 'puprle ones'?"
        ("puprle ones", "the purple ones"),
    ],
)
def test_labels_that_name_the_rung_match(a: str, b: str) -> None:
    assert label_score(a, b) >= MATCH_THRESHOLD


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("stressed before trips", "not stressed before trips"),  # negation must agree
        ("stressed", "I'm not stressed before trips"),  # ... when it stands before the part
        ("walking across the floor", "spins fourteen hundred without walking across the floor"),
        ("money", "money I don't have to spend"),  # too little kept to tell the negation's
        ("safe", "safe without a helmet"),
        ("battery", "long battery life works with my phone"),  # too small a part
        ("feel relaxed", "feel in control of my time"),
        ("self-respect", "social recognition"),
        ("ankle", "the high ankle that laces up tight"),  # not its start, too small a part
    ],
)
def test_other_labels_do_not(a: str, b: str) -> None:
    assert label_score(a, b) < MATCH_THRESHOLD


def test_locate_uses_sayings_and_prefers_the_best_rung(mec: Methodology) -> None:
    ladders = PersonaBeliefs(persona(), TOPIC.id, mec)
    found = ladders.locate("getting things done")
    assert found is not None and (found[0].ladder, found[0].index) == (0, 3)
    assert ladders.locate("vinyl collection") is None
    assert ladders.has_full_ladder  # the first ladder ends in a terminal value
    assert not ladders.is_full(ladders.ladders[1])


def _node(
    node_id: str, label: str, node_type: str, aliases: tuple[str, ...] = ()
) -> dict[str, Any]:
    return {"id": node_id, "label": label, "node_type": node_type, "aliases": list(aliases)}


def _session(graph: dict[str, Any], questions: list[tuple[str, str]]) -> SessionFile:
    turns = [
        TurnRecord(
            turn_number=i + 1,
            status="complete",
            question=QuestionRecord(text=text),
            answer=AnswerRecord(utterance_id=f"u{i + 1:03d}", text="..."),
            decision=DecisionRecord(strategy=strategy),
        )
        for i, (text, strategy) in enumerate(questions)
    ]
    return SessionFile(
        id="s",
        status="completed",
        termination_reason="Maximum turns reached",
        concept=ConceptSnapshot(
            id=TOPIC.id, name="C", objective="o", methodology="means_end_chain"
        ),
        methodology=MethodologySnapshot(name="means_end_chain", version="1", sha256=""),
        settings=SessionSettings(max_turns=5),
        turns=turns,
        graph=graph,
        closing=ClosingRecord(question="Anything else?"),
    )


def test_evaluation_against_the_hidden_ladders(mec: Methodology) -> None:
    graph = {
        "nodes": [
            _node("n1", "ANC", "attribute", ("noise cancelling",)),
            _node("n2", "can focus on the train", "functional_consequence"),
            _node("n3", "feel in control", "psychosocial_consequence"),  # cut short: still it
            _node("n4", "getting things done", "instrumental_value"),  # a saying
            _node("n5", "self-respect", "terminal_value"),
            _node("n6", "long battery", "attribute"),
            _node("n7", "vinyl records", "attribute"),  # a tangent
        ],
        "links": [
            {"source": "n1", "target": "n2", "relations": {}},
            {"source": "n4", "target": "n5", "relations": {}},
            {"source": "n2", "target": "n3", "relations": {}},
        ],
    }
    questions = [
        ("What matters to you about headphones?", "deepen"),
        ('Why does "noise cancelling" matter to you?', "deepen"),
        ('Why does "noise cancelling" matter to you?', "clarify"),  # asked twice
        ("Is there anything else that is important to you?", "explore"),
    ]
    e = evaluate_session(_session(graph, questions), persona(), mec)
    assert e["ground_truth"] is True and e["rungs_total"] == 8
    assert e["rungs_elicited"] == 6  # the whole first ladder and the battery
    assert e["rung_recall"] == pytest.approx(6 / 8, abs=1e-4)
    assert e["ladder_recall"] == pytest.approx((5 / 5 + 1 / 3) / 2, abs=1e-4)
    assert e["ladders_opened"] == 2
    assert e["ladders_completed"] == 1
    assert e["terminal_reached"] is True and e["terminal_reachable"] is True
    assert e["graph_terminal_nodes"] == 1
    assert (e["linked_pairs"], e["pairs_total"]) == (3, 6)  # not productive <- in control
    assert e["unmatched_nodes"] == ["vinyl records"]
    assert e["strategy_mix"] == {"clarify": 1, "deepen": 2, "explore": 1}
    assert [r["turn"] for r in e["repeated_questions"]] == [3]
    assert e["turns"] == 4 and e["termination_reason"] == "Maximum turns reached"


def test_the_closing_summary_is_scored_against_what_the_person_holds(mec: Methodology) -> None:
    session = _session({"nodes": [], "links": []}, [])
    assert session.closing is not None
    session.closing.summary = "\n".join(
        [
            "- the ANC → can focus on the train → getting things done",  # their ladder, upwards
            "- feel relaxed → long battery",  # a reason of theirs read upside down
            "- noise cancelling → feel relaxed",  # two rungs, of two ladders
            "- long battery → size of it",  # a filler read back as the reason
            "- also: self-respect; vinyl records",
        ]
    )
    session.closing.question = (
        'Let me check I\'ve understood: "the ANC" matters to you because "can focus on the '
        'train", which in the end matters because "getting things done"; and "feel relaxed" '
        'because of "long battery". Is that right?'
    )
    e = evaluate_session(session, persona(), mec)
    assert (e["check_back_links"], e["check_back_links_sound"]) == (3, 2)
    assert (e["summary_concepts"], e["summary_true"]) == (9, 7)
    assert (e["summary_links"], e["summary_links_sound"]) == (5, 2)
    row = summarise("all", [e, e])
    assert (row.summary_concepts, row.summary_links_sound) == (18, 4)


def test_an_interview_with_no_closing_summary_has_no_summary_figures(mec: Methodology) -> None:
    e = evaluate_session(_session({"nodes": [], "links": []}, []), persona(), mec)
    assert "summary_concepts" not in e and summarise("p", [e]).summary_links == 0


def test_stored_summary_chains_read_the_stored_summary() -> None:
    summary = "- a → b → c\n- d\n- also: e; f\nnot a line of it"
    assert stored_summary_chains(summary) == [["a", "b", "c"], ["d"], ["e"], ["f"]]


def test_no_terminal_without_a_full_ladder(mec: Methodology) -> None:
    short = persona(beliefs={TOPIC.id: [["cheap", "save money"]]})
    e = evaluate_session(_session({"nodes": [], "links": []}, []), short, mec)
    assert e["terminal_reached"] is None and e["terminal_reachable"] is False
    assert e["rung_recall"] == 0.0


def test_a_persona_without_beliefs_about_the_topic_is_not_scored(mec: Methodology) -> None:
    other = persona(beliefs={"oat_milk_mec": persona().beliefs[TOPIC.id]})
    graph = {"nodes": [_node("n1", "noise cancelling", "attribute")], "links": []}
    e = evaluate_session(_session(graph, [("What matters?", "deepen")]), other, mec)
    assert e["ground_truth"] is False
    assert "rung_recall" not in e and "rungs_total" not in e  # no figure, rather than 0
    assert e["turns"] == 1 and e["strategy_mix"] == {"deepen": 1}


def test_unscored_interviews_stay_out_of_the_recall_figures() -> None:
    scored = {
        "ground_truth": True,
        "rung_recall": 0.5,
        "ladder_recall": 0.5,
        "ladders_completed": 1,
        "terminal_reached": None,
        "terminal_reachable": False,
        "linked_pairs": 1,
        "pairs_total": 2,
        "turns": 10,
        "repeated_questions": [],
        "cost_usd": 0.0,
        "termination_reason": "saturated",
        "strategy_mix": {"deepen": 2},
    }
    unscored = {
        "ground_truth": False,
        "turns": 4,
        "repeated_questions": [],
        "cost_usd": 0.0,
        "termination_reason": "little_to_say",
        "strategy_mix": {"explore": 4},
        "ended_early": True,
    }
    row = summarise("all", [scored, unscored])
    assert row.interviews == 2 and row.unscored == 1
    assert row.rung_recall == 0.5 and row.link_rate == 0.5  # the scored one only
    assert row.mean_turns == 7.0 and row.strategy_mix == {"deepen": 2, "explore": 4}
    alone = summarise("p", [unscored])
    assert alone.unscored == 1 and alone.rung_recall is None and alone.early_unopened == 0


def test_repeated_questions_use_the_similarity_threshold() -> None:
    qs = [
        "Why does the battery matter to you?",
        "What else matters to you?",
        "Why does the battery matter to you?",
        "why does the battery matter to you",
    ]
    assert [r["turn"] for r in repeated_questions(qs, 0.85)] == [3, 4]
    assert repeated_questions(qs[:2], 0.85) == []


def test_summary_rows_average_completed_interviews() -> None:
    def ev(recall: float, terminal: bool | None, reachable: bool) -> dict[str, Any]:
        return {
            "rung_recall": recall,
            "ladder_recall": recall,
            "ladders_completed": 1,
            "terminal_reached": terminal,
            "terminal_reachable": reachable,
            "linked_pairs": 1,
            "pairs_total": 4,
            "turns": 10,
            "repeated_questions": [],
            "cost_usd": 0.5,
            "termination_reason": "saturated",
            "strategy_mix": {"deepen": 3},
        }

    row = summarise(
        "p", [ev(0.5, True, True), ev(1.0, False, True), ev(0.2, None, False)], failed=1
    )
    assert row.interviews == 3 and row.failed == 1
    assert row.rung_recall == pytest.approx(0.5667, abs=1e-4)
    assert row.terminal_rate == 0.5 and row.terminal_eligible == 2
    assert row.link_rate == 0.25 and row.cost_usd == 1.5
    assert row.strategy_mix == {"deepen": 9} and row.termination == {"saturated": 3}
    empty = summarise("none", [])
    assert empty.rung_recall is None and empty.interviews == 0


# -- metrics that see what a respondent notices ------------------------------------------------


def _asked(
    steps: list[tuple[str | None, str | None, str, list[str]]], max_turns: int = 10
) -> SessionFile:
    """A session from (focus node id, strategy, answer, labels its answer added) per turn."""
    graph = {"nodes": [], "links": []}
    session = _session(graph, [(f"q{i}", s or "explore") for i, (_, s, _, _) in enumerate(steps)])
    for turn, (focus, strategy, answer, added) in zip(session.turns, steps, strict=True):
        turn.question = QuestionRecord(
            text=turn.question.text, strategy=strategy, focus_node_id=focus, focus_label=focus
        )
        turn.answer = AnswerRecord(utterance_id=turn.answer.utterance_id, text=answer)
        turn.graph_delta = DeltaRecord.model_validate(
            {"nodes_added": [{"node_id": a, "label": a, "node_type": "x"} for a in added]}
        )
    session.settings = SessionSettings(max_turns=max_turns)
    return session


def test_reasks_count_the_same_node_and_strategy_with_no_new_rung_between(
    mec: Methodology,
) -> None:
    steps = [
        (None, None, "I really like the noise cancelling.", ["noise cancelling"]),
        ("nc", "deepen", "I'm not sure.", []),
        ("nc", "deepen", "Hmm.", []),  # re-ask of turn 2
        ("nc", "clarify", "I mean the ANC.", []),  # another strategy: not one
        # asked again with nothing new since turn 3: a re-ask, even though it pays off
        ("nc", "deepen", "Because I can focus on the train.", ["can focus on the train"]),
        ("nc", "deepen", "Hmm.", []),  # turn 5 said a new rung: no re-ask
        ("nc", "deepen", "Still nothing.", ["vinyl records"]),  # a node, but no rung: is one
        ("bat", "deepen", "Nothing.", []),
    ]
    e = evaluate_session(_asked(steps), persona(), mec)
    reasks = e["same_node_reasks"]
    assert [(r["turn"], r["like_turn"]) for r in reasks] == [(3, 2), (5, 3), (7, 6)]
    assert reasks[0] == {"turn": 3, "like_turn": 2, "focus": "nc", "strategy": "deepen"}
    # node-less questions are never re-asks
    opens = [(None, "explore", "Nothing else.", [])] * 3
    assert evaluate_session(_asked(opens), persona(), mec)["same_node_reasks"] == []


@pytest.mark.parametrize(
    ("answer", "complains"),
    [
        ("Because more time with my kids, again.", True),
        ("Like I said, the battery.", True),
        ("As I said before, that's it.", True),
        ("I already told you that.", True),
        ("I've already said that.", True),
        ("I said that already. Can we move on?", True),
        ("We covered that.", True),
        ("We've been over this.", True),
        ("I told you before, it's the fit.", True),
        ("Because I can focus on the train.", False),
        ("I said to my wife they were too expensive.", False),
        ("I'm not sure, I'd have to think about it.", False),
        ("They were already in the box.", False),
        # "again" as a remark, not as part of what the respondent says
        ("Again?", True),
        ("Why are you asking me that again?", True),
        ("This again. It's the fit.", True),
        ("Because Bao hasn't had crystals again.", False),
        ("Because he can keep up on the long walks again.", False),
        # dev 7: a caterer who will not write menus at home too was counted as complaining
        ("I write menus all day, I'm not doing it again at home, basically.", False),
        ("What do you mean by 'not doing it again at home'?", False),
        ("Not all that again, please.", True),
        # asking what a word means, or correcting oneself, is no complaint
        ("Sorry, what do you mean by 'duck'? I'm not sure I said that.", False),
        ("I don't think I said that, no.", False),
        ("Sorry, I said it comes on a Sunday earlier, I meant it turns up on Mondays.", False),
        ("Actually, scratch that - when I said it's a vegan box, I meant the veggie one.", False),
        ("Wait, not the app. I meant the card.", False),
        # ... but a complaint stays one beside them
        ("Like I said, I meant the battery.", True),
        ("I'm not sure I said that. I already told you, it's the fit.", True),
    ],
)
def test_complaints_are_answers_saying_it_was_asked_before(answer: str, complains: bool) -> None:
    assert bool(complaints([answer])) is complains


def test_complaints_ladders_unopened_and_early_end_in_the_evaluation(mec: Methodology) -> None:
    steps = [
        (None, None, "I really like the noise cancelling.", ["noise cancelling"]),
        ("nc", "deepen", "I'm not sure.", []),
        ("nc", "deepen", "I already told you that.", []),
    ]
    e = evaluate_session(_asked(steps, max_turns=10), persona(), mec)
    assert e["complaints"] == [{"turn": 3, "answer": "I already told you that."}]
    assert e["ladders_opened"] == 0 and e["ladders_unopened"] == 2  # the graph is empty
    assert e["ended_early"] is True
    assert evaluate_session(_asked(steps, max_turns=3), persona(), mec)["ended_early"] is False


def test_summary_rows_report_how_the_interviews_asked() -> None:
    def ev(**kw: Any) -> dict[str, Any]:
        base: dict[str, Any] = {
            "rung_recall": 0.5,
            "ladder_recall": 0.5,
            "ladders_completed": 0,
            "terminal_reached": None,
            "terminal_reachable": False,
            "linked_pairs": 0,
            "pairs_total": 2,
            "turns": 8,
            "repeated_questions": [],
            "cost_usd": 0.0,
            "termination_reason": "saturated",
            "strategy_mix": {},
            "same_node_reasks": [],
            "complaints": [],
            "ladders_unopened": 0,
            "ended_early": False,
        }
        return {**base, **kw}

    reask = {"turn": 3, "like_turn": 2, "focus": "n1", "strategy": "deepen"}
    row = summarise(
        "p",
        [
            ev(
                same_node_reasks=[reask, reask],
                complaints=[{"turn": 3}],
                terminal_reached=True,
                strategy_mix={"deepen": 6, "clarify": 2},
            ),
            ev(
                terminal_reached=False,
                ladders_unopened=2,
                ended_early=True,
                strategy_mix={"deepen": 2},
            ),
            ev(ladders_unopened=1, ended_early=False, strategy_mix={"explore": 10}),
            ev(terminal_reached=False, ladders_unopened=0, ended_early=True),
        ],
    )
    assert row.same_node_reasks == 2 and row.reasks_per_interview == 0.5
    assert row.complaints == 1
    # a persona that cannot reach its end still counts when it has a full ladder
    assert row.terminal_full == 3 and row.terminal_full_rate == pytest.approx(1 / 3, abs=1e-4)
    assert row.terminal_rate is None  # ... unlike the "reachable" rate
    assert row.unopened_at_stop == 0.75
    assert row.early_unopened == 1  # only the one that stopped early AND left a ladder
    assert row.strategy_share == {"clarify": 0.1, "deepen": 0.4, "explore": 0.5}
    old = summarise("old", [{k: v for k, v in ev().items() if k != "ladders_unopened"}])
    assert old.unopened_at_stop is None and old.same_node_reasks == 0


def test_two_ladders_that_meet_in_one_value_both_count_it(mec: Methodology) -> None:
    meeting = persona(
        beliefs={
            TOPIC.id: [
                ["noise cancelling", "can focus on the train", "peace of mind"],
                ["long battery", "no charging on trips", "peace of mind"],
            ]
        }
    )
    graph = {"nodes": [_node("n1", "peace of mind", "terminal_value")], "links": []}
    e = evaluate_session(_session(graph, [("Why?", "deepen")]), meeting, mec)
    assert e["rungs_elicited"] == 2 and e["rung_recall"] == pytest.approx(2 / 6, abs=1e-4)
    assert [ladder["elicited"] for ladder in e["ladders"]] == [["peace of mind"]] * 2
