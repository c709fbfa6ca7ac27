"""Discourse hints (core.discourse): markers, normalised direction, frames, and stage 2.5."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from interview_cli.config.library import Library
from interview_cli.core.discourse import (
    DiscourseRelation,
    PredicateFrame,
    analyse_discourse,
    discourse_hints,
)
from interview_cli.llm.fakes import ScriptedLLM
from interview_cli.llm.offline import OfflineLLM
from interview_cli.llm.settings import resolve_llm_settings
from interview_cli.pipeline.runner import Interview
from interview_cli.pipeline.setup import new_session

ROOT = Path(__file__).resolve().parents[2]


def relations(text: str) -> list[tuple[str, str, str, str, str]]:
    return [
        (r.kind, r.relation, r.marker, r.first, r.second) for r in analyse_discourse(text).relations
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I like the noise cancelling because I can focus on the train.",
            (
                "causal",
                "reason_for",
                "because",
                "i can focus on the train",
                "i like the noise cancelling",
            ),
        ),
        (
            "Because the battery lasts forever, I don't have to think about charging.",
            (
                "causal",
                "reason_for",
                "because",
                "the battery lasts forever",
                "i dont have to think about charging",
            ),
        ),
        (
            "I get up early so that I can read the news.",
            ("causal", "leads_to", "so that", "i get up early", "i can read the news"),
        ),
        (
            "It blocks the noise, which means I feel calm.",
            ("causal", "leads_to", "which means", "it blocks the noise", "i feel calm"),
        ),
        (
            "When I'm on the train, I put them on.",
            ("temporal", "context_of", "when", "im on the train", "i put them on"),
        ),
        (
            "I make coffee before I leave the house.",
            ("temporal", "precedes", "before", "i make coffee", "i leave the house"),
        ),
        (
            "I relax after I get home.",
            ("temporal", "precedes", "after", "i get home", "i relax"),
        ),
    ],
)
def test_markers_give_relations_in_a_normalised_direction(
    text: str, expected: tuple[str, ...]
) -> None:
    assert relations(text) == [expected]


def test_sentence_initial_so_links_back_to_the_previous_sentence() -> None:
    assert relations("They last all day. So I never worry.") == [
        ("causal", "leads_to", "so", "they last all day", "i never worry")
    ]


def test_ambiguous_markers_are_disambiguated() -> None:
    assert relations("They are so comfy.") == []  # "so" as an intensifier
    assert relations("The cause of it was the price.") == []  # "cause" as a noun
    assert relations("I bought them since mine broke.")[0][:3] == ("causal", "reason_for", "since")
    assert relations("I have used them since 2019, they still work.")[0][:3] == (
        "temporal",
        "precedes",
        "since",
    )


def test_predicate_frames_with_negation_and_copulas() -> None:
    frames = analyse_discourse("I don't trust the brand, it's too expensive. I want quiet.").frames
    assert frames == (
        PredicateFrame("trust", "i", "the brand", negated=True),
        PredicateFrame("be", "it", "too expensive"),
        PredicateFrame("want", "i", "quiet"),
    )
    assert [f.hint() for f in frames[:2]] == [
        'frame: not trust(subject="i", object="the brand")',
        'frame: be(subject="it", attribute="too expensive")',
    ]


def test_hints_are_short_ordered_limited_and_deterministic() -> None:
    text = (
        "I love the noise cancelling because I can focus on the train, which means I feel in "
        "control of my time. When I travel I wear them so I can sleep."
    )
    hints = discourse_hints(text)
    assert hints == discourse_hints(text)
    assert hints[0].startswith("causal (because)")
    assert all(h.startswith(("causal", "temporal")) for h in hints[:4])
    assert any(h.startswith("frame:") for h in hints)
    assert len(discourse_hints(text, limit=2)) == 2
    assert all(len(h) < 160 for h in hints)
    assert discourse_hints("Yes.") == [] and discourse_hints("") == []


def test_a_frame_parser_replaces_the_pattern_frames_but_not_the_markers() -> None:
    class Parser:
        def frames(self, text: str) -> Sequence[PredicateFrame]:
            return [PredicateFrame("value", "i", "freedom")]

    analysis = analyse_discourse("I like it because it is light.", parser=Parser())
    assert analysis.frames == (PredicateFrame("value", "i", "freedom"),)
    assert [r.marker for r in analysis.relations] == ["because"]
    assert isinstance(analysis.relations[0], DiscourseRelation)


# ---- stage 2.5 in the pipeline ------------------------------------------------------------


def run(*, hints: bool) -> tuple[list[list[str]], Interview]:
    """One answer with discourse hints on or off; the hints each extraction request got."""
    lib = Library.discover(extra_roots=[ROOT], cwd=ROOT, env={})
    concept = lib.concept("headphones_mec")
    session = new_session(
        session_id="discourse-test",
        concept=concept,
        methodology=lib.methodology(concept.value.methodology),
        settings=resolve_llm_settings("offline", env={}),
        max_turns=6,
        timestamps=False,
        discourse_hints=hints,
    )
    llm = ScriptedLLM(fallback=OfflineLLM(0))  # the offline model, its requests kept
    interview = Interview(session, store=None, llm=llm)

    async def go() -> None:
        await interview.ensure_question()
        await interview.submit("I like the noise cancelling because I can focus on the train")

    asyncio.run(go())
    return [list(r.discourse_hints) for r in llm.requests("extract")], interview


def test_stage_two_and_a_half_passes_hints_to_extraction_and_records_them() -> None:
    sent, interview = run(hints=True)
    (turn,) = interview.session.turns
    assert sent[0] and sent[0][0].startswith("causal (because)")
    assert turn.discourse_hints == sent[0]


def test_stage_two_and_a_half_is_skipped_when_off() -> None:
    sent, interview = run(hints=False)
    assert sent == [[]] and interview.session.turns[0].discourse_hints == []


@pytest.mark.parametrize(
    ("text", "frame"),
    [
        # A noun-phrase subject is not cut after one word to make its next noun a verb.
        ("the sound quality matters to me", ("matters", "the sound quality", "to me")),
        ("my old pair broke", ("broke", "my old pair", "")),
        ("the noise cancelling helps me focus", ("helps", "the noise cancelling", "me focus")),
        ("the battery is great", ("be", "the battery", "great")),
    ],
)
def test_noun_phrase_subjects_keep_their_nouns(text: str, frame: tuple[str, str, str]) -> None:
    (found,) = analyse_discourse(text).frames
    assert (found.predicate, found.subject, found.object) == frame
