"""The closing summary and the end screen's completed chains follow chain relations only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from interview_cli.config.library import Library
from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.core.graph.records import Node
from interview_cli.core.state import compute_graph_state
from interview_cli.llm.offline.asking.phrases import run_on
from interview_cli.pipeline.summary import (
    CheckBack,
    _within_none,
    learned_summary,
    said_as,
    summary_chains,
)

ROOT = Path(__file__).resolve().parents[2]


def test_a_contrast_is_no_step_of_a_ladder() -> None:
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = KnowledgeGraph()
    add = lambda label, kind: graph.add_node(label, kind, methodology=meth, turn=1).id  # noqa: E731
    wired = add("wired", "attribute")
    wireless = add("wireless", "attribute")
    free = add("move freely", "functional_consequence")
    calm = add("peace of mind", "terminal_value")
    for source, target, relation in (
        (wireless, free, "leads_to"),
        (free, calm, "leads_to"),
        (wired, wireless, "contrasts_with"),
    ):
        graph.add_relation(source, target, relation, methodology=meth, turn=1)

    assert summary_chains(graph, meth, 4) == [["wireless", "move freely", "peace of mind"]]
    assert learned_summary(graph, meth) == "- wireless → move freely → peace of mind"
    # "wired" reaches the value only through the contrast: one complete chain of two attributes.
    state = compute_graph_state(graph, meth, 1)
    assert state.chain_completion_ratio == 0.5


def _saying(answers: list[str], quote: str = "") -> Callable[[str], str | None]:
    """``said_as(answers)`` for a concept labelled so, read from ``quote`` (or nothing)."""
    say = said_as(answers)
    provenance = ({"utterance_id": "u1", "quote": quote, "turn": 1},) if quote else ()

    def of(label: str) -> str | None:
        return say(Node("n1", label, "attribute", (), provenance, 0, 1.0, 1, None, None))  # type: ignore[arg-type]

    return of


def _graph(meth: object, nodes: list[tuple[str, str]], edges: list[tuple[int, int, str]]) -> Any:
    graph = KnowledgeGraph()
    ids = [graph.add_node(label, kind, methodology=meth, turn=1).id for label, kind in nodes]  # type: ignore[arg-type]
    for source, target, relation in edges:
        graph.add_relation(ids[source], ids[target], relation, methodology=meth, turn=1)  # type: ignore[arg-type]
    return graph


def test_every_stated_value_and_every_loose_concept_is_in_the_summary() -> None:
    # One attribute laddered to two values, a second attribute, and a complaint said in
    # passing: the summary must not keep only one chain per starting concept.
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = _graph(
        meth,
        [
            ("noise cancelling", "attribute"),
            ("focus on the train", "functional_consequence"),
            ("time to myself", "terminal_value"),
            ("get my reading done", "functional_consequence"),
            ("being productive", "instrumental_value"),
            ("get warm on the ears", "attribute"),
        ],
        [(0, 1, "leads_to"), (1, 2, "leads_to"), (1, 3, "leads_to"), (3, 4, "leads_to")],
    )
    assert learned_summary(graph, meth) == (
        "- noise cancelling → focus on the train → time to myself\n"
        "- noise cancelling → focus on the train → get my reading done → being productive\n"
        "- also: get warm on the ears"
    )


def test_a_correction_shows_as_corrected() -> None:
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = _graph(
        meth,
        [
            ("good sound", "attribute"),
            ("enjoy my music", "psychosocial_consequence"),
            ("fits properly", "attribute"),
        ],
        [(0, 1, "leads_to"), (2, 0, "revises")],
    )
    assert learned_summary(graph, meth) == "- fits properly → enjoy my music"


def test_a_correction_that_also_joins_the_chain_is_shown_once() -> None:
    # The closing answer: "it's less that I'm nicer to people, more that I'm calmer in myself"
    # read as a revision and a rung: two ends that read the same once corrected.
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = _graph(
        meth,
        [
            ("noise cancelling", "attribute"),
            ("don't arrive wound up", "psychosocial_consequence"),
            ("nicer to people", "psychosocial_consequence"),
            ("calmer in myself", "psychosocial_consequence"),
        ],
        [(0, 1, "leads_to"), (1, 2, "leads_to"), (3, 2, "revises"), (1, 3, "leads_to")],
    )
    assert learned_summary(graph, meth) == (
        "- noise cancelling → don't arrive wound up → calmer in myself"
    )


def test_the_way_to_a_job_is_told_before_what_gets_in_its_way() -> None:
    # A JTBD morning: the cafe coffee is fuel for being awake on the train; skipping it made
    # them useless by 10. The ladder to the job goes through the fuel; the pain joins it.
    meth = Library.discover(cwd=ROOT).methodology("jobs_to_be_done").value
    graph = KnowledgeGraph()

    def add(label: str, kind: str, stance: int = 0) -> str:
        return graph.add_node(label, kind, methodology=meth, turn=1, stance=stance).id

    cafe = add("coffee at the station cafe", "solution_approach")
    fuel = add("fuel up for the commute", "job_statement")
    awake = add("awake for emails on the train", "job_statement", 1)
    skip = add("cutting out the cafe coffee", "solution_approach", -1)
    useless = add("useless by 10", "pain_point", -1)
    for source, target, relation in (
        (cafe, fuel, "hired_for"),
        (fuel, awake, "serves"),
        (skip, useless, "creates"),
        (useless, awake, "hinders"),
    ):
        graph.add_relation(source, target, relation, methodology=meth, turn=1)
    assert learned_summary(graph, meth) == (
        "- coffee at the station cafe → fuel up for the commute → awake for emails on the train\n"
        "- cutting out the cafe coffee → useless by 10 → awake for emails on the train"
    )


def test_a_concept_read_with_doubt_is_not_read_back() -> None:
    # "I dont work there haha" read as a step of the ladder: the reader held it below the
    # confidence a focus needs, so the recap skips it as the questions did.
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    least = meth.tuning.vetoes.min_focus_confidence
    graph = KnowledgeGraph()
    add = graph.add_node
    hill = add("the big hill", "attribute", methodology=meth, turn=1).id
    joke = add(
        "dont work there",
        "functional_consequence",
        methodology=meth,
        turn=1,
        confidence=least - 0.1,
    ).id
    fresh = add("arrive fresh", "functional_consequence", methodology=meth, turn=2).id
    aside = add("number 14", "attribute", methodology=meth, turn=2, confidence=least - 0.1).id
    for source, target in ((hill, joke), (joke, fresh)):
        graph.add_relation(source, target, "leads_to", methodology=meth, turn=2)
    assert aside and summary_chains(graph, meth, 4) == [["the big hill", "arrive fresh"]]
    assert "dont work there" not in learned_summary(graph, meth)
    assert "number 14" not in learned_summary(graph, meth)


def _laddered() -> tuple[Methodology, KnowledgeGraph, Callable[[str, str, int], str]]:
    """The laddering methodology, an empty graph and a way to add a node to it by label."""
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = KnowledgeGraph()

    def add(label: str, kind: str, turn: int) -> str:
        return graph.add_node(label, kind, methodology=meth, turn=turn).id

    return meth, graph, add


def test_a_check_back_answered_no_keeps_what_it_said_and_drops_what_it_denied() -> None:
    # Maureen: "helping our Kayleigh out" leading to "Darren split"? - "no love, that's all
    # wrong ... the big drum means I can do the boys' kits": the kept summary read the
    # denied chain out again and put her own words last
    meth, graph, add = _laddered()

    helping = add("helping our kayleigh out", "functional_consequence", 3)
    split = add("darren split", "psychosocial_consequence", 3)
    quiet = add("quiet", "attribute", 5)
    peace = add("no rows with next door", "functional_consequence", 5)
    drum = add("big drum", "attribute", 15)
    kits = add("can do the boys' kits", "functional_consequence", 15)
    for source, target, turn in ((helping, split, 3), (quiet, peace, 5), (drum, kits, 15)):
        graph.add_relation(source, target, "leads_to", methodology=meth, turn=turn)
    question = (
        'Let me check I\'ve understood: "helping our Kayleigh out" leading to "Darren split". '
        "Is that right?"
    )
    denied = CheckBack(
        question, "no love, that's all wrong. the big drum means I can do the boys' kits", 15
    )
    kept = learned_summary(graph, meth, checked=denied)
    assert kept.splitlines()[0] == "- big drum → can do the boys' kits"
    assert "darren split" not in kept and "quiet → no rows with next door" in kept
    # agreed to, or restated in the answer, a chain read back stays
    for agreeing in ("yes, that's about it", "No, I think that covers it.", "nope, nothing else"):
        # a "no" that answers "did I miss anything?" agrees
        agreed = CheckBack(question, agreeing, 15)
        kept = learned_summary(graph, meth, checked=agreed)
        assert "helping our kayleigh out → darren split" in kept, agreeing
    restated = CheckBack(question, "not quite, helping our Kayleigh out is since Darren split", 15)
    assert "darren split" in learned_summary(graph, meth, checked=restated)


def test_a_concept_is_listed_once_whatever_it_corrected() -> None:
    # Tomasz: "also: first chat; first chat; first chat; first chat" - the successor of every
    # node it corrected, read back once for each, and again after the chain that held it
    meth, graph, add = _laddered()

    call = add("call", "attribute", 2)
    chat = add("online chat thing", "attribute", 2)
    first = add("first chat", "attribute", 2)
    bot = add("bot kept sending me same link", "functional_consequence", 5)
    lone = add("dont bother with virgin", "attribute", 9)
    graph.supersede(call, by=first)
    graph.supersede(chat, by=first)
    graph.add_relation(first, bot, "leads_to", methodology=meth, turn=5)
    summary = learned_summary(graph, meth)
    assert summary.count("first chat") == 1, summary
    assert "dont bother with virgin" in summary and lone


def test_a_check_back_answered_partly_puts_what_the_closing_answer_said_first() -> None:
    # Marek (round 12): "log the miles" and "don't trust the gauge", said at the close, were
    # cut off the end of the list; Siobhan's "Partly. ..." was not read as a no at all
    meth, graph, add = _laddered()
    for i in range(8):
        add(f"early thing {i}", "attribute", 2 + i)
    gauge = add("don't trust the gauge", "attribute", 15)
    question = 'Here is what I heard: "early thing 0" leading to "early thing 1". Is that fair?'
    for answer in ("no. I don't trust the gauge now", "Partly. I don't trust the gauge now"):
        kept = learned_summary(graph, meth, checked=CheckBack(question, answer, 15))
        assert "don't trust the gauge" in kept, (answer, kept)
    assert gauge


def test_after_a_yes_but_what_the_closing_answer_said_leads_too() -> None:
    # Round 27 (Dev): "yeah thats right i guess, but its a pretty small bit of it. the main
    # thing is protein per pot ..." - his main points, read at the close, were cut off the end
    # of an "also" list of eight earlier fragments
    meth, graph, add = _laddered()
    for i in range(8):
        add(f"early thing {i}", "attribute", 2 + i)
    protein = add("protein per pot", "attribute", 15)
    chalky = add("worry the pea taste being chalky", "psychosocial_consequence", 15)
    question = 'Let me check: "early thing 0" leading to "early thing 1". Is that right?'
    answer = "yeah thats right i guess, but the main thing is protein per pot"
    lines = learned_summary(graph, meth, checked=CheckBack(question, answer, 15)).splitlines()
    assert lines[:2] == ["- protein per pot", "- worry the pea taste being chalky"], lines
    # a plain yes that says nothing of its own changes nothing
    plain = learned_summary(graph, meth, checked=CheckBack(question, "yes spot on", 16))
    assert plain == learned_summary(graph, meth) and protein and chalky


def test_after_a_no_what_the_closing_answer_said_leads_and_what_it_linked_is_meant() -> None:
    # Round 13: Desmond's "stay on my own" came last in an "also" list after every old chain;
    # Aisha's "the actual point is recovering properly so i dont get injured" lost its first
    # rung, read as an aside earlier, and left "dont get injured" loose at the end
    meth, graph, add = _laddered()
    doubt = meth.tuning.vetoes.min_focus_confidence - 0.1
    lock = add("lock stiff", "attribute", 3)
    check = add("always go back to check", "functional_consequence", 3)
    graph.add_relation(lock, check, "leads_to", methodology=meth, turn=3)
    recovering = graph.add_node(
        "recovering properly", "attribute", methodology=meth, turn=6, confidence=doubt
    ).id
    own = add("stay on my own", "terminal_value", 15)
    injured = add("dont get injured", "functional_consequence", 15)
    graph.add_relation(recovering, injured, "leads_to", methodology=meth, turn=15)
    question = 'Here is what I heard: "fingers" leading to "cramping". Is that fair?'
    answer = (
        "not really. the actual point is recovering properly so i dont get injured. stay on my own"
    )
    lines = learned_summary(graph, meth, checked=CheckBack(question, answer, 15)).splitlines()
    assert lines[:2] == ["- recovering properly → dont get injured", "- stay on my own"], lines
    assert "- lock stiff → always go back to check" in lines and own


def test_a_concept_cut_from_its_clause_is_read_back_whole() -> None:
    # rounds 163-165's summaries read "I dont want Mostyn to go the way", "I trust the vet on
    # what keeps him", "staying sharp all night and still", "a wall that thinks its cleverer"
    say = _saying(
        [
            "Well sort of, they are company, but its more that I dont want Mostyn to go the way "
            "Tomos did, and I trust the vet on what keeps him well.",
            "it's about staying sharp all night and still getting to sleep after, hence the "
            "flask and nowt after 3.",
            "fuming tbh, felt like I was talking to a wall, and a wall that thinks its cleverer "
            "than you.",
        ]
    )
    assert say("trust vet on what keeps him") == "I trust the vet on what keeps him well"
    assert say("staying sharp and still") == (
        "it's about staying sharp all night and still getting to sleep after"
    )
    assert say("wall that thinks its cleverer") == "a wall that thinks its cleverer than you"
    # (not past a word that joins two clauses: from the review)
    but = _saying(["the price was awful but it makes me happy"])
    assert but("it makes me") == "it makes me happy"
    # (never a request to go back: round 176's summary chained "Can we go back to the cold
    # coffee thing")
    # (a long clause to where a condition starts: round 176 read "on days off I get caffeine")
    long = [
        "Other thing I wanted to say, on days off I get caffeine headache by lunch if I sleep "
        "late and skip coffee."
    ]
    assert run_on("days off get caffeine", long, 12) == (
        "on days off I get caffeine headache by lunch"
    )
    back = _saying(["Can we go back to the cold coffee thing, that is real problem for me"])
    assert back("cold coffee thing") != "Can we go back to the cold coffee thing"
    # (a clause longer than a summary line: not at all)
    assert say("dont want mostyn to go way") is None


def test_the_summary_reads_each_concept_back_in_their_words_or_not_at_all() -> None:
    # round 19/21: the panel after the close read back "notice whether remember how" and
    # "not being stuck about 100 night"; a testers' 2 of 4
    say = _saying(
        [
            "And the battery, I never charge it. The price was fine.",
            "what I notice is whether they remember how I like it, to be fair",
            "not being stuck was about the 100 night trial and the money",
        ]
    )
    assert say("never charge") == "I never charge it"  # their clean phrase
    # broken off mid-phrase, or with some of their words left out: their whole clause
    assert say("notice whether remember how") == (
        "what I notice is whether they remember how I like it"
    )
    assert say("not being stuck about 100 night") == (
        "not being stuck was about the 100 night trial and the money"
    )
    assert say("focus at my desk") == "focus at my desk"  # a model's paraphrase stands
    # round 61: "all the plaster grit clogged it up → nobody wants to be on their", and "last
    # month i ordered 1 lemon and they sent me": cut before their noun
    say = _saying(
        [
            "Nobody wants to be on their hands and knees fishing out sludge.",
            "Last month I ordered 1 lemon and they sent me 12 limes!!",
        ]
    )
    # (read back whole, their clause)
    assert say("nobody wants to be on their") == (
        "Nobody wants to be on their hands and knees fishing out sludge"
    )
    assert say("last month i ordered 1 lemon and they sent me") == (
        "Last month I ordered 1 lemon and they sent me 12 limes"
    )
    assert say("on their hands and knees") is not None
    say = _saying(["so I had to ring back and start all over again"])  # round 62
    assert say("ring back and start") == "I had to ring back and start all over again"
    # round 63: "How does feeling like you've got your life help you?", "it feels like I'm
    # looking" in the summary
    say = _saying(
        ["I feel like I've got my life together", "it feels like I'm looking after someone"]
    )
    assert say("feel like I've got my life") == "I feel like I've got my life together"
    assert say("it feels like I'm looking") == "it feels like I'm looking after someone"
    # (review) a pronoun is no determiner, and a count after one may say how long or often
    say = _saying(["I love her to bits", "I've had them 3 years now", "I told them 100 times"])
    for whole in ("I love her", "I've had them", "I told them"):
        assert say(whole) is not None, whole


def test_two_chains_that_read_the_same_as_said_are_shown_once() -> None:
    # round 22: "hour → the weights area" twice, two chains whose words read the same once
    # said as the respondent's
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = _graph(
        meth,
        [
            ("weights area", "attribute"),
            ("weights area quiet", "attribute"),
            ("lift properly", "functional_consequence"),
        ],
        [(0, 2, "leads_to"), (1, 2, "leads_to")],
    )
    said = {"weights area": "the weights area", "weights area quiet": "the weights area"}
    summary = learned_summary(graph, meth, say=lambda node: said.get(node.label, node.label))
    assert summary == "- the weights area → lift properly"


def test_what_joins_the_same_rung_from_the_side_is_said_on_one_line() -> None:
    # Marcus (round 29): "5 people in → i dont feel watched", "cheap → i dont feel watched"
    # and two longer chains through it: the same rung read back four times
    meth, _, _ = _laddered()
    graph = _graph(
        meth,
        [
            ("quiet", "attribute"),
            ("i dont feel watched", "functional_consequence"),
            ("i can just get on", "psychosocial_consequence"),
            ("5 people in", "attribute"),
            ("cheap", "attribute"),
        ],
        [(0, 1, "leads_to"), (1, 2, "leads_to"), (3, 1, "leads_to"), (4, 1, "leads_to")],
    )
    lines = learned_summary(graph, meth).splitlines()
    assert len(lines) == 2 and sum("i dont feel watched" in line for line in lines) == 2, lines
    assert any(line.count(",") == 1 and line.endswith("→ i dont feel watched") for line in lines)


def test_a_link_said_back_the_wrong_way_round_goes_even_when_its_ends_are_named_again() -> None:
    # Claire (round 34): '"makes me a nicer mam" leading to "headspace". Is that right?' -
    # "The headspace makes me a nicer mam, not the other way round": the kept summary still
    # read "makes me a nicer mam → the headspace" (its two ends were named in the answer)
    meth, _, _ = _laddered()
    graph = _graph(
        meth,
        [
            ("makes me a nicer mam", "psychosocial_consequence"),
            ("headspace", "terminal_value"),
            ("softer wider pads", "attribute"),
            ("dont push my glasses arms in", "functional_consequence"),
        ],
        [(0, 1, "leads_to"), (2, 3, "leads_to")],
    )
    question = 'Let me check: "makes me a nicer mam" leading to "headspace". Is that right?'
    answer = "Sort of? The headspace makes me a nicer mam, not the other way round."
    kept = learned_summary(graph, meth, checked=CheckBack(question, answer, 15))
    assert "makes me a nicer mam → headspace" not in kept, kept
    assert "softer wider pads → dont push my glasses arms in" in kept, kept


def test_a_denied_read_back_takes_its_link_not_every_chain_through_one_end() -> None:
    # Priya (round 35): '"go to my check ups" matters to you because of "see what happens"' -
    # "no, thats not right": the kept summary dropped "... → go to my check ups → they'll grow
    # up not being terrified" too, the reason she had given most weight
    meth, _, _ = _laddered()
    graph = _graph(
        meth,
        [
            ("go to my check ups", "functional_consequence"),
            ("see what happens", "psychosocial_consequence"),
            ("kids not terrified", "terminal_value"),
        ],
        [(0, 1, "leads_to"), (0, 2, "leads_to")],
    )
    question = (
        'So far I\'ve heard that "go to my check ups" matters to you because of "see what '
        'happens". Did I get that right?'
    )
    kept = learned_summary(graph, meth, checked=CheckBack(question, "no, thats not right", 15))
    assert "go to my check ups → kids not terrified" in kept, kept
    assert "see what happens" not in kept, kept


def test_a_read_back_denied_after_an_opener_people_type_is_denied() -> None:
    # Shona (round 179): "eh no not really, the uniforms are about the big drum no the leaks":
    # the "eh" hid the "no", and the summary kept the chain she had just denied
    meth, _, _ = _laddered()
    graph = _graph(
        meth,
        [
            ("whole load of school uniforms", "functional_consequence"),
            ("paranoid about leaks", "psychosocial_consequence"),
            ("sleep", "psychosocial_consequence"),
            ("theyre only wee once", "terminal_value"),
        ],
        [(0, 1, "leads_to"), (2, 3, "leads_to")],
    )
    question = (
        'Let me check I\'ve understood: "whole load of school uniforms" matters to you because '
        '"paranoid about leaks"; and "sleep" because "theyre only wee once". Is that right?'
    )
    answer = "eh no not really, the uniforms are about the big drum no the leaks"
    kept = learned_summary(graph, meth, checked=CheckBack(question, answer, 15))
    assert "uniforms → paranoid about leaks" not in kept, kept


def test_a_partly_denied_read_back_drops_the_links_denied_and_keeps_the_one_agreed_to() -> None:
    # Dev (round 36): "kinda but not really ... the therapy bit is right tho": the kept
    # summary still read "20 quid a month → I can leave whenever", the link he had denied
    meth, _, _ = _laddered()
    graph = _graph(
        meth,
        [
            ("20 quid a month", "attribute"),
            ("I can leave whenever", "functional_consequence"),
            ("lifting is lowkey my therapy", "functional_consequence"),
            ("being calm", "terminal_value"),
        ],
        [(0, 1, "leads_to"), (2, 3, "leads_to")],
    )
    question = (
        'So far I\'ve heard that "20 quid a month" matters to you because of "I can leave '
        'whenever" and "lifting is lowkey my therapy" because of "being calm". Did I get that '
        "right?"
    )
    answer = (
        "kinda but not really. i said its 22 quid not 20, and the leave whenever thing is about "
        "no contract not the price. the therapy bit is right tho"
    )
    kept = learned_summary(graph, meth, checked=CheckBack(question, answer, 15))
    assert "20 quid a month → I can leave whenever" not in kept, kept
    assert "lifting is lowkey my therapy → being calm" in kept, kept


def test_one_end_said_with_a_yes_agrees_to_no_link() -> None:
    # (review) "No, comfy yes, but it's got nothing to do with focus.": the denied link stayed,
    # agreed to by its end's word alone; a link is agreed to by name ("the comfy bit is right")
    meth, _, _ = _laddered()
    graph = _graph(
        meth,
        [("comfy", "attribute"), ("can focus at work", "functional_consequence")],
        [(0, 1, "leads_to")],
    )
    question = 'So far I\'ve heard that "comfy" matters to you because of "can focus at work".'
    answer = "No, comfy yes, but it's got nothing to do with focus."
    kept = learned_summary(graph, meth, checked=CheckBack(question, answer, 15))
    assert "comfy → can focus at work" not in kept, kept
    agreed = CheckBack(question, "No wait, the comfy bit is right actually", 15)
    assert "comfy → can focus at work" in learned_summary(graph, meth, checked=agreed)


def test_a_link_whose_end_is_named_again_only_to_deny_it_goes() -> None:
    # Grace (round 42): "Half right. The price bit yes. But not the funny looks, that was a
    # joke ... The speaking practice matters because it gives me confidence": both ends named
    # again, so "the speaking practice → the funny looks" was kept
    meth, _, _ = _laddered()
    graph = _graph(
        meth,
        [("the speaking practice", "attribute"), ("funny looks", "functional_consequence")],
        [(0, 1, "leads_to")],
    )
    question = (
        'So far I\'ve heard that "the speaking practice" matters to you because of "funny looks".'
    )
    answer = (
        "Half right. But not the funny looks, that was a joke. The speaking practice matters "
        "because it gives me confidence."
    )
    kept = learned_summary(graph, meth, checked=CheckBack(question, answer, 15))
    assert "the speaking practice → funny looks" not in kept, kept


def test_a_journey_is_summed_up_a_stage_a_line_what_went_wrong_first() -> None:
    # Round 45 (Margaret, rated 1 of 4): "choosing a delivery slot → ..." eight times over, one
    # line for each thing said at the first stage and nothing of the rest
    meth = Library.discover(cwd=ROOT).methodology("customer_journey").value
    graph = _graph(
        meth,
        [
            ("choosing a delivery slot", "stage"),
            ("picked a tuesday morning slot", "action"),
            ("the good morning slots go very quickly", "pain_point"),
            ("filling the basket", "stage"),
            ("go through my favourites list", "action"),
            ("calm", "emotion"),
        ],
        [(0, 1, "did"), (0, 2, "hurt"), (0, 3, "next_stage"), (3, 4, "did"), (3, 5, "felt")],
    )
    assert learned_summary(graph, meth) == (
        "- choosing a delivery slot: the good morning slots go very quickly; "
        "picked a tuesday morning slot\n"
        "- filling the basket: calm; go through my favourites list"
    )


def test_a_rung_said_again_in_more_words_is_one_rung() -> None:
    # Round 45 (Sandra): "warranty → I want a good long warranty" read one thing as a ladder
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = _graph(
        meth,
        [
            ("warranty", "attribute"),
            ("I want a good long warranty", "functional_consequence"),
            ("peace of mind", "terminal_value"),
        ],
        [(0, 1, "leads_to"), (1, 2, "leads_to")],
    )
    assert learned_summary(graph, meth) == "- I want a good long warranty → peace of mind"


def test_a_loose_concept_a_chain_already_says_is_not_listed_again() -> None:
    # Round 47 (Lucy): "- fussy" on its own line beside "sooo fussy → doesnt eat"
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = _graph(
        meth,
        [
            ("sooo fussy", "attribute"),
            ("doesnt eat", "functional_consequence"),
            ("fussy", "functional_consequence"),
            ("vet trusts the brand", "attribute"),
        ],
        [(0, 1, "leads_to")],
    )
    assert learned_summary(graph, meth) == "- sooo fussy → doesnt eat\n- also: vet trusts the brand"


def test_a_chain_that_starts_a_longer_one_is_not_shown_again() -> None:
    # Round 57: "borrow one for a week first → sarah just offered" stood beside both chains
    # going on from it.
    start = ["borrow one for a week first", "sarah just offered"]
    chains = [start, [*start, "moaning about the bus"], [*start, "try the hills"], ["quiet"]]
    assert _within_none(chains) == chains[1:]


def test_an_incident_is_told_as_its_points_not_as_chains() -> None:
    # Round 68: a support call's summary read "he didnt read anything → Im looking at switching
    # provider" (the one good part of the call made the reason to leave) and "I went on their
    # website → ... → deep" (a story read as findings, a sarcastic word its end). An incident's
    # links are steps: its points are told a line each, what was said most, in the order said.
    meth = Library.discover(cwd=ROOT).methodology("critical_incident").value
    assert meth.summary == "points"
    graph = KnowledgeGraph()

    def add(label: str, kind: str, turns: tuple[int, ...], confidence: float = 0.8) -> str:
        said = [{"utterance_id": f"u{t}", "quote": label, "turn": t} for t in turns]
        node = graph.add_node(
            label, kind, methodology=meth, turn=turns[0], provenance=said, confidence=confidence
        )
        return node.id

    bot = add("chat bot looped me three times", "incident", (2, 3, 5))
    site = add("went on their website", "action", (2,))
    gary = add("Gary owned the problem", "outcome", (1, 7, 8))
    script = add("didnt read anything", "outcome", (8,))
    leaving = add("looking at switching provider", "behavior_change", (13,))
    add("deep", "learning", (10,), confidence=0.5)  # read with doubt: never read back
    for source, target, relation in (
        (bot, site, "prompted"),
        (script, leaving, "changed"),
        (site, gary, "resulted_in"),
    ):
        graph.add_relation(source, target, relation, methodology=meth, turn=8)
    told = learned_summary(graph, meth)
    assert "→" not in told, told
    lines = told.splitlines()
    assert lines == [
        "- chat bot looped me three times",
        "- went on their website",
        "- Gary owned the problem",
        "- didnt read anything",
        "- looking at switching provider",
    ], told
    # at most MAX_TOLD points, those said in the most answers
    for i in range(12):
        add(f"step number {i}", "action", (20 + i,))
    lines = learned_summary(graph, meth).splitlines()
    assert len(lines) == 8 and "- Gary owned the problem" in lines, lines
    assert "- step number 2" in lines and "- step number 3" not in lines, lines


def test_a_point_whose_label_cannot_be_said_back_is_told_in_their_sentence() -> None:
    # A typed support-call interview: the closing answer "you missed that they doubled the
    # direct debit without telling me" made the node "doubled direct debit without telling",
    # its words with some left out, which the summary never says back; so the point it was
    # told was missing was missing again.
    meth = Library.discover(cwd=ROOT).methodology("critical_incident").value
    graph = KnowledgeGraph()
    sentence = "they doubled the direct debit without telling me"
    graph.add_node(
        "doubled direct debit without telling",
        "situation",
        methodology=meth,
        turn=1,
        provenance=[{"utterance_id": "u1", "quote": sentence, "turn": 1}],
    )
    answers = [f"you missed that {sentence}, thats the whole reason I rang"]
    # (its clause is said back whole, the "me" its verb closes on included)
    assert _saying(answers)("doubled direct debit without telling") == sentence
    assert learned_summary(graph, meth, say=said_as(answers)) == f"- {sentence}"


def test_a_rung_whose_label_cannot_be_said_back_is_told_in_their_sentence_on_its_chain() -> None:
    # The chain summary had dropped such a rung, so "mattress → safe" read as if nothing had
    # been said between them; a journey's stage lost its pain the same way.
    answers = [
        "the mattress, honestly",
        "not being stuck was about the 100 night trial, so I felt safe buying it",
    ]
    sentence = "not being stuck was about the 100 night trial"
    for method, kinds, summary in (
        ("means_end_chain", ("attribute", "functional_consequence"), "the mattress → " + sentence),
        ("customer_journey", ("stage", "pain_point"), "mattress: " + sentence),
    ):
        meth = Library.discover(cwd=ROOT).methodology(method).value
        graph = KnowledgeGraph()
        first = graph.add_node("mattress", kinds[0], methodology=meth, turn=1)
        stuck = graph.add_node(
            "not being stuck about 100 night",
            kinds[1],
            methodology=meth,
            turn=2,
            provenance=[{"utterance_id": "u2", "quote": sentence, "turn": 2}],
        )
        relation = "leads_to" if method == "means_end_chain" else "hurt"
        graph.add_relation(first.id, stuck.id, relation, methodology=meth, turn=2)
        assert learned_summary(graph, meth, say=said_as(answers)) == f"- {summary}", method


def test_a_journey_is_summed_up_in_the_journeys_order_not_the_order_told() -> None:
    # Round 74 (Tom): the delivery read back after the unpacking it came before, because the
    # unpacking was named first (in passing, at checkout)
    meth = Library.discover(cwd=ROOT).methodology("customer_journey").value
    graph = KnowledgeGraph()
    for label, element in (
        ("unpacking and substitutions", "unpacking"),
        ("the delivery", "delivery"),
    ):
        graph.add_node(label, "stage", methodology=meth, turn=1, element_id=element)
    told = learned_summary(graph, meth)
    assert told.splitlines() == ["- unpacking and substitutions", "- the delivery"]
    ordered = learned_summary(graph, meth, order=["slot", "delivery", "unpacking"])
    assert ordered.splitlines() == ["- the delivery", "- unpacking and substitutions"]


def test_what_was_missed_told_at_the_close_leads_and_only_what_it_touches_stays() -> None:
    # Round 140: "Did I miss anything?" - "Yes, rather a lot ... What matters is getting in
    # by 7.40 reliably ..., not paying £80 a month ...; the worries are the A23 and theft."
    # The summary read those back, then "strictly speaking it starts the night → ..." and an
    # "also" list of fragments; round 139's "i get my saturday mornings back" was a concept
    # known already, and was left out
    meth, graph, add = _laddered()
    night = add("starts the night", "attribute", 1)
    electric = add("had to be electric", "functional_consequence", 2)
    road = add("four-lane road with buses", "attribute", 12)
    tense = add("tense", "psychosocial_consequence", 13)
    add("feel smug about not doing it", "psychosocial_consequence", 6)
    add("get my saturday mornings back", "psychosocial_consequence", 9)
    for source, target in ((night, electric), (road, tense)):
        graph.add_relation(source, target, "leads_to", methodology=meth, turn=13)
    for label in ("getting in reliably", "not paying £80 a month", "theft"):
        add(label, "attribute", 17)
    question = 'We talked about "starts the night" and "tense". Did I miss anything that matters?'
    answer = (
        "Yes, rather a lot. What matters is getting in reliably, and not paying £80 a month; "
        "the worries are a four-lane road with buses and theft, and I get my saturday mornings "
        "back"
    )
    lines = learned_summary(graph, meth, checked=CheckBack(question, answer, 17)).splitlines()
    assert "- get my saturday mornings back" in lines[:5], lines
    assert "- four-lane road with buses → tense" in lines, lines
    assert not any("starts the night" in line or "smug" in line for line in lines), lines
    # agreed to, what was read back stays, and the loose concepts with it
    agreed = CheckBack(question.replace("Did I miss anything", "Is that right"), answer, 17)
    kept = learned_summary(graph, meth, checked=agreed)
    assert "starts the night → had to be electric" in kept and "smug" in kept, kept


def test_a_concept_said_again_at_the_close_leads_only_where_its_chain_ends() -> None:
    # A typed interview: "sort of? the main things are it froths so my coffee is right ..." led
    # the summary with every chain through "froth for my coffee", one of them ending at a
    # correction of a scene ("my youngest")
    meth, graph, add = _laddered()
    froth = add("froth for my coffee", "attribute", 1)
    white = add("flat white person", "functional_consequence", 2)
    youngest = add("my youngest", "psychosocial_consequence", 4)
    quiet = add("ten minutes to myself", "psychosocial_consequence", 5)
    for source, target in ((froth, white), (white, youngest)):
        graph.add_relation(source, target, "leads_to", methodology=meth, turn=4)
    question = 'We talked about "flat white person". Did I miss anything that matters to you?'
    answer = "sort of? it has to froth for my coffee, and ten minutes to myself in the morning"
    lines = learned_summary(graph, meth, checked=CheckBack(question, answer, 9)).splitlines()
    assert lines[0] == "- ten minutes to myself", lines
    assert quiet and lines[1] == "- froth for my coffee → flat white person → my youngest", lines


def test_an_incident_read_back_and_let_stand_keeps_its_points_beside_what_was_added() -> None:
    # Round 150: "Mostly yes, but you've missed the phoning, four calls, over an hour each and
    # three different answers ... And please put down the council tax lady too" - the summary
    # was six bits of that answer, the neighbour's meter and the debt letter read back gone
    meth = Library.discover(cwd=ROOT).methodology("critical_incident").value
    graph = KnowledgeGraph()

    def add(label: str, turn: int, confidence: float = 0.8) -> str:
        said = [{"utterance_id": f"u{turn}", "quote": label, "turn": turn}]
        node = graph.add_node(
            label, "situation", methodology=meth, turn=turn, provenance=said, confidence=confidence
        )
        return node.id

    add("they read the neighbour's meter", 1)
    add("a letter threatening debt collection", 4, confidence=0.5)
    add("they paid the £75", 9)
    for i in range(4):
        add(f"filler step {i}", 10 + i)
    for label in ("the phoning", "four calls", "over an hour each", "three answers"):
        add(label, 17)
    add("the council tax lady", 17)
    question = (
        'We talked about "a letter threatening debt collection", "they read the neighbour\'s '
        'meter" and "they paid the £75". Did I miss anything that matters to you?'
    )
    answer = (
        "Mostly yes, but you've missed the phoning, four calls, over an hour each and three "
        "answers. And please put down the council tax lady too."
    )
    lines = learned_summary(graph, meth, checked=CheckBack(question, answer, 17)).splitlines()
    assert lines[:4] == ["- the phoning", "- four calls", "- over an hour each", "- three answers"]
    assert lines[4:7] == [
        "- they read the neighbour's meter",
        "- a letter threatening debt collection",
        "- they paid the £75",
    ], lines
    assert lines[7:] == ["- the council tax lady"], lines
    # said no to, the read-back goes and what the answer said leads
    denied = learned_summary(graph, meth, checked=CheckBack(question, "No, " + answer, 17))
    assert "- they paid the £75" not in denied.splitlines()[:5], denied


def test_a_concept_said_at_the_close_in_fewer_words_than_another_is_said_once() -> None:
    # Round 152: "get up the hill" (said earlier, said again at the close) led the summary
    # beside "getting up the hill to clifton", the closing answer's own words for it
    meth, graph, add = _laddered()
    add("get up the hill", "functional_consequence", 14)
    add("getting up the hill to clifton", "functional_consequence", 17)
    add("winter battery", "attribute", 17)
    question = 'We talked about "take the bus". Did I miss anything that matters to you?'
    answer = "kinda? the main thing is getting up the hill to clifton. and the winter battery"
    lines = learned_summary(graph, meth, checked=CheckBack(question, answer, 17)).splitlines()
    assert lines[:2] == ["- getting up the hill to clifton", "- winter battery"], lines
    assert "- get up the hill" not in lines, lines


def test_a_check_back_read_with_a_plain_because_is_read_as_links() -> None:
    # the read-back says "because" before a reason said as a clause (round 166)
    question = (
        'Here is what I heard: "everything comes portioned" matters to you because "there\'s no '
        'spinach turning", and "the box" because of "my family". Is that a fair summary?'
    )
    links = CheckBack(question, "yes", 9)._links()
    assert links == [
        ({"everything", "comes", "portioned"}, {"there's", "no", "spinach", "turning"}),
        ({"the", "box"}, {"my", "family"}),
    ], links


def test_a_check_back_agreed_to_keeps_its_chains_beside_three_points_it_missed() -> None:
    # Round 169: "Aye, near enough. You've missed the stiff sole for scree and them lasting,
    # not wasting £220" left a summary of the points it missed and none of the chains it had
    # read back and been told were right
    meth, graph, add = _laddered()
    ankle = add("ankle support", "attribute", 3)
    confidence = add("confidence", "psychosocial_consequence", 16)
    sole = add("stiff sole for scree", "attribute", 17)
    lasting = add("them lasting", "attribute", 17)
    waste = add("not wasting money", "functional_consequence", 17)
    graph.add_relation(ankle, confidence, "leads_to", methodology=meth, turn=16)
    assert sole and lasting and waste
    question = (
        'Let me check I\'ve understood: "ankle support" matters to you because of '
        '"confidence". Is that right?'
    )
    answer = (
        "Aye, near enough. You've missed the stiff sole for scree and them lasting, not "
        "wasting money, that's a big one for me."
    )
    lines = learned_summary(graph, meth, checked=CheckBack(question, answer, 17)).splitlines()
    assert "- ankle support → confidence" in lines, lines


def test_a_no_that_names_a_part_as_right_keeps_that_part() -> None:
    # Round 195: "kind of? the grown up bit is right but you've missed like half of it, the
    # data and the signal at work and my clients" left a summary of what it missed and none
    # of the grown-up chain it had just been told was right
    meth, graph, add = _laddered()
    grown = add("feels like being proper grown up", "psychosocial_consequence", 4)
    kid = add("feel like not a kid anymore", "psychosocial_consequence", 5)
    own = add("standing on my own two feet", "attribute", 17)
    good = add("feel good about myself", "psychosocial_consequence", 18)
    data = add("data", "attribute", 21)
    signal = add("signal at work", "attribute", 21)
    clients = add("my clients", "attribute", 21)
    graph.add_relation(grown, kid, "leads_to", methodology=meth, turn=5)
    graph.add_relation(own, good, "leads_to", methodology=meth, turn=18)
    assert data and signal and clients
    question = (
        'Here is what I heard: "feels like being proper grown up" matters to you because of '
        '"feel like not a kid anymore"; and "standing on my own two feet" because of "feel '
        'good about myself". Is that a fair summary?'
    )
    answer = (
        "kind of? the grown up bit is right but you've missed like half of it, the data and "
        "the signal at work and my clients"
    )
    lines = learned_summary(graph, meth, checked=CheckBack(question, answer, 21)).splitlines()
    assert "- feels like being proper grown up → feel like not a kid anymore" in lines, lines
    assert not any("standing on my own" in line for line in lines), lines
    # (from the review: a part denied or asked about is no part named right)
    for denied in (
        "No, I don't think the grown up bit is right at all, it's about the data",
        "No. Is the grown up bit right? Not at all.",
    ):
        checked = CheckBack(question, denied, 21)
        lines = learned_summary(graph, meth, checked=checked).splitlines()
        assert not any("proper grown up" in line for line in lines), (denied, lines)
    # ... and one said to be right with "I think" is (read once more)
    assert CheckBack(question, "I think the grown up bit is right, but not all", 21)._named_right


def test_a_loose_concept_is_listed_only_as_a_clean_phrase_of_theirs() -> None:
    # round 232's "also:" read back "Mitzi rides on it sometimes like shes" and "bare weeks of
    # that bot saying", cut from their clauses (rated 2 of 4); a clean phrase stays
    meth = Library.discover(cwd=ROOT).methodology("means_end_chain").value
    graph = _graph(
        meth,
        [
            ("press the button", "attribute"),
            ("my hands are better", "functional_consequence"),
            ("mitzi rides on sometimes like shes", "attribute"),
            ("the cat hair", "attribute"),
        ],
        [(0, 1, "leads_to")],
    )
    answers = [
        "With the robot I just press the button, so my hands are better.",
        "And Mitzi rides on it sometimes like shes the Queen of Sheba. The cat hair though!",
    ]
    summary = learned_summary(graph, meth, say=said_as(answers))
    assert "also: the cat hair" in summary, summary
    assert "Mitzi" not in summary, summary
