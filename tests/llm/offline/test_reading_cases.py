"""The offline reader's phrase cases, kept as data in ``tests/llm/data/readings/*.yaml``
(as black keeps its cases in ``tests/data/``): an answer as people give it, and what the
reader must make of it. Each file says its fields in its header; a case is one test, named
by its file and the start of its answer. Adding a case is adding four lines of YAML."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from offline_fixtures import ROOT, extract, shipped_mec

from interview_cli.config.loader import load_concept
from interview_cli.config.schemas import Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.models import Extraction
from interview_cli.llm.offline.reading.extraction import extract_offline
from interview_cli.llm.offline.reading.nonanswers import answer_kind
from interview_cli.llm.offline.reading.typos import mend_typos
from interview_cli.llm.protocol import ExtractRequest, NodeContext

DATA = Path(__file__).resolve().parents[1] / "data" / "readings"
# Labels that are never an element, whatever the answer.
JUNK = frozenset(
    {
        "again",
        "being",
        "sorry",
        "ha",
        "hard to say",
        "i'm not sure",
        "not sure",
        "like i said",
        "said",
        "said before",
        "not",
        "no",
        "much",
        "mainly",
        "whole point",
        "pass",
        "same",
        "why",
        "where",
        "m",
    }
)


@cache
def cases(name: str) -> list[dict[str, Any]]:
    data = load_yaml((DATA / f"{name}.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, list) and data, f"{name}.yaml holds no cases"
    return data


def _id(case: dict[str, Any]) -> str:
    return str(case["answer"])[:40]


def _focus(case: dict[str, Any]) -> tuple[str, str] | None:
    focus = case.get("focus")
    return (focus[0], focus[1]) if focus else None


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return shipped_mec()


def _labels(mec: Methodology, said: str, domain: str) -> list[str]:
    """The labels of the nodes an opening answer makes."""
    return [n.label for n in extract(mec, domain, said, None).nodes]


def _read(mec: Methodology, case: dict[str, Any]) -> Extraction:
    """The reading of a case, read once: four tests ask about each case (the same dict of the
    cached ``cases``), and a reading is the suite's costliest small step. Tests only look."""
    key = (id(mec), id(case))
    if key not in _READ:
        # (the case and methodology kept, so that their ids stay their own)
        _READ[key] = (mec, case, _read_now(mec, case))
    return _READ[key][2]


_READ: dict[tuple[int, int], tuple[Methodology, dict[str, Any], Extraction]] = {}


def _read_now(mec: Methodology, case: dict[str, Any]) -> Extraction:
    domain = case.get("domain", "headphones")
    existing = [tuple(e) for e in case.get("existing", [])]
    return extract(
        mec,
        domain,
        case["answer"],
        _focus(case),
        question=case.get("question", ""),
        existing=existing,  # type: ignore[arg-type]
    )


LABELLED = (
    cases("labels")
    + cases("phenomena")
    + cases("corrections")
    + cases("steers")
    + cases("retractions")
)


@pytest.mark.parametrize("case", LABELLED, ids=_id)
def test_labels_are_the_respondents_short_phrases(mec: Methodology, case: dict[str, Any]) -> None:
    result = _read(mec, case)
    assert [n.label for n in result.nodes] == case["labels"]
    # the respondent's words: this answer's (a small word mistyped, mended: "tlels" is
    # "tells"), and an earlier node's that a correction restates
    earlier = " ".join(e[0] for e in case.get("existing", []))
    answer = f"{mend_typos(case['answer'])} {earlier}".lower().replace("\u2019", "'")
    said = {
        w.strip("'")
        for w in re.findall(
            r"[£$€]?(?:\d{1,3}(?:,\d{3})+|\d+(?:[.:]\d+)+)%?|[£$€]?[\w'&-]+%?", answer
        )
    }
    said |= {w.lstrip("£$€") for w in said}  # (a figure with its currency sign, or without)
    said |= {w[:-2] for w in said if w.endswith("'s")}  # ("the rain's the real thing": rain)
    # (a verb of theirs in the form a negation takes: "the dad who always says no" is "dont
    # always say no")
    said |= {w[:-1] for w in said if w.endswith("s") and len(w) > 3} | {"say", "do", "have"}
    for node in result.nodes:
        # (a revision is the earlier label with what they meant put in: it may say the
        # changed words in one more word, "week" put right as "nine days")
        assert 1 <= len(node.label.split()) <= 6 + bool(node.corrects)
        # every word of a label is the respondent's (the label is their words, not ours)
        words = {w.strip("'") for w in node.label.lower().split()}  # ("buyers'" is "buyers")
        # (and "not" for who they do not want to be: "not the dad who always says no")
        assert words <= said | {"feel", "can", "not"}, node.label


def _all_answers() -> list[dict[str, Any]]:
    nothing = [{**c, "focus": ["noise cancelling", "attribute"]} for c in cases("nothing")]
    return LABELLED + nothing


@pytest.mark.parametrize("case", cases("corrections"), ids=_id)
def test_a_correction_revises_the_earlier_node(mec: Methodology, case: dict[str, Any]) -> None:
    result = _read(mec, case)
    assert {n.label: n.corrects for n in result.nodes if n.corrects} == case["corrects"]
    earlier = {e[0]: e[1] for e in case.get("existing", [])}
    for n in result.nodes:
        if n.corrects is not None:  # a correction restates the same kind of element
            assert n.node_type == earlier[n.corrects]


@pytest.mark.parametrize("case", cases("steers"), ids=_id)
def test_a_request_to_go_back_names_the_next_focus(mec: Methodology, case: dict[str, Any]) -> None:
    result = _read(mec, case)
    assert result.steer == case["steer"]
    # going back to what was said corrects nothing ("going back to when I said it's cheap")
    assert {n.label: n.corrects for n in result.nodes if n.corrects} == case.get("corrects", {})


@pytest.mark.parametrize("case", cases("retractions"), ids=_id)
def test_what_is_taken_back_is_disowned_never_a_node(
    mec: Methodology, case: dict[str, Any]
) -> None:
    assert _read(mec, case).retracted == case["retracted"]


@pytest.mark.parametrize("case", _all_answers(), ids=_id)
def test_no_junk_label_ever(mec: Methodology, case: dict[str, Any]) -> None:
    for node in _read(mec, case).nodes:
        label = node.label.lower()
        assert label not in JUNK, label
        # (an apology wanted is a noun: "a voucher wi nae sorry"; or one not made: "nobody even
        # said sorry")
        sorry = r"(?<!\bno\s)(?<!\bnae\s)(?<!\ba\s)(?<!\bsaid\s)sorry"
        # (what they would not go through again is no "again" of the talk: round 278)
        again = r"(?<!\bthrough\sthat\s)(?<!\bthrough\sit\s)again"
        assert not re.search(rf"\b(?:{again}|like i said|{sorry}|hard to say|not sure)\b", label), (
            label
        )


@pytest.mark.parametrize("case", _all_answers(), ids=_id)
def test_every_link_goes_from_a_lower_level_to_a_higher_one(
    mec: Methodology, case: dict[str, Any]
) -> None:
    result = _read(mec, case)
    types = {n.label: n.node_type for n in result.nodes}
    focus = _focus(case)
    if focus is not None:
        types[focus[0]] = focus[1]
    level = {n.name: n.level for n in mec.ontology.nodes}
    for edge in result.edges:
        assert level[types[edge.source]] <= level[types[edge.target]], edge


@pytest.mark.parametrize("case", cases("nothing"), ids=_id)
def test_a_remark_or_a_dont_know_extracts_nothing(mec: Methodology, case: dict[str, Any]) -> None:
    result = extract(mec, "headphones", case["answer"], ("noise cancelling", "attribute"))
    assert (result.extractable, result.nodes, result.edges) == (False, [], [])
    assert case["reason"] in result.reason


@pytest.mark.parametrize("case", cases("answer_kinds"), ids=_id)
def test_answer_kind(case: dict[str, Any]) -> None:
    assert answer_kind(case["answer"]) == case["kind"]


@pytest.mark.parametrize("case", cases("stances"), ids=_id)
def test_a_dislike_is_held_negative_and_named_without_the_frame(
    mec: Methodology, case: dict[str, Any]
) -> None:
    result = extract(mec, "cooking", case["answer"], None, question=case.get("question", ""))
    assert [[n.label, n.stance] for n in result.nodes] == case["held"]


def test_what_would_have_helped_is_no_node_to_ask_about(mec: Methodology) -> None:
    # "You mentioned an engineer actually turning up. What did that teach you?" (round 8): a
    # wish, asked about as if it had happened
    result = extract(
        mec,
        "cooking",
        "an engineer actually turning up when they said, and one person owning it",
        None,
        question="What do you think it would have taken for it to go differently?",
    )
    assert result.nodes and all(
        n.confidence < mec.tuning.vetoes.min_focus_confidence for n in result.nodes
    )


def test_what_would_have_been_is_no_node_to_ask_about(mec: Methodology) -> None:
    # "You mentioned the car. What made you hesitate there?" of "if I still had the car I'd
    # have just driven every time it rained" (round 9)
    result = extract(
        mec, "cooking", "if I still had the car I'd have just driven every time it rained", None
    )
    bar = mec.tuning.vetoes.min_focus_confidence
    assert result.nodes and all(n.confidence < bar for n in result.nodes)
    plain = extract(mec, "cooking", "I'd have to charge it every day", None)
    assert plain.nodes and all(n.confidence >= bar for n in plain.nodes)


def test_what_explains_a_nothing_is_no_node_to_ask_about(mec: Methodology) -> None:
    # "You said it lives in a drawer. What does that help you get done?" (round 128), asked of
    # "Nothing really, it lives in a drawer" about a lock they had set aside
    bar = mec.tuning.vetoes.min_focus_confidence
    result = extract(mec, "cycling", "Nothing really, it lives in a drawer.", None)
    assert result.nodes and all(n.confidence < bar for n in result.nodes)
    # (what a "but" goes on to say is an answer)
    # (round 164: "Nowt to consider, rota says nights" was asked about twice)
    nowt = extract(mec, "cycling", "Nowt to consider, rota says nights.", None)
    assert nowt.nodes and all(n.confidence < bar for n in nowt.nodes)
    plain = extract(mec, "headphones", "Not much, but the sound is great", None)
    assert [(n.label, n.confidence >= bar) for n in plain.nodes] == [("sound", True)]
    just = extract(mec, "cooking", "Nothing much, just the taste and the price.", None)
    assert [(n.label, n.confidence >= bar) for n in just.nodes] == [
        ("taste", True),
        ("price", True),
    ]


def test_a_guess_at_others_reasons_after_not_knowing_is_no_node_to_ask_about(
    mec: Methodology,
) -> None:
    # Round 162 asked "You mentioned that they are not trained same way. What else comes to
    # mind?" of "I dunno, maybe they are not trained same way", and read it back at the close
    bar = mec.tuning.vetoes.min_focus_confidence
    for said in (
        "I dunno, maybe they are not trained same way, or maybe nobody reads the notes.",
        "No idea really, probably the staff were rushed off their feet.",
        # (or what they muse they should do: round 163 asked why it was important)
        "I dunno, maybe I should feed them in seperate rooms but they'd only sulk.",
    ):
        result = extract(mec, "banking", said, None)
        assert result.nodes and all(n.confidence < bar for n in result.nodes), said
    # (a guess about themselves is how a laddered value is often first said; nor is a hedged
    # statement a guess: from the review)
    for plain in (
        "I don't know, maybe it makes me feel safe",
        "I dont know, I guess the staff in the shop actually listen to you",
    ):
        own = extract(mec, "banking", plain, None)
        assert own.nodes and all(n.confidence >= bar for n in own.nodes), plain


def test_wondering_what_happened_is_no_node_to_ask_about_in_a_story() -> None:
    # Round 168 was asked "You said the frame was damaged in their van." of "I dunno, maybe
    # the frame was damaged in their van": in a story, a guess at what happened; in a ladder,
    # "I dunno, maybe just having an actual evening" is a value said as they find it
    ci = Methodology.model_validate(
        load_yaml((ROOT / "methodologies" / "critical_incident.yaml").read_text("utf-8"))
    )
    said = "I dunno, maybe the frame was damaged in their van, or maybe it left the warehouse."
    result = extract(ci, "banking", said, None, strategy="deepen_narrative")
    bar = ci.tuning.vetoes.min_focus_confidence
    assert result.nodes and all(n.confidence < bar for n in result.nodes)
    # (a detail not known, then what happened: "but" says it plainly; from the review)
    told = extract(
        ci,
        "banking",
        "Not sure what the first agent was called, maybe Dave, but he cancelled my order",
        None,
        strategy="deepen_narrative",
    )
    assert any(n.confidence >= bar for n in told.nodes if "cancelled" in n.label)
    mec = shipped_mec()
    own = extract(mec, "banking", "i dunno, maybe just having an actual evening?", None)
    assert own.nodes and all(n.confidence >= bar for n in own.nodes)


def test_what_is_said_again_is_no_node_to_ask_about(mec: Methodology) -> None:
    # Round 128 laddered "not be late" from "Like I said, not be late and not pay for parking"
    # four more times, to "Feels like were going in circles"
    bar = mec.tuning.vetoes.min_focus_confidence
    for answer in (
        "Like I said, not be late and not pay for parking.",
        "Same as before really, getting there on time.",
    ):
        result = extract(mec, "commuting", answer, None)
        assert all(n.confidence < bar for n in result.nodes), answer
    said = "Like I said, not be late and not pay for parking."
    assert extract(mec, "commuting", said, None).nodes  # (still read)
    # (a sentence after it says something of its own)
    # (what was said to someone else is no repeat: "Like I said to the lady in Tesco")
    told = "Like I said to the lady in Tesco, I want one without added sugar for my son."
    assert any(n.confidence >= bar for n in extract(mec, "cooking", told, None).nodes)
    result = extract(mec, "commuting", "Like I said, the price. The seat is comfy too", None)
    plain = extract(mec, "commuting", "The price. The seat is comfy too", None)
    sure = [(n.label, n.confidence) for n in plain.nodes]
    assert [(n.label, n.confidence) for n in result.nodes][1:] == sure[1:] != []


def test_what_follows_a_request_to_go_back_is_no_reason_below_the_focus(
    mec: Methodology,
) -> None:
    # a typed interview's closing check read '"the vet was quite firm about it" matters to you
    # because of "it's money down the drain"' (on the shipped pet food study, whose words
    # make the link)
    study = load_concept(ROOT / "concepts" / "pet_food_mec.yaml").value
    focus = "money down the drain"
    request = ExtractRequest(
        methodology=mec,
        concept=study,
        answer="can we go back to the weight thing? the vet was quite firm about it",
        utterance_id="u1",
        question="Why is that important to you?",
        existing_labels=[focus],
        existing_nodes=[NodeContext(label=focus, node_type="functional_consequence", quote="")],
        strategy="deepen",
        focus_label=focus,
        focus_type="functional_consequence",
    )
    result = extract_offline(request)
    assert result.steer == "weight" and "vet firm about it" in [n.label for n in result.nodes]
    assert not [e for e in result.edges if focus in (e.source, e.target)], result.edges


def test_someone_elses_quoted_words_are_no_node_to_ask_about(
    methods: dict[str, Methodology],
) -> None:
    # "You mentioned that that's your mistake. How did it end?" (round 129): the agent's "our"
    # turned round on the respondent
    ci = methods["critical_incident"]
    bar = ci.tuning.vetoes.min_focus_confidence
    answer = "He saw both payments, said 'that's our mistake', refunded it while I was on the phone"
    result = extract(ci, "banking", answer, None)
    sure = {n.label: n.confidence >= bar for n in result.nodes}
    assert sure["said that's our mistake"] is False
    assert sure["refunded it while on the phone"] is True


def test_a_laugh_closing_a_long_sentence_is_about_its_last_part(mec: Methodology) -> None:
    # Ade (round 10): every node of his opening was made doubtful by the "haha" closing it, so
    # no question could ask about them and the tool asked "what else?" three times
    answer = (
        "Upload speed, mate, because I'm pushing 200 gig files to clients every week, and also "
        "the line not dropping out cos my two teenagers game all evening and scream the house "
        "down haha"
    )
    result = extract(mec, "cooking", answer, None)
    bar = mec.tuning.vetoes.min_focus_confidence
    by_label = {n.label: n.confidence for n in result.nodes}
    assert by_label["upload speed"] >= bar, by_label


@cache
def _library() -> Any:
    from interview_cli.config.library import Library

    return Library.discover(cwd=Path(__file__).resolve().parents[3])


@pytest.mark.parametrize("case", cases("live_answers"), ids=_id)
def test_every_answer_typed_live_is_read_without_failing(case: dict[str, Any]) -> None:
    from interview_cli.llm.offline.reading.extraction import extract_offline
    from interview_cli.llm.protocol import ExtractRequest
    from interview_cli.llm.validation import validate_extraction

    lib = _library()
    concept = lib.concept(case["concept"]).value
    methodology = lib.methodology(concept.methodology).value
    focus = case.get("focus") or [None, None]
    request = ExtractRequest(
        methodology=methodology,
        concept=concept,
        answer=case["answer"],
        utterance_id="u1",
        question=case["question"],
        strategy="deepen" if focus[0] else "",
        focus_label=focus[0],
        focus_type=focus[1],
    )
    result = extract_offline(request)
    validated = validate_extraction(result.model_dump(), request)
    assert len(validated.nodes) == len(result.nodes)


def test_a_thing_is_never_linked_to_its_own_denial(mec: Methodology) -> None:
    # "she cannot call" -> "she CAN call" was read back as a ladder (round 7)
    result = extract(
        mec,
        "cooking",
        "Nothing good. she CAN call, I just want to be sure she always can",
        ("cannot call", "functional_consequence"),
        existing=[("cannot call", "functional_consequence", "she cannot call")],
    )
    assert "CAN call" in [n.label for n in result.nodes]
    assert not any({e.source, e.target} == {"cannot call", "CAN call"} for e in result.edges)
    assert any(r.reason == "a thing and its own denial" for r in result.rejected)


def test_a_sentence_opening_with_but_is_no_sibling_of_the_reason_before_it(
    mec: Methodology,
) -> None:
    # round 69: "the flat ones so i can stay on my side yes. but its being knackered on the
    # shift ..." was read back as "the flat ones → being knackered on the shift"
    answer = (
        "the flat ones so i can stay on my side yes. but its being knackered on the shift "
        "and being snappy with my son."
    )
    result = extract(mec, "headphones", answer, None)
    links = {(e.source, e.target) for e in result.edges}
    assert links == {("flat ones", "can stay on my side")}, links
    # within a sentence a "but" still opens a sibling: "light, but it folds" (both features)
    within = extract(mec, "headphones", "the case so i can carry them, but its quiet", None)
    assert ("case", "can carry them") in {(e.source, e.target) for e in within.edges}
    assert len(within.edges) == 2, within.edges


@pytest.mark.parametrize(
    ("said", "label"),
    [
        ("the size of the drum first", "size of the drum"),  # round 70: when, not what
        ("downloaded one of them apps first", "downloaded one of them apps first"),  # a doing
        ("family comes first", "family comes first"),
        ("first", ""),  # (a label of nothing else: no error; a reader bug left answers unread)
    ],
)
def test_a_first_saying_when_a_thing_came_is_no_part_of_it(said: str, label: str) -> None:
    from interview_cli.llm.offline.reading.labels import make_label

    assert make_label(said, None, None) == label


@pytest.mark.parametrize(
    ("said", "label"),
    [
        # round 73 quoted "Im hopeless with all" back as a reason at the close
        ("Im hopeless with all that", "hopeless"),
        ("the cooking and all that", "cooking"),
        ("all that", ""),
        ("all that stuff in the shed", "all that stuff in the shed"),
        # a saying is whole: "my shoulder isnt what it was" (a typed interview asked about
        # "71 and my shoulder isnt what")
        ("my shoulder isnt what it was", "shoulder isnt what it was"),
        ("my knee isnt what it used to be", "knee isnt what it used to be"),
        # a relative clause without "that" after a light noun says which one it is
        (
            "the weekend is the only time we have together as a family",
            "weekend only time have together",
        ),
        # a pair said as one thing is not cut in two by the limit nor at its "and" (a typed
        # answer made "back" an attribute of its own)
        ("it needs to last me there and back", "needs to last me there and back"),
        ("i go back and forth to work on it", "go back and forth to work"),
        # a degree keeps its clause (round 215 asked about "not proud of how smug")
        ("I'm not proud of how smug I felt", "not proud of how smug I felt"),
        ("I hate how long it takes", "hate how long it takes"),
    ],
)
def test_a_label_keeps_a_saying_whole_and_drops_what_points_back(said: str, label: str) -> None:
    from interview_cli.llm.offline.reading.labels import make_label

    assert make_label(said, None, None) == label


@pytest.mark.parametrize(
    ("method", "answer", "quote"),
    [
        # round 77 said back "the coffee is what gets me thru the 3am slump, thats"
        (
            "jobs_to_be_done",
            "i mean its not about the shift really, the coffee is what gets me thru the 3am "
            "slump, thats when i properly crash",
            "the coffee is what gets me thru the 3am slump",
        ),
        # a typed Critical Incident interview lost its incident: only "missed my train" was read
        (
            "critical_incident",
            "ok so the one that stands out, last month the lock on my ebike jammed outside the "
            "station and I missed my train, proper fuming",
            "the lock on my ebike jammed outside the station",
        ),
    ],
)
def test_a_clause_is_quoted_without_the_frames_and_scraps_around_it(
    methods: dict[str, Methodology], method: str, answer: str, quote: str
) -> None:
    quotes = [n.quote for n in extract(methods[method], "commuting", answer, None).nodes]
    assert quote in quotes, quotes


def test_what_a_thing_is_for_leads_from_it(mec: Methodology) -> None:
    # round 184's check-back was put right as "light is for carrying it down the steps ... its
    # the quiet thats for next door": each thing leads to what it is for
    answer = (
        "no not really, the weight is for carrying it down the steps. its the quiet thats for "
        "next door"
    )
    result = extract(mec, "cycling", answer, None)
    links = {(e.source, e.target, e.relation) for e in result.edges}
    assert links == {
        ("weight", "carrying it down the steps", "leads_to"),
        ("quiet", "next door", "leads_to"),
    }, links
    # not a kind of person, nor an idiom: "boots are for people who ...", "it's for me"
    for said in ("Boots are for people who buy a map case.", "The chocolate is for me, my treat"):
        assert not extract(mec, "cycling", said, None).edges, said


def test_another_thing_it_is_too_starts_a_chain_of_its_own(mec: Methodology) -> None:
    # round 184: "... light as anything so I can carry it down the steps and its quiet too so
    # I dont upset next door": the quiet is another thing the mower is, and the check-back read
    # back "light as anything" as why they don't upset next door
    answer = (
        "light as anything so I can carry it down the steps and its quiet too so I dont upset "
        "next door"
    )
    result = extract(mec, "cycling", answer, None)
    links = {(e.source, e.target) for e in result.edges}
    assert links == {
        ("light as anything", "can carry it down the steps"),
        ("quiet", "dont upset next door"),
    }, links


def test_a_check_back_put_right_reads_each_pair_and_drops_what_it_turns_round(
    mec: Methodology,
) -> None:
    # round 185's closing answer: the summary kept "no no its the quiet spin → the telly no
    # the quick wash" and "im no on my pension → less power"
    answer = (
        "no no its the quiet spin thats for the telly no the quick wash, the quick wash is for "
        "the kits. and im no on my pension because of less power haha, its the other way round"
    )
    result = extract(mec, "cooking", answer, None)
    links = {(e.source, e.target) for e in result.edges}
    assert links == {("quiet spin", "telly"), ("quick wash", "kits")}, links
    assert [n.label for n in result.nodes] == ["quiet spin", "telly", "quick wash", "kits"]


def test_an_answer_opened_puzzled_answers_no_question_about_the_focus(mec: Methodology) -> None:
    # round 185: "Sorry, what do you mean by what did that let me do? I only said ..." was
    # linked to the focus it was puzzled by, and the summary read "no train from mine → bus"
    answer = (
        "Sorry, what do you mean by what did that let me do? it was the bus I tried. The bit "
        "that mattered was being scared on the ring road"
    )
    result = extract(mec, "commuting", answer, ("no train from mine", "functional_consequence"))
    assert not [e for e in result.edges if "no train from mine" in (e.source, e.target)]


def test_this_stops_frames_keep_the_links_they_did_not_mean(mec: Methodology) -> None:
    # the review of the "X is for Y" and "too" rules: "it's because" is the plain because, an
    # amount is no thing it is for, and "..., and it's relaxing too" is one more thing the
    # noise cancelling leads to
    def links(answer: str) -> set[tuple[str, str]]:
        return {(e.source, e.target) for e in extract(mec, "headphones", answer, None).edges}

    assert links("The bass is really good, it's because of the big drivers") == {
        ("bass", "big drivers")
    }
    assert links("the 80 quid is for the whole bundle") == set()
    assert ("noise cancelling", "relaxing") in links(
        "the noise cancelling means I can sleep on the train, and it's relaxing too"
    )


def test_a_puzzled_answer_that_says_why_still_answers_the_why(mec: Methodology) -> None:
    result = extract(
        mec,
        "headphones",
        "what? because I commute two hours a day",
        ("noise cancelling", "attribute"),
    )
    assert ("noise cancelling", "commute two hours a day") in {
        (e.source, e.target) for e in result.edges
    }


def test_right_with_its_comma_opens_no_label(mec: Methodology) -> None:
    # round 188: "hang on kettles just boiled, 2 secs. right, id want them to know ..." was
    # the node "right id want them to know"
    from interview_cli.llm.offline.reading.labels import make_label

    assert not make_label("right, the portions are too small", None, None).startswith("right")
    assert make_label("right now the portions are too small", None, None).startswith("right")


def test_a_friend_called_ken_is_no_filler(mec: Methodology) -> None:
    # a lower-case "ken" closing a clause is Scots "you know" ("useless ken", round 185), not
    # a friend typed in lower case
    result = extract(mec, "cooking", "the quick recipes are handy for my mate ken.", None)
    assert result.nodes[0].quote.endswith("my mate ken"), result.nodes


def test_no_label_ends_on_how_near_a_figure_it_was() -> None:
    # round 190 asked "You mentioned that your bill went up to nearly." of "My bill went up to
    # nearly three hundred pound one month"
    ci = Methodology.model_validate(
        load_yaml((ROOT / "methodologies" / "critical_incident.yaml").read_text("utf-8"))
    )
    said = "My bill went up to nearly three hundred pound one month, so I rang them."
    result = extract(ci, "banking", said, None, strategy="deepen_narrative")
    assert [n.label for n in result.nodes][:1] == ["bill went up"]


@pytest.mark.parametrize(
    ("answer", "node_type"),
    [
        # round 194: the hallway was typed a solution and asked "What else did you consider
        # before that?"
        ("In the hallway with my coat half on, the 15 year old asleep upstairs", "job_context"),
        ("At the station kiosk, grabbed a flat white", "job_context"),
        # "it was" closing the clause only turns it round (a review of round 197)
        ("At the school gates it was.", "job_context"),
    ],
)
def test_where_it_was_is_the_circumstance_of_a_job(
    methods: dict[str, Methodology], answer: str, node_type: str
) -> None:
    nodes = extract(methods["jobs_to_be_done"], "commuting", answer, None).nodes
    assert nodes and nodes[0].node_type == node_type, nodes
    # (nor a place where something is done or is so: "At my desk I just use a cheap
    # cafetiere", from the review)
    used = extract(
        methods["jobs_to_be_done"], "commuting", "At my desk I just use a cheap cafetiere", None
    )
    assert [n.node_type for n in used.nodes] == ["solution_approach"], used.nodes
    # (a figure of speech is no place: "in the end" says when it was decided)
    ended = extract(methods["jobs_to_be_done"], "commuting", "In the end I bought a bike", None)
    assert all(n.node_type != "job_context" for n in ended.nodes), ended.nodes


def _read_in_study(
    mec: Methodology, study: str, answer: str, question: str, focus: tuple[str, str]
) -> Any:
    """The offline reading of ``answer`` in a shipped study (its own words name features),
    asked ``question`` about the earlier node ``focus`` (label, type)."""
    from interview_cli.llm.offline.reading.extraction import extract_offline
    from interview_cli.llm.protocol import ExtractRequest, NodeContext

    label, kind = focus
    request = ExtractRequest(
        methodology=mec,
        concept=load_concept(ROOT / "concepts" / f"{study}.yaml").value,
        answer=answer,
        utterance_id="u1",
        question=question,
        existing_labels=[label],
        existing_nodes=[NodeContext(label=label, node_type=kind, quote=label)],
        strategy="deepen",
        focus_label=label,
        focus_type=kind,
    )
    return extract_offline(request)


def test_a_filler_before_a_reason_is_no_word_of_the_study(mec: Methodology) -> None:
    # round 195: "like i want mum to see i've got it handled" named "like" (the phone plan
    # study asks "what they like about it") and was typed a feature below the focus, so the
    # check-back said it mattered "because of" being grown up
    focus = ("feels like being proper grown up", "psychosocial_consequence")
    answer = (
        "it just is?? lol. like i want mum to see i've got it handled, and i want to feel like "
        "i'm not a kid anymore"
    )
    asked = "You mentioned feeling like being a proper grown up. Why is that important?"
    result = _read_in_study(mec, "phone_plan_mec", answer, asked, focus)
    assert all(e.source == focus[0] for e in result.edges), result.edges
    assert all(n.node_type != "attribute" for n in result.nodes), result.nodes


def test_what_goes_wrong_is_a_pain_of_the_job(methods: dict[str, Methodology]) -> None:
    # round 195: "Somebody gets hurt or I lose the job. Both bad" made two solutions and the
    # node "both bad", and asked "You said you lose the job. What does that help you get done?"
    answer = "I just told you? Somebody gets hurt or I lose the job. Both bad"
    nodes = extract(
        methods["jobs_to_be_done"], "cooking", answer, ("dangerous", "pain_point")
    ).nodes
    assert [(n.label, n.node_type) for n in nodes] == [
        ("somebody gets hurt", "pain_point"),
        ("lose the job", "pain_point"),
    ], nodes


def test_means_with_its_subject_left_off_says_what_the_focus_leads_to(mec: Methodology) -> None:
    # round 196: "Means I'm not stood there at 11 at night ... waiting for the spin to finish"
    # named "spin" of the washing machine study, was typed a feature and linked below "can
    # chuck all three kits", and the check-back read the two the wrong way round
    focus = ("can chuck all three kits", "functional_consequence")
    answer = "Means I'm not stood there at 11 at night after a late shift waiting for the spin"
    asked = "You said you can chuck all three kits. What difference does that make for you?"
    result = _read_in_study(mec, "washing_machine_mec", answer, asked, focus)
    assert [(e.source, e.target) for e in result.edges] == [(focus[0], "not stood there at 11")]


def test_being_a_family_is_an_end_in_itself(mec: Methodology) -> None:
    # round 197 asked why "feels like we're still a family" mattered: "Is that a serious
    # question? It's my family"
    answer = "A lot, honestly. It feels like we're still a family that does things together."
    focus = ("only time all sit down together", "psychosocial_consequence")
    nodes = extract(mec, "cooking", answer, focus).nodes
    assert [n.node_type for n in nodes] == ["terminal_value"], nodes


def test_what_a_jobs_interview_was_told_in_round_198_is_heard(
    methods: dict[str, Methodology],
) -> None:
    jtbd = methods["jobs_to_be_done"]
    # what they keep trying to say is where they steer ("the thing I keep trying to tell you
    # about is the bus" went unheard twice)
    said = (
        "What do you mean? I wasn't trying to get anything done, I was trying to save 300 "
        "quid. Look, the thing I keep trying to tell you about is the bus."
    )
    assert extract(jtbd, "commuting", said, None).steer == "bus"
    # the question said not to be the right one lets its focus go
    lift = ("lift in our block is out", "job_context")
    said = "Ha, it's unreliable. Not sure that's the right question though, the lift's just fine."
    read = extract(jtbd, "commuting", said, lift, existing=[(*lift, "the lift is out")])
    assert read.retracted == ["lift in our block is out"], read
    # the question echoed, then a guess at what it meant asked back, is no way chosen; where
    # they live is a circumstance
    floor = ("on the fourth floor", "solution_approach")
    said = "Before the fourth floor? The stairs? I don't get it sorry. We've lived here 2 years."
    asked = "You said you're on the fourth floor. Before that, what did you use?"
    read = extract(
        jtbd, "commuting", said, floor, "probe_alternatives", asked, [(*floor, "fourth floor")]
    )
    assert [(n.label, n.node_type) for n in read.nodes] == [
        ("we've lived here 2 years", "job_context")
    ], read.nodes


def test_a_name_put_right_with_an_apology_is_not_kept(mec: Methodology) -> None:
    # round 198 asked 'You said you put him on the Wellbeing one. Why is that important?'
    said = "So we put him on the Wellbeing one, no sorry, James Wellbeloved, and he was fine!"
    labels = _labels(mec, said, "cooking")
    assert not any("wellbeing" in label for label in labels), labels
    # (not an apology that answers: "No sorry, I don't know")
    said = "I like the fingerprint login, no sorry I don't know why."
    labels = _labels(mec, said, "banking")
    assert "fingerprint login" in labels, labels


def test_the_review_of_round_198s_rules_keeps_the_story(methods: dict[str, Methodology]) -> None:
    ci, jtbd = methods["critical_incident"], methods["jobs_to_be_done"]
    # a staff member's "no sorry" told in the story corrects nothing of theirs
    said = "I asked for a refund and the woman just said, no sorry, that's our policy."
    assert "asked for a refund" in [n.label for n in extract(ci, "banking", said, None).nodes]
    # the day they had, with what it was about, is the story
    said = "I've had a nightmare week with the broadband, support keep cancelling the engineer."
    assert extract(ci, "banking", said, None).nodes
    # a talk told is no request to go back to it
    said = "I was talking about coffee with my brother at Christmas. He got me onto pods."
    assert extract(jtbd, "cooking", said, None).steer is None


def test_a_thing_added_as_the_answer_opens_is_no_answer_to_the_why(mec: Methodology) -> None:
    # a typed interview: "Oh and the quick wash, ..." to "Why is the size of the drum important
    # to you?" was linked up from the drum, and the check-back read it so
    said = "Oh and the quick wash, brilliant for the kids' football kits on a Saturday morning."
    drum = ("size of the drum", "attribute")
    read = extract(mec, "cooking", said, drum, existing=[(*drum, "the size of the drum")])
    assert read.nodes and not [e for e in read.edges if e.source == "size of the drum"], read
    # ("Oh and it means ..." goes on with the why)
    said = "Oh and it means I'm not up till midnight."
    read = extract(mec, "cooking", said, drum, existing=[(*drum, "the size of the drum")])
    assert [e for e in read.edges if e.source == "size of the drum"], read


@pytest.mark.parametrize(
    ("said", "need", "must"),
    [
        # round 217's check-back: '"I've got a bad lower back" bothers you because "it's got to
        # be firm enough"' ("you've got it backwards")
        (
            "I've got a bad lower back from years of lugging a postbag round so it's got to be "
            "firm enough",
            "got bad lower back",
            "got to be firm enough",
        ),
        ("I've got a bad knee so the boots have to have good ankle support", "got a bad knee", ""),
        ("I've got wide feet so they have to be roomy.", "got wide feet", "roomy"),
        # round 218: '"he uses my hotspot for homework" matters to you because of "big data"'
        (
            "My son is 15 and he uses my hotspot for homework. So I need big data",
            "uses my hotspot for homework",
            "big data",
        ),
    ],
)
def test_what_the_thing_must_be_is_the_means_to_what_they_live_with(
    mec: Methodology, said: str, need: str, must: str
) -> None:
    told = extract(mec, "cooking", said, None)
    level = {spec.name: spec.level for spec in mec.ontology.nodes}
    levels = {n.label: level[n.node_type] for n in told.nodes}
    must = must or next(label for label in levels if label != need)
    assert levels[must] < levels[need], levels
    assert (must, need) in {(e.source, e.target) for e in told.edges}, told.edges


def test_what_the_thing_is_said_to_be_is_no_need_of_theirs(mec: Methodology) -> None:
    # (the review: an inference from the thing, or others' duty, keeps its order)
    told = extract(mec, "cooking", "It's memory foam so it's got to be warm", None)
    assert ("memory foam", "got to be warm") in {(e.source, e.target) for e in told.edges}
    less = extract(
        mec, "cooking", "It's a really light frame so I need less effort on the hills", None
    )
    assert ("light frame", "less effort on the hills") in {(e.source, e.target) for e in less.edges}


def test_how_they_are_seen_is_a_social_job_and_standing_on_their_own_an_end(
    mec: Methodology,
) -> None:
    # round 220: "it's not professional like" and "I hated letting her down" were read as pains
    # and the interview climbed from the scripts and the consultants; "we can manage on our own
    # without going cap in hand to the kids" was a functional consequence, climbed no further
    data = load_yaml((ROOT / "methodologies" / "jobs_to_be_done.yaml").read_text("utf-8"))
    jtbd = Methodology.model_validate(data)
    said = (
        "I'm straight into checking scripts and talking to consultants, I can't be standing "
        "there red in the face, it's not professional like. I hated letting her down."
    )
    typed = {n.label: n.node_type for n in extract(jtbd, "commuting", said, None).nodes}
    assert typed["not professional"] == "social_job", typed
    assert typed["hated letting her down"] == "social_job", typed
    said = "I'd like to think we can manage on our own without going cap in hand to the kids."
    typed = {n.label: n.node_type for n in extract(mec, "cooking", said, None).nodes}
    assert typed == {"can manage on our own": "psychosocial_consequence"}, typed
    # ... an independent shop is no value, how the staff are is no conduct of theirs (the review)
    said = "I go to the independent coffee shop. The staff are not professional."
    typed = {n.label: n.node_type for n in extract(mec, "cooking", said, None).nodes}
    assert "terminal_value" not in typed.values() and "instrumental_value" not in typed.values()
    # ... a professional named is no way of being seen
    typed = {
        n.label: n.node_type for n in extract(mec, "cooking", "a professional fitter", None).nodes
    }
    assert typed == {"professional fitter": "attribute"}, typed


def test_what_it_is_how_they_do_is_a_consequence(mec: Methodology) -> None:
    # my own typed interview: "its how he keeps in touch with them" was an attribute linked to
    # nothing, and the question after the request to go back asked why the gaming mattered
    said = "its how he keeps in touch with them"
    typed = {n.label: n.node_type for n in extract(mec, "cooking", said, None).nodes}
    assert typed == {"how he keeps in touch": "functional_consequence"}, typed


def test_a_figure_put_right_as_it_is_said_is_put_in_what_held_it(mec: Methodology) -> None:
    # round 239 kept "bosch 8kg" beside "9kg", and "spin like 1400" after "sorry 1200"
    said = "It's a Bosch 8kg, sorry no, 9kg, I always get that wrong."
    assert _labels(mec, said, "cooking") == ["bosch 9kg"]
    said = "Ours is pretty quiet tbh, the spin is like 1400, sorry 1200 I think, it's fine."
    assert _labels(mec, said, "cooking") == ["spin like 1200"]
    # (not a figure after an apology for something else, nor a count told with "no" in it)
    said = "I paid 40, sorry to say, and it broke in a week."
    assert "40" in " ".join(_labels(mec, said, "cooking"))
    said = "It holds 8kg, no problem, 9 at a push."
    assert "8kg" in " ".join(_labels(mec, said, "cooking"))


def test_what_broke_in_and_a_form_of_address_are_no_elements(mec: Methodology) -> None:
    # round 239 made "radio went", "hen" and "right hen the board's lightin up" nodes
    said = "sorry radio went. its no really just the money to be honest."
    labels = _labels(mec, said, "cooking")
    assert not any("radio" in label for label in labels), labels
    said = "i think i just said that hen haha. it matters cos i feel like somebody cares."
    labels = _labels(mec, said, "cooking")
    assert "hen" not in labels and labels, labels
    said = "right hen the board's lightin up"
    labels = _labels(mec, said, "cooking")
    assert not any("hen" in label.split() for label in labels), labels
    # (a hen of the story, a best mate, the phone said of work)
    for said, kept in (
        ("We keep a hen haha, she lays every day", "hen"),
        ("He's my best mate lol, we ride together", "best mate"),
        ("Sorry, the phone was ringing all day at work so I was stressed", "phone"),
    ):
        labels = _labels(mec, said, "cooking")
        assert any(kept in label for label in labels), (said, labels)


def test_round_240s_remarks_are_no_elements(mec: Methodology) -> None:
    # a goodbye after a leaving found in full; who called them away for a second; the ladder's
    # end said as no deeper answer
    for said, gone in (
        (
            "I think that's most of it really, reliable, cheap to run, safe, big boot. Sorry "
            "I've got to go, it's tea time and there's a fight breaking out over the remote. "
            "Good luck with it",
            "good luck",
        ),
        ("It's just how I am I suppose. sorry, one sec, my youngest wants the ipad", "ipad"),
        ("bit dramatic but yeah. i dont have a deeper answer than that sorry", "deeper"),
    ):
        labels = _labels(mec, said, "cooking")
        assert not any(gone in label for label in labels), (said, labels)
    # (the elements before the leaving stay)
    said = "Reliable and cheap to run. Sorry I've got to go, it's tea time. Good luck with it"
    labels = _labels(mec, said, "cooking")
    assert any("cheap to run" in label for label in labels), labels


def test_the_review_of_round_240s_rules_keeps_what_is_said(mec: Methodology) -> None:
    # "wait" done, "no" of something else, a figure under a condition; food and a mate; "a
    # second" of a thing; guessing as what they do
    for said, kept in (
        ("I fry the onions for 10 mins, wait 2 minutes, then add the garlic", "10 mins"),
        ("I bake at 180, no 200 if it's a fan oven", "180"),
        ("They were 250 quid, no 0% finance or anything", "250"),
        ("Oh duck breast mostly, with a cherry sauce", "duck breast"),
        ("went out with me mate haha, he's much fitter", "mate"),
        ("I had to buy a second, the old one needs a new battery", "battery"),
        ("I'm guessing the timings half the time, that's what stresses me", "guessing"),
    ):
        labels = _labels(mec, said, "cooking")
        assert any(kept in label for label in labels), (said, labels)
    # (and the close variants it was written for)
    said = "It's a Bosch 8kg, sorry no it's 9kg"
    assert _labels(mec, said, "cooking") == ["bosch 9kg"]
    for said, gone in (
        ("sorry phone went lol. its the price really", "phone"),
        ("2 secs the door's going", "door"),
        ("i dont really have a deeper answer than that", "deeper"),
    ):
        labels = _labels(mec, said, "cooking")
        assert not any(gone in label for label in labels), (said, labels)


def test_round_241s_answers_make_no_fragment_nodes(mec: Methodology) -> None:
    # "so its gotta be decent" made the node "gotta", asked "What is it about its gotta that
    # counts for you?"; "you, dear haha" made "dear"
    said = "i have like 5 teas a day in the van so its gotta be decent"
    assert "gotta" not in _labels(mec, said, "cooking")
    said = "Well I've just told you, dear haha. But it's the grandchildren mostly."
    assert "dear" not in _labels(mec, said, "cooking")


def test_someone_of_theirs_named_alone_is_no_element(mec: Methodology) -> None:
    # round 243 asked "What is it about your late husband that counts for you?"
    said = "It was Gerald's lawn really, my late husband. He kept it beautifully for forty years."
    assert "late husband" not in _labels(mec, said, "cooking")
    said = "it's not really about helping me is it, he's my wee boy, you just want him happy"
    assert "wee boy" not in _labels(mec, said, "cooking")
    # (what about them is: "the kids eat it", and "family" is a value)
    assert any("kids" in label for label in _labels(mec, "The kids eat it all", "cooking"))
    assert any("family" in label for label in _labels(mec, "Family's everything", "cooking"))


def test_the_review_of_round_243s_rules_keeps_little_kids_and_finds_a_late_father(
    mec: Methodology,
) -> None:
    # "little" is an age as often as fondness; "late father" is someone who died
    assert any("kids" in label for label in _labels(mec, "Little kids, mostly.", "cooking"))
    said = "It's my late father really, he loved a roast"
    assert "late father" not in _labels(mec, said, "cooking")
