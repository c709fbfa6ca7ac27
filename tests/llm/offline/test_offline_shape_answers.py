"""Real-looking answers to grid and journey questions, read offline: triads answered the way
people answer them, ratings by name, by position and in part, feelings said of a stage; and
no offline question with an empty slot."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.core.models import Extraction
from interview_cli.llm.offline.shapes.common import hollow
from interview_cli.llm.offline.shapes.dispatch import shaped_question
from interview_cli.llm.offline.shapes.grid import extract_grid, grid_question
from interview_cli.llm.offline.shapes.journey import extract_journey, journey_question
from interview_cli.llm.prompts import render_question
from interview_cli.llm.protocol import (
    Exchange,
    ExtractRequest,
    NodeContext,
    ProbeNote,
    QuestionRequest,
)

ROOT = Path(__file__).resolve().parents[3]


def _load(kind: str, name: str) -> Any:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


JOURNEY = Methodology.model_validate(_load("methodologies", "customer_journey"))
GRID = Methodology.model_validate(_load("methodologies", "repertory_grid"))
STAGES = Concept.model_validate(_load("concepts", "grocery_delivery_journey"))
TRANSPORT = Concept.model_validate(_load("concepts", "transport_modes_grid"))
TRIAD = "Think of car, bus and bicycle. In what important way are two of them alike?"
RATE = (
    "On a scale from 1 to 5, where 1 means private and 5 means shared, how would you rate "
    "each of these: car, bus, bicycle, train, walking, e-scooter and taxi?"
)


def _grid(answer: str, **kw: Any) -> Extraction:
    return extract_grid(
        ExtractRequest(methodology=GRID, concept=TRANSPORT, answer=answer, utterance_id="u", **kw)
    )


def _ratings(x: Extraction) -> dict[str, float | None]:
    return {e.source: e.value for e in x.edges if e.relation == "rated"}


# Round 251 typed these to a transport grid and was asked to rate "i get there in work" against
# "odd out i'm not turning", "only for short hops" against "i live in bletchley office", "cost
# nothing" against "costs fortune oh sorry i": a side is the sentence and clause that names its
# element, what is blanked in a label is blanked in a pole, and "the odd one out" lacks the pole
TYPED = [
    (
        "Car and bus are alike because I can get there in work clothes without arriving sweaty, "
        "the bike is the odd one out. I'm not turning up to a client meeting looking like I've "
        "done a spin class haha.",
        "can get there in work clothes vs can't get there in work clothes",
    ),
    (
        "Walking and e-scooter are both only for short hops, I live in Bletchley and the office "
        "is in central MK, about 5 miles, so neither is realistic. The train is different "
        "because it runs to a timetable, so I can plan my morning to the minute.",
        "only for short hops vs runs to a timetable",
    ),
    (
        "Taxi and car are door to door, and I can drop the kids at school at 8:15 on the way, "
        "with the bus I'd have to walk them to school then walk to the stop and wait. Having "
        "said that a taxi is about £14 each way, so roughly £600 a month, which is ridiculous.",
        "door to door vs walk them to school",
    ),
    (
        "Bicycle and walking cost nothing, taxi costs a fortune. Oh and sorry, I said £14 for "
        "the taxi earlier, I checked and it's £12 each way, still silly money.",
        "cost nothing vs costs fortune",
    ),
    (
        "Bus and walking both leave me at the mercy of something, the bus timetable or just how "
        "long it takes on foot, whereas in the car I'm in control. That matters in the evening.",
        "leave me at mercy of something vs i'm in control",
    ),
    # round 252: whose it is ("you're") and a "like" closing it are no part of a pole
    (
        "Ah well the car and the bus are the same in that you're just sat there stuck in "
        "traffic on the Douglas road going nowhere, the bike you're actually moving like.",
        "sat there stuck in traffic vs moving",
    ),
    (
        "bike and walking you're using the body, taxi you're just sat in the back.",
        "using body vs sat in back",
    ),
    # round 253: an element typed without its hyphen is named ("Escooter")
    (
        "Train and walking you can basically switch your brain off. Escooter you have to "
        "actually concentrate on the road and after 12 hrs awake I dont trust myself on one",
        "switch your brain off vs concentrate on the road",
    ),
    # (review rv53: the pair named in a sentence of its own; a side that only denies the pole)
    (
        "car and bike. both go when I want to go. bus goes when it wants to go haha",
        "go when i want to go vs goes when wants to go",
    ),
    ("Car and bus are enclosed, the bike isn't.", "enclosed vs not enclosed"),
    # (round 278: an aside about the third first, then the pair; an element's "'s")
    (
        "hmm I don't really cycle to be honest, haven't been on a bike in years haha. but ok car "
        "and bike you go when you want, the bus you're stuck with whenever it turns up",
        "you go when you want vs stuck with whenever turns up",
    ),
    (
        "car & bus both get stuck in traffic, bike doesnt",
        "get stuck in traffic vs not get stuck in traffic",
    ),
]


def test_a_rating_of_an_element_typed_without_its_hyphen_counts() -> None:
    # round 253 asked for the e-scooter's rating twice more after "escooter 2"
    x = _grid(
        "car 1, bus 5, bike 1, train 4, walking 1, escooter 2 cos theres none near, taxi 2",
        strategy="rate_elements",
        focus_label="private vs shared",
        focus_type="construct",
    )
    assert _ratings(x)["e-scooter"] == 2.0


@pytest.mark.parametrize(("answer", "construct"), TYPED)
def test_triad_answers_typed_as_people_talk(answer: str, construct: str) -> None:
    x = _grid(answer, question=TRIAD)
    assert [n.label for n in x.nodes if n.node_type == "construct"] == [construct]


@pytest.mark.parametrize(
    ("answer", "construct", "ratings"),
    [
        (
            "The car and the bicycle are both private, the bus is shared with strangers.",
            "private vs shared with strangers",
            {"car": 1, "bicycle": 1, "bus": 5},
        ),
        (
            "The car and the bicycle are private; the bus is shared.",
            "private vs shared",
            {"car": 1, "bicycle": 1, "bus": 5},
        ),
        ("Car and bike: flexible. Bus: timetable.", "flexible vs timetable", None),
        ("Car and bicycle are private and the bus is shared", "private vs shared", None),
        (
            "The bus is shared with strangers, the car and the bike are private.",
            "private vs shared with strangers",
            {"car": 1, "bicycle": 1, "bus": 5},
        ),
        (
            "Car and bike both go whenever I want - the bus runs to a timetable.",
            "go whenever i want vs runs to timetable",
            None,
        ),
        # An element outside the triad but in the concept is rated too.
        (
            "The car and the train are fast, the bus is slow.",
            "fast vs slow",
            {"car": 1, "train": 1, "bus": 5},
        ),
        # The contrast words still split when no clause names the third; the triad's
        # element left unnamed is the third.
        (
            "The car and the bicycle are private, the third is shared.",
            "private vs shared",
            {"car": 1, "bicycle": 1, "bus": 5},
        ),
        (
            "The car and the bus are both motorised, while the bicycle is human powered.",
            "motorised vs human powered",
            {"car": 1, "bus": 1, "bicycle": 5},
        ),
        # round 283: a denial then what it is instead, a lead-in, a side that only affirms
        (
            "Car and bike both go when I want them to go, the bus doesnt, you're stuck with "
            "the timetable. That matters to me because I open the pharmacy at half 8",
            "go when i want to go vs stuck with timetable",
            None,
        ),
        (
            "Look I'm going to have to stop there, sorry. Quickly: bus and walking are cheap, "
            "car isn't. That's me done, thanks",
            "cheap vs not cheap",
            None,
        ),
        (
            "e-scooter and bike you can't carry anything, car you can.",
            "can't carry anything vs can carry anything",
            {"e-scooter": 1, "bicycle": 1, "car": 5},
        ),
        (
            "train and bus dont need parking, the car does",
            "dont need parking vs need parking",
            None,
        ),
        (
            "car and bike go door to door, the bus doesn't, but I don't mind that",
            "go door to door vs not go door to door",
            None,
        ),
        # round 285: an opener is no pole, an "it" after its preposition stays, and a side is
        # its element's clause
        (
            "Well car and bus both have an engine and a roof over your head, bike you're out in "
            "it. And in Bradford it's always chucking it down",
            "engine and roof over your head vs out in it",
            None,
        ),
        (
            "Train and walking are safe. Scooter's a death trap, I'm 47 not 17",
            "safe vs death trap",
            None,
        ),
        # (review rv66: a clause that says nothing of its element is no side of its own)
        (
            "Bus and train you have to wait around. The taxi though, you just go whenever you "
            "want.",
            "have to wait around vs though you go whenever you want",
            None,
        ),
    ],
)
def test_triad_answers_people_give(
    answer: str, construct: str, ratings: dict[str, int] | None
) -> None:
    x = _grid(answer, question=TRIAD)
    assert [n.label for n in x.nodes if n.node_type == "construct"] == [construct]
    if ratings is not None:
        assert _ratings(x) == {k: float(v) for k, v in ratings.items()}


@pytest.mark.parametrize(
    "answer", ["I don't know", "3", "1 2 3", "car and bus", "1 for car, 2 for bus", ""]
)
def test_triad_answers_without_two_sides_give_nothing(answer: str) -> None:
    x = _grid(answer, question=TRIAD)
    assert not x.extractable and not x.nodes


FOCUS = {"strategy": "rate_elements", "focus_label": "private vs shared", "focus_type": "construct"}


@pytest.mark.parametrize(
    ("answer", "question", "ratings"),
    [
        (
            "1 2 5 4 1 2 3",
            RATE,
            dict(
                zip(
                    ["car", "bus", "bicycle", "train", "walking", "e-scooter", "taxi"],
                    [1, 2, 5, 4, 1, 2, 3],
                    strict=True,
                )
            ),
        ),
        ("1, 2, 5, 4, 1, 2 and 3", RATE, {"car": 1, "bus": 2, "taxi": 3}),
        ("car 1, bus 2, bicycle 5", RATE, {"car": 1, "bus": 2, "bicycle": 5}),
        (
            "1 for the car, 2 for the bus, five for the bike",
            RATE,
            {"car": 1, "bus": 2, "bicycle": 5},
        ),
        # partial: the first ones, in the order the question listed them
        ("I'd say 1 2 5", RATE, {"car": 1, "bus": 2, "bicycle": 5}),
        # a question listing the rest: numbers go to those, in its order
        (
            "4 1",
            "And the others, from 1 for private to 5 for shared: how would you rate "
            "train and walking?",
            {"train": 4, "walking": 1},
        ),
        # seven numbers after a question that listed only some: the concept's order
        ("1 2 5 4 1 2 3", "And the others: train and walking?", {"car": 1, "taxi": 3}),
        # round 283: the rest said at once, and names in a row sharing a number
        (
            "Well only the car really has a parking problem. Car 5, bike 2 cos you still need "
            "somewhere to lock it, everything else 1. Oh and sorry I said 7 quid, it's 6.50",
            RATE,
            {"car": 5, "bicycle": 2, "bus": 1, "train": 1, "taxi": 1},
        ),
        (
            "sorry what? do you mean how active is each one? if so bike 1, walking 1, e-scooter "
            "3 I guess you stand, car 4 you're driving at least, bus train taxi 5",
            RATE,
            {"bicycle": 1, "e-scooter": 3, "car": 4, "bus": 5, "train": 5, "taxi": 5},
        ),
        ("bus and train 5, car 1", RATE, {"bus": 5, "train": 5, "car": 1}),
        # review rv65: what is excepted, numbers one each, a count that is no rating
        (
            "car 5, everything else 1 except maybe the train",
            RATE,
            {"car": 5, "bus": 1, "train": None},
        ),
        ("train bus 3 4", RATE, {"train": 3, "bus": 4}),
        ("car bike 5 and 4", RATE, {"car": 5, "bicycle": 4}),
        ("I get the bus or train 3 times a week, car 5", RATE, {"bus": None, "car": 5}),
    ],
)
def test_rating_answers_by_name_by_position_and_in_part(
    answer: str, question: str, ratings: dict[str, int | None]
) -> None:
    got = _ratings(_grid(answer, question=question, **FOCUS))
    want = {k: None if v is None else float(v) for k, v in ratings.items()}
    assert {k: got.get(k) for k in ratings} == want


@pytest.mark.parametrize(
    ("answer", "label"),
    [
        # round 283 laddered "i did say, i'm the pharmacist, the shop" as a value
        (
            "I did say, I'm the pharmacist, the shop legally can't open without me in the "
            "building. If the bus is 20 mins late there's a queue of people outside",
            "i'm the pharmacist, the shop legally can't open",
        ),
        # (holes the blanking left are no part of it: review rv66 read "i hate being late, , it
        # stresses me")
        ("Because I hate being late, to be honest, it stresses me out.", "hate being late"),
    ],
)
def test_a_reason_for_a_construct_is_named_as_a_label_is(answer: str, label: str) -> None:
    x = _grid(
        answer,
        question="Why does that difference matter to you: go when i want, or stuck with timetable?",
        strategy="ladder_construct",
        focus_label="go when i want vs stuck with timetable",
        focus_type="construct",
    )
    assert [n.label for n in x.nodes] == [label]


@pytest.mark.parametrize(
    ("last", "owned"),
    [
        # round 286: a journey asked on after a call away, and a grid after a puzzle
        ("The delivery bit. Sorry hang on my little one's shouting for me", "Okay,"),
        ('sorry what does that mean, "drops you wherever"? like is 5 the bus?', "Sorry,"),
        ("Well I just told you, milk and yoghurts missing haha", "Sorry,"),
        # (answered: nothing to own)
        ("The delivery bit, the driver came while I was at the school gates", ""),
    ],
)
def test_a_shaped_question_owns_what_the_last_answer_wants_owned(last: str, owned: str) -> None:
    recent = [Exchange(question="Which step took the most out of you?", answer=last)]
    text = shaped_question(_question("explore_feelings", JOURNEY, recent=recent))
    assert text is not None
    assert text.startswith(owned) if owned else not text.startswith(("Sorry,", "Okay,"))


def test_a_request_to_go_back_names_the_construct() -> None:
    # round 283's grid showed the next triad after "Can we go back to the parking thing"
    constructs = [
        NodeContext(label="do something vs sit there", node_type="construct"),
        NodeContext(
            label="don't have to park vs parking near shop is nightmare",
            node_type="construct",
            quote="Taxi and bus, you don't have to park. Car you do",
        ),
    ]
    x = _grid(
        "bus 5 train 5. Can we go back to the parking thing though, it's not really the money",
        question=RATE,
        existing_nodes=constructs,
        **FOCUS,
    )
    assert x.steer == "don't have to park vs parking near shop is nightmare"
    assert _grid("bus 5 train 5", question=RATE, existing_nodes=constructs, **FOCUS).steer is None
    # (a question of theirs goes back nowhere: review rv66)
    asked = "car 2 bus 4. What happens when the trains break down, do I count that?"
    assert _grid(asked, question=RATE, existing_nodes=constructs, **FOCUS).steer is None


def test_more_numbers_than_elements_is_said_not_guessed() -> None:
    x = _grid("1 2 3 4 5 1 2 3", question=RATE, **FOCUS)
    assert not x.extractable and x.reason == "8 numbers for 7 elements: whose is which?"
    x = _grid("3 1 1 5 2", question="And the others: bicycle and taxi?", **FOCUS)
    assert not x.extractable and x.reason == "5 numbers for 2 elements: whose is which?"


def _question(strategy: str, methodology: Methodology = GRID, **kw: Any) -> QuestionRequest:
    concept = TRANSPORT if methodology is GRID else STAGES
    return QuestionRequest(
        methodology=methodology, concept=concept, strategy=methodology.strategy(strategy), **kw
    )


@pytest.mark.parametrize("strategy", ["rate_elements", "ladder_construct"])
@pytest.mark.parametrize(
    "focus",
    [
        {},
        {"focus_label": ""},
        {"focus_label": "  "},
        {"focus_label": "car", "focus_type": "element"},
        {"focus_label": " vs shared", "focus_type": "construct"},
    ],
)
def test_a_grid_question_about_no_construct_is_the_next_triad(
    strategy: str, focus: dict[str, Any]
) -> None:
    text = shaped_question(_question(strategy, **focus))
    assert text is not None and not hollow(text)
    assert "two" in text and "means" not in text and "matter" not in text


def test_the_rating_question_asks_for_the_rest_once_asked() -> None:
    first = grid_question(
        _question(
            "rate_elements",
            focus_label="private vs shared",
            focus_type="construct",
            rated_elements=["car", "bus", "bicycle"],
        )
    )
    assert first is not None and first.endswith("e-scooter and taxi?") and "car" in first
    again = grid_question(
        _question(
            "rate_elements",
            focus_label="private vs shared",
            focus_type="construct",
            rated_elements=["car", "bus", "bicycle", "train", "walking"],
            probes=[ProbeNote(turn=1, strategy="rate_elements", outcome="new_rung")],
        )
    )
    assert again == (
        "And the others, from 1 for private to 5 for shared: how would you rate e-scooter and taxi?"
    )


@pytest.mark.parametrize(
    "text",
    [
        "On a scale from 1 to 5, where 1 means  and 5 means not , how would you rate: car?",
        "Why does  matter to you?",
        'You mentioned that "". What would have helped?',
        "Now place each of them between  (1) and  (5): car.",
    ],
)
def test_hollow_questions_are_recognised(text: str) -> None:
    assert hollow(text)


def test_journey_questions_about_no_stage_walk_on() -> None:
    for strategy in ("map_steps", "explore_feelings", "probe_pain"):
        text = journey_question(_question(strategy, JOURNEY, focus_label=" "))
        assert text is not None and not hollow(text)
        assert "choosing a delivery slot" in text and "feel" not in text


def test_with_every_stage_told_the_journey_asks_what_mattered_never_the_next_step() -> None:
    # Round 39: "And after that, what was the next step?" five times after "I put it away and
    # that is it really, til next week" (every stage told)
    told = [s.label for s in STAGES.elements]
    asked: list[str] = []
    for turn in range(9):
        request = _question(
            "map_steps", JOURNEY, focus_label=" ", covered_labels=told, turn_number=turn
        )
        text = journey_question(request.model_copy(update={"avoid_questions": asked}))
        assert text is not None and "next" not in text.lower(), text
        asked.append(text)
    assert len(set(asked[:6])) == 6, asked  # no wording again while another is left
    # round 51: then the one asked longest ago, never the last one again ("Which part of it
    # took the most out of you?" twice in a row: "Is this thing stuck?")
    assert asked[6:9] == asked[0:3], asked
    # round 61: no "it" with nothing to stand for ("If you could change one part of it, which
    # would it be?" - "Part of what?")
    assert not [q for q in asked if re.search(r"\bof it\b", q)], asked


@pytest.mark.parametrize(
    ("strategy", "before"),
    [
        # Round 61: "What happened next, when it came to checkout and payment?", then "What
        # did you do at checkout and payment, step by step?" - "Erm I just told you"
        ("map_steps", "What happened next, when it came to {stage}?"),
        # Round 73: "What was unpacking and substitutions like for you?", then "How did
        # unpacking and substitutions feel for you at the time?" - "you keep asking me the
        # same thing"
        ("explore_feelings", "What was {stage} like for you?"),
    ],
)
def test_a_stage_is_not_asked_what_it_was_just_asked(strategy: str, before: str) -> None:
    labels = [s.label for s in STAGES.elements]
    told, stage = labels[:3], labels[2]
    asked = before.format(stage=stage)
    request = _question(
        strategy, JOURNEY, focus_label=stage, covered_labels=told, avoid_questions=[asked]
    )
    text = journey_question(request)
    assert text is not None and stage not in text and labels[3] in text, text
    # ... asked about after two other questions, it is asked; another stage's ask is no repeat
    later = ["What did you do next?", "How was that?"]
    request = request.model_copy(update={"avoid_questions": [asked, *later]})
    assert stage in (journey_question(request) or "")
    other = request.model_copy(update={"avoid_questions": [asked.replace(stage, labels[1])]})
    assert stage in (journey_question(other) or "")


def test_a_stage_is_not_asked_how_it_felt_again_a_question_later() -> None:
    # Round 74: "How did unpacking and substitutions feel for you at the time?", a question
    # on checkout, then "Thinking about unpacking and substitutions, what were you feeling?" -
    # "mate you asked me that like two questions ago"
    labels = [s.label for s in STAGES.elements]
    stage = labels[4]
    asked = [f"How did {stage} feel for you at the time?", "What did you do at checkout?"]
    request = _question(
        "explore_feelings", JOURNEY, focus_label=stage, covered_labels=labels, avoid_questions=asked
    )
    assert stage not in (journey_question(request) or ""), journey_question(request)


def test_a_request_to_go_back_to_a_stage_is_followed_and_said_so() -> None:
    # Round 73: "Can we go back to the substitution thing though" was read as the pain point
    # that said "substitute", and the next question said "Let's move on to unpacking and
    # substitutions"
    labels = [s.label for s in STAGES.elements]
    answer = "A text would help. Can we go back to the substitution thing though, it matters more."
    x = _told(
        answer,
        question="You talked about the eggs. What would have made that better?",
        focus_label="the eggs were gone",
        focus_type="pain_point",
        existing_labels=["i always tick the do not substitute box", labels[3]],
        existing_nodes=[],
    )
    assert x.steer == "unpacking and substitutions"
    assert "unpacking and substitutions" in {n.label for n in x.nodes}
    request = _question(
        "map_steps",
        JOURNEY,
        focus_label="unpacking and substitutions",
        covered_labels=[*labels[:4], "unpacking and substitutions"],
        answers=[answer],
    )
    text = journey_question(request) or ""
    assert text.startswith("Sure, back to the substitution thing. "), text
    # ... whatever was asked of it before (review), and the same question after its lead is
    # the same question
    asked = ["What did you do at unpacking and substitutions, step by step?", "And then?"]
    before = request.model_copy(update={"avoid_questions": asked})
    assert (journey_question(before) or "").startswith("Sure, back to the substitution thing. ")
    after = request.model_copy(update={"answers": [answer, "ok"], "avoid_questions": [text]})
    assert (journey_question(after) or "").split(". ", 1)[-1] != text.split(". ", 1)[-1]
    # a word two stages share names neither ("the delivery" is a stage, so is the slot)
    x = _told(
        "Can we go back to the driver being rude at the delivery though?",
        existing_labels=["driver was rude"],
        existing_nodes=[],
    )
    assert x.steer != "choosing a delivery slot", x.steer


BASKET = "And then it came to filling the basket. What did you do there?"


@pytest.mark.parametrize(
    ("answer", "feeling", "value"),
    [
        ("Then I fill the basket, that was tedious and annoying.", "tedious", -1.0),
        ("I added the usual things. I was cross.", "cross", -1.0),
        ("I used my favourites list and it felt easy.", "easy", 1.0),
        ("Adding everything took ages, it's so fiddly on the phone.", "fiddly", -1.0),
        ("I searched for each item, which was a real hassle.", "hassle", -1.0),
        ("Honestly it was a breeze, I just reordered last week's shop.", "breeze", 2.0),
        ("I got really annoyed because the search kept showing the wrong things.", "annoyed", -1.0),
        ("That part was straightforward, I ticked off my shopping list.", "straightforward", 1.0),
    ],
)
def test_feelings_said_of_a_stage_are_its_emotion(answer: str, feeling: str, value: float) -> None:
    x = extract_journey(
        ExtractRequest(
            methodology=JOURNEY, concept=STAGES, answer=answer, utterance_id="u", question=BASKET
        )
    )
    felt = [(e.source, e.target, e.value) for e in x.edges if e.relation == "felt"]
    assert felt[:1] == [("filling the basket", feeling, value)]


@pytest.mark.parametrize("answer", ["I don't know", "42", "1 2 3", "no idea", "...", "not sure"])
def test_a_journey_answer_that_tells_nothing_is_not_a_stage(answer: str) -> None:
    x = extract_journey(
        ExtractRequest(
            methodology=JOURNEY, concept=STAGES, answer=answer, utterance_id="u", question=BASKET
        )
    )
    assert not x.extractable and not x.nodes


def test_a_model_writing_the_rating_question_is_told_what_is_rated() -> None:
    request = _question(
        "rate_elements",
        focus_label="private vs shared",
        focus_type="construct",
        rated_elements=["car", "bus"],
    )
    assert "Already rated on it: car, bus; still to rate: " in render_question(request).user


CHECKOUT = "And then it came to checkout and payment. What did you do there?"


@pytest.mark.parametrize(
    ("answer", "feeling", "other"),
    [
        (
            "It was annoying that the evening slots were gone.",
            "annoying",
            ("pain_point", "the evening slots were gone"),
        ),
        ("I typed in my card and it was fine.", "fine", ("action", "typed in my card")),
        (
            "It was all a bit of a hassle, the app kept logging me out.",
            "hassle",
            ("pain_point", "the app kept logging me out"),
        ),
        (
            "I was a bit stressed because the website crashed twice.",
            "stressed",
            ("pain_point", "the website crashed twice"),
        ),
    ],
)
def test_a_feeling_and_what_else_the_clause_tells(
    answer: str, feeling: str, other: tuple[str, str]
) -> None:
    x = extract_journey(
        ExtractRequest(
            methodology=JOURNEY, concept=STAGES, answer=answer, utterance_id="u", question=CHECKOUT
        )
    )
    felt = [(e.source, e.target) for e in x.edges if e.relation == "felt"]
    assert felt == [("checkout and payment", feeling)]
    assert other in {(n.node_type, n.label) for n in x.nodes}


def _told(answer: str, **kw: Any) -> Extraction:
    """A journey answer read after "What would have helped?", the slot stage told before
    (``kw`` overrides the request's fields)."""
    from interview_cli.llm.protocol import NodeContext

    stage = JOURNEY.journey.stage_type if JOURNEY.journey else ""
    earlier = [NodeContext(label="choosing a delivery slot", node_type=stage, quote="slot")]
    fields: dict[str, Any] = {
        "question": "What would have helped?",
        "existing_labels": ["choosing a delivery slot"],
        "existing_nodes": earlier,
        **kw,
    }
    return extract_journey(
        ExtractRequest(
            methodology=JOURNEY, concept=STAGES, answer=answer, utterance_id="u1", **fields
        )
    )


def test_a_journey_hears_a_request_to_go_back_and_a_remark_on_the_question() -> None:
    # Round 30 (Hannah): the journey asked what would have helped when "can we go back to the
    # slot thing from earlier", and when "that was me asking a question, not a problem"
    back = _told(
        "can we go back to the slot thing from earlier? honestly it's like concert tickets"
    )
    assert back.steer == "choosing a delivery slot"
    assert not any("go back" in n.label for n in back.nodes), back.nodes
    for remark in (
        "that was me asking a question, not a problem. the delivery never came on his birthday",
        "that bit isnt a problem, its just when i do it. i add stuff in the school pickup queue",
    ):
        labels = [n.label for n in _told(remark).nodes]
        assert not any("problem" in label or "question" in label for label in labels), labels


def _pain_question(focus: str, answers: list[str], **kw: Any) -> QuestionRequest:
    """A journey's "what would have helped?" about the pain point ``focus``."""
    return QuestionRequest(
        methodology=JOURNEY,
        concept=STAGES,
        strategy=next(s for s in JOURNEY.strategies if s.family == "obstacle"),
        focus_label=focus,
        focus_type=JOURNEY.journey.pain_type if JOURNEY.journey else None,
        answers=answers,
        **kw,
    )


def test_a_journey_question_says_its_focus_back_only_in_their_words() -> None:
    # Round 30: 'What would have helped when "are where it goes wrong, like last month they
    # swapped"?': a label quoted on trust, cut mid-sentence
    request = _pain_question(
        "are where it goes wrong, like last month they swapped",
        ["ugh, substitutions are where it goes wrong, like last month they swapped oat milk"],
        turn_number=5,
    )
    question = journey_question(request)
    assert question is not None and "are where it goes wrong" not in question, question
    assert '"' not in question or "swapped oat milk" in question, question


def test_a_question_that_walks_on_tells_its_stage_whatever_the_focus() -> None:
    # Round 31 (Malik): a pain with nothing sure to say of it walked the journey on to
    # checkout, but the answer was read as about that pain, so checkout was never told and
    # was asked about three times
    told = _told(
        "Fine to be honest. Card is saved so its quick.",
        question="Let's move on to checkout and payment. How did that part go?",
        focus_label="i never found it tbh",
        focus_type=JOURNEY.journey.pain_type if JOURNEY.journey else None,
    )
    assert "checkout and payment" in [n.label for n in told.nodes]


def test_a_journey_step_is_its_clause_head_and_a_question_back_tells_nothing() -> None:
    # Round 45 (Margaret): "Sorry, cannot abide what?" was a pain point asked about twice, and
    # the steps read back were clauses to ten words: "the very beginning was really my
    # daughter, she set"
    puzzled = _told("Sorry, cannot abide what? I meant the oat milk.")
    assert not any("abide" in n.label for n in puzzled.nodes), puzzled.nodes
    told = _told(
        "Last week I logged in myself and picked a tuesday morning slot, 10 till 11, because "
        "I like to have the morning free.",
        question="And then what did you do?",
    )
    labels = [n.label for n in told.nodes]
    assert "picked a tuesday morning slot" in labels, labels
    assert not any("," in label for label in labels), labels


@pytest.mark.parametrize(
    ("answer", "kind", "label"),
    [
        # Round 273 (Sunita): every feeling and step of hers was a step cut mid-clause, and
        # each stage was asked how it felt after she had said
        ("bit stressed to be honest, its like a race", "emotion", "stressed"),
        ("fine mostly, i always look at the total", "emotion", "fine"),
        ("easy enough, i did it sat on the sofa with a cuppa", "emotion", "easy"),
        ("it was about 140 quid which made me wince a bit", "emotion", "wince"),
        (
            "i always look at the total before i pay cos its easy to go over",
            "action",
            "always look at the total before i pay",
        ),
        (
            "i get one proper day off most weeks and i want to spend it with him",
            "action",
            "get one proper day off most weeks",
        ),
        (
            "its just the faff of getting a decent time when your working lates",
            "pain_point",
            "its just the faff of getting a decent time",
        ),
        # round 274 (Graham): "fed up" whole, and pleased with himself a feeling too
        ("Fed up mostly. I kept having to go in and check on her", "emotion", "fed up"),
        ("Quite pleased with myself to be honest, apart from the soup", "emotion", "pleased"),
        # ("so" a degree, not a cue: one step, not "the evening ones go" and "fast ...")
        ("the evening ones go so fast", "action", "the evening ones go so fast"),
    ],
)
def test_a_journey_answer_typed_as_people_type(answer: str, kind: str, label: str) -> None:
    told = _told(answer, question="How did that part go?")
    assert (kind, label) in {(n.node_type, n.label) for n in told.nodes}, told.nodes


def test_a_journey_question_asked_every_way_already_walks_on() -> None:
    # Round 46 (Aisha): "You talked about the app. What would have helped there?" three times,
    # the last after "you literally just asked that"
    request = _pain_question(
        "app",
        ["the app never told me it was a different size, the app itself is fine mostly"],
        covered_labels=["choosing a delivery slot", "filling the basket"],
        turn_number=9,
    )
    first = journey_question(request)
    assert first is not None and "app" in first, first
    asked = [journey_question(request.model_copy(update={"turn_number": t})) for t in range(4)]
    done = request.model_copy(update={"avoid_questions": [q for q in asked if q]})
    walked = journey_question(done)
    assert walked is not None and walked not in asked, walked
    assert "checkout and payment" in walked, walked
    # round 51: nor is it asked about again in other words ("You said it was gone. What would
    # have made that better?" - "Didnt you already ask me that?")
    once = request.model_copy(update={"avoid_questions": [first]})
    again = journey_question(once)
    assert again is not None and "app" not in again, again


def test_how_a_stage_felt_is_asked_in_other_words_at_the_next_stage() -> None:
    # Round 69: "Thinking back to {stage}, how did you feel at that point?" at four stages:
    # "Didnt you ask me that already?"
    labels = [s.label for s in STAGES.elements]
    asked: list[str] = []
    for turn, stage in enumerate(labels):
        request = _question(
            "explore_feelings", JOURNEY, focus_label=stage, covered_labels=labels, turn_number=turn
        )
        text = journey_question(request.model_copy(update={"avoid_questions": asked}))
        assert text is not None and stage in text and "during" not in text, text
        asked.append(text)
    wordings = {q.replace(stage, "{stage}") for q, stage in zip(asked, labels, strict=True)}
    assert len(wordings) == min(len(labels), 4), asked


def test_a_journey_pain_said_as_a_condition_keeps_its_words() -> None:
    # Round 274 (Graham): a pain opening with "if" was cut to nothing, and the reading of the
    # answer failed ("If they come late and the carer is here ..., I can't be at the door")
    told = _told(
        "Bit anxious I suppose. If they come late and the carer is here and the wife needs "
        "seeing to, I can't be at the door with crates of shopping.",
        question="How did you feel at that point?",
    )
    kinds = {(n.node_type, n.label) for n in told.nodes}
    assert ("emotion", "anxious") in kinds, kinds
    assert all(n.label for n in told.nodes), told.nodes
    assert any(n.node_type == "pain_point" and "door" in n.label for n in told.nodes), kinds


def test_a_journey_closed_as_they_leave_lets_them_go() -> None:
    # Round 274 (Graham): "Anyway I'll have to stop there I'm afraid, I can hear Jean calling"
    # was answered "Let me check I have the whole story: ... did I miss a step that mattered?"
    closing = next(s for s in JOURNEY.strategies if s.generates_closing_question)
    request = QuestionRequest(
        methodology=JOURNEY,
        concept=STAGES,
        strategy=closing,
        covered_labels=["choosing a delivery slot", "filling the basket"],
        answers=["Anyway I'll have to stop there I'm afraid, I can hear Jean calling"],
        turn_number=14,
        closing=True,
        leaving=True,
    )
    question = journey_question(request)
    assert question is not None and "let you go" in question.lower(), question
    assert "miss a step" not in question, question
    assert "choosing a delivery slot" in question, question
