"""Jobs-to-be-Done and Critical Incident follow what the respondent offers, through
``advance()`` with the shipped methodologies: a second incident told in passing is followed
once the first is reconstructed."""

from __future__ import annotations

from moderation_fixtures import shipped, told

from interview_cli.core.turn import CoreState


def test_critical_incident_follows_a_second_incident_once_the_first_is_reconstructed() -> None:
    ci = shipped("critical_incident")
    s, out = told(CoreState(), ci, [("ordered ear cushions online", "situation", 0)])
    # the first story goes on; a second, bad one is mentioned in passing
    s, out = told(
        s,
        ci,
        [
            ("wrong size arrived twice", "incident", -1),
            ("chat agent closed the chat on me", "incident", -1),
        ],
        [("ordered ear cushions online", "wrong size arrived twice", "sets_context")],
    )
    assert out.decision.selected.label != "chat agent closed the chat on me"
    s, out = told(
        s,
        ci,
        [("rang the support line", "action", 0)],
        [("wrong size arrived twice", "rang the support line", "prompted")],
    )
    assert out.decision.selected.label != "chat agent closed the chat on me"
    s, out = told(
        s,
        ci,
        [("right size sent by express", "outcome", 1)],
        [("rang the support line", "right size sent by express", "resulted_in")],
    )
    assert out.decision.selected.label != "chat agent closed the chat on me"
    # the first episode reaches its lesson: now the other one is told
    s, out = told(
        s,
        ci,
        [("phoning beats chat", "learning", 0)],
        [("right size sent by express", "phoning beats chat", "taught")],
    )
    chosen = out.decision.selected
    assert (chosen.strategy, chosen.label) == (
        "deepen_narrative",
        "chat agent closed the chat on me",
    )
    signals = out.decision.node_signals[chosen.node_id]
    assert signals["meta.node.ladder_start"] == "due"


def test_jobs_to_be_done_takes_up_a_switch_and_a_worry_instead_of_digging_on() -> None:
    jtbd = shipped("jobs_to_be_done")
    s, out = told(CoreState(), jtbd, [("make coffee at home", "gain_point", 1)])
    assert out.decision.selected.strategy == "dig_motivation"
    # "I used to buy a flat white at the station, but I switched to a machine at home"
    s, out = told(
        s,
        jtbd,
        [
            ("used to buy a flat white", "solution_approach", 0),
            ("switched to a machine", "solution_approach", 0),
            ("queue made me late", "pain_point", -1),
        ],
        [("used to buy a flat white", "queue made me late", "creates")],
    )
    switch = out.decision.selected
    assert switch.strategy == "probe_switch"
    assert switch.label in {"used to buy a flat white", "switched to a machine"}
    assert out.decision.node_signals[switch.node_id]["graph.node.rival"] == "fresh"
    # "I was worried the machine would be a faff to clean": a worry to hear out, not the
    # same switch asked again from its other side
    s, out = told(s, jtbd, [("worried it would be a faff to clean", "emotional_job", -1)])
    chosen = out.decision.selected
    assert (chosen.strategy, chosen.label) == (
        "probe_anxieties",
        "worried it would be a faff to clean",
    )
    other = next(c for c in out.decision.candidates if c.strategy == "probe_switch")
    assert other.final_score < out.decision.selected_candidate.final_score


def test_jobs_to_be_done_without_a_switch_or_a_worry_digs_for_the_job() -> None:
    jtbd = shipped("jobs_to_be_done")
    s, out = told(CoreState(), jtbd, [("weekday mornings before the train", "job_context", 0)])
    s, out = told(s, jtbd, [("bean-to-cup machine", "solution_approach", 0)])
    assert out.decision.selected.strategy not in {"probe_switch", "probe_anxieties"}
    # two ways of doing it said together, but no switch between them: nothing to probe
    s, out = told(
        s,
        jtbd,
        [("stand-up at nine", "solution_approach", 0), ("the train", "solution_approach", 0)],
    )
    assert out.decision.selected.strategy != "probe_switch"
    assert (
        out.decision.node_signals.get(out.decision.selected.node_id or "", {}).get(
            "graph.node.rival", "none"
        )
        == "none"
    )


def test_jobs_to_be_done_takes_up_a_near_switch_told_alone() -> None:
    jtbd = shipped("jobs_to_be_done")
    s, out = told(CoreState(), jtbd, [("pod machine", "solution_approach", 0)])
    # "just better coffee than instant, it was free. I nearly went for a bean-to-cup last
    # year but £400+ for a coffee machine, no chance" (a typed interview dug on past it)
    s, out = told(
        s,
        jtbd,
        [
            ("better coffee than instant", "job_statement", 1),
            ("nearly went for a bean-to-cup", "solution_approach", 0),
        ],
        [("pod machine", "better coffee than instant", "hired_for")],
    )
    chosen = out.decision.selected
    assert (chosen.strategy, chosen.label) == ("probe_switch", "nearly went for a bean-to-cup")
    assert out.decision.node_signals[chosen.node_id]["graph.node.rival"] == "fresh"
