"""Piped offline grid and journey interviews with the answers real people give: natural triad
answers, ratings by position and in part, feelings said in passing, and awkward answers
(nothing, "I don't know", numbers alone, an element not shown). No question may have an empty
slot, and ``replay --verify`` holds."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interview_cli.cli.app import app

EMPTY_SLOT = re.compile(
    r"\s{2}|means\s+and|means not\s*[,.]|Why does\s+matter|\"\"|''|\(\s*\)|\s[,?.]"
)


def _interview(tmp: Path, concept: str, answers: list[str], max_turns: int) -> dict[str, Any]:
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "run",
            "-c",
            concept,
            "--provider",
            "offline",
            "--max-turns",
            str(max_turns),
            "--no-rating",
            "--sessions-dir",
            str(tmp),
        ],
        input="".join(a + "\n" for a in answers),
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    (path,) = tmp.glob("*.json")
    verify = runner.invoke(app, ["replay", "--verify", str(path)], catch_exceptions=False)
    assert verify.exit_code == 0, verify.output
    assert "reproduced exactly" in verify.stdout.replace("\n", " ")
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    questions = [t["question"]["text"] for t in doc["turns"]]
    if doc.get("closing"):
        questions.append(doc["closing"]["question"])
    for question in questions:
        assert question.strip() and not EMPTY_SLOT.search(question), question
    return doc


def _ratings(doc: dict[str, Any], construct: str) -> dict[str, float]:
    labels = {n["id"]: n["label"] for n in doc["graph"]["nodes"]}
    return {
        labels[link["source"]]: link["relations"]["rated"]["value"]
        for link in doc["graph"]["links"]
        if "rated" in link["relations"] and labels[link["target"]] == construct
    }


@pytest.mark.parametrize(
    ("concept", "answers"),
    [
        # empty lines, don't-knows, numbers alone, elements unmatched (one alone, or none of
        # the concept's), punctuation
        (
            "transport_modes_grid",
            [
                "",
                "I don't know",
                "3",
                "1 2 3",
                "the train",
                "The tram and the metro are fast, the ferry is slow.",
                "...",
                "42",
            ],
        ),
        (
            "grocery_delivery_journey",
            ["", "I don't know", "42", "1 2 3", "no idea", "...", "not sure", "7"],
        ),
    ],
)
def test_awkward_answers_never_leave_an_empty_slot(
    concept: str, answers: list[str], tmp_path: Path
) -> None:
    doc = _interview(tmp_path, concept, answers, 7)
    if concept == "transport_modes_grid":
        # With no construct to rate or ladder, each follow-up shows another triad.
        follow_ups = [t["question"] for t in doc["turns"][1:]]
        assert {q["strategy"] for q in follow_ups} == {"elicit_construct"}
        assert len({q["text"] for q in follow_ups}) == len(follow_ups)
    assert not [n for n in doc["graph"]["nodes"] if n["node_type"] not in ("stage",)]


def test_a_natural_triad_answer_then_ratings_by_position_and_in_part(tmp_path: Path) -> None:
    doc = _interview(
        tmp_path,
        "transport_modes_grid",
        [
            "The car and the bicycle are both private, the bus is shared with strangers.",
            "1 2 5 4 1 2 3",
            "The train and walking: relaxing. The e-scooter: stressful.",
            "car 4, bus 3",
            "3 2",
        ],
        6,
    )
    private = _ratings(doc, "private vs shared with strangers")
    assert private == {
        "car": 1.0,
        "bus": 2.0,
        "bicycle": 5.0,
        "train": 4.0,
        "walking": 1.0,
        "e-scooter": 2.0,
        "taxi": 3.0,
    }
    relaxing = _ratings(doc, "relaxing vs stressful")
    assert relaxing == {
        "car": 4.0,
        "bus": 3.0,
        "bicycle": 3.0,
        "train": 1.0,
        "walking": 1.0,
        "e-scooter": 5.0,
        "taxi": 2.0,
    }
    asked = [t["question"]["text"] for t in doc["turns"]]
    assert asked[4] == (
        "And the others, from 1 for relaxing to 5 for stressful: how would you rate bicycle "
        "and taxi?"
    )


def test_a_feeling_told_with_a_stage_is_not_asked_for_again(tmp_path: Path) -> None:
    doc = _interview(
        tmp_path,
        "grocery_delivery_journey",
        [
            "I opened the app and booked a slot for Tuesday evening, I felt relieved.",
            "Then I fill the basket, that was tedious and annoying.",
            "I was cross.",
            "It felt easy.",
        ],
        5,
    )
    turns = doc["turns"]
    assert turns[1]["question"]["text"].startswith("And then it came to filling the basket")
    basket = [n["label"] for n in turns[1]["graph_delta"]["nodes_added"]]
    assert "tedious" in basket
    for turn in turns[2:]:
        question = turn["question"]
        about_basket = question["focus_label"] == "filling the basket"
        assert not (question["strategy"] == "explore_feelings" and about_basket), question["text"]


def test_a_rating_question_not_understood_is_owned_and_asked_plainly(tmp_path: Path) -> None:
    # Round 278's grid went on from "sorry what?" to laddering the construct unrated, and
    # closed at "I don't know what you're asking" as if she knew nothing more.
    doc = _interview(
        tmp_path,
        "transport_modes_grid",
        [
            "the car and the bike you just go when you want, the bus youre stuck with the "
            "timetable",
            "sorry what?",
            "train 4 walking 1 scooter 1 taxi 2",
            "I don't know what you're asking",
        ],
        6,
    )
    turns = doc["turns"]
    assert [t["question"]["strategy"] for t in turns[1:3]] == ["rate_elements", "rate_elements"]
    again = turns[2]["question"]["text"]
    assert again.startswith("Sorry,") and "3 if it's in between" in again
    assert turns[1]["assessment"]["puzzled"] and not turns[0]["assessment"]["puzzled"]
    # (not knowing what a triad asks is no knowledge ceiling: the grid goes on)
    assert doc["pending_question"]["kind"] == "follow_up" and doc["closing"] is None
    assert _ratings(doc, "go when you want vs stuck with timetable")["walking"] == 1.0
