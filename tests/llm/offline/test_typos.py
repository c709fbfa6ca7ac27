"""The small words people mistype are mended before the offline reader reads; nothing else is."""

from __future__ import annotations

import pytest

from interview_cli.llm.offline.reading.typos import mend_typos


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("Weell, no sandwiches from the Spar.", "Well, no sandwiches from the Spar."),
        ("I don't know if thaat makes sense", "I don't know if that makes sense"),
        ("Alos two portions", "Also two portions"),
        ("I'd olny ever done pasta", "I'd only ever done pasta"),
        ("it tlels you exactly wat to do", "it tells you exactly what to do"),
        ("realy handy, becase it's quick", "really handy, because it's quick"),
        ("Hmm, I'm not sue. Let me tink.", "Hmm, I'm not sure. Let me think."),
        ("I'd have to tink about it", "I'd have to think about it"),
        ("maybe it's mroe", "maybe it's more"),
        # "cause" for "because" where it opens a clause (round 49)
        ("it matters cause if I dont eat", "it matters because if I dont eat"),
        ("I went for it cause I run hot", "I went for it because I run hot"),
        ("Cause I run hot", "Because I run hot"),
        ("yeah, cause otherwise I snack", "yeah, because otherwise I snack"),
        ("I man steams nearly the same", "I mean steams nearly the same"),
        ("Oh. I man it froths", "Oh. I mean it froths"),
        ("I'd have to think aout it", "I'd have to think about it"),
        ("Antoher thinng", "Another thing"),
        # a month or a day misspelt is still a time (round 146 asked about "last Janury")
        ("Worst was last Janury", "Worst was last January"),
        ("on a thurday in febuary", "on a Thursday in February"),
    ],
)
def test_small_words_mistyped_are_mended(typed: str, read: str) -> None:
    assert mend_typos(typed) == read


@pytest.mark.parametrize(
    "said",
    [
        "three of us, and the wall was thin",  # words one slip from "there", "well", "this"
        "where it was cold, tough going, were we mad?",
        "honesty matters, noting the rally",
        "I will not sue them over it",  # "sue" is a word where it stands
        "the car sear is grey and the tink of the bell",  # content typos are their own words
        "two days on a charge",
        # "cause" the noun or the verb
        "the cause of it was the damp",
        "it was a good cause",
        "that can cause it to die",
        "the kids cause it every time",
        "pets cause my allergies",
        # (review) a noun after an adjective, a verb after a negation, a modal or "children"
        "the app is a lost cause if you ask me",
        "its for a worthy cause if you ask me",
        "the cold didnt cause it",
        "the rain'll cause it to rust",
        "children cause my stress",
    ],
)
def test_words_of_their_own_are_left_alone(said: str) -> None:
    assert mend_typos(said) == said
