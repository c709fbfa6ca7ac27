"""The offline closing question beyond its ladders (what the recap puts first, when no ladder
read back names it: ``asking.closing._also``), and the wording of a focus they do not want."""

from __future__ import annotations

import re

import pytest
from test_offline_questions import _closing, _methodology, ask

from interview_cli.config.schemas import Methodology
from interview_cli.llm.offline.asking.phrases import phrase_for


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return _methodology("means_end_chain")


def test_what_they_came_back_to_is_named_when_no_ladder_read_back_names_it(
    mec: Methodology,
) -> None:
    # round 256: Priya's sister, "a big reason I kept it", asked to go back to, and the close
    # read back only "it's great when it works" because "I come home"
    answers = [
        "I'd say it's great when it works and a total diva when it doesn't lol.",
        "I come home and the floor's actually clean and I can just sit down.",
        "And my sister's allergic to cats so if the floor's covered in fur she can't come round.",
    ]
    chains = [["great when it works", "come home"]]
    text = _closing(
        mec, summary_chains=chains, answers=answers, summary_labels=["sister's allergic to cats"]
    )
    assert '. You also talked about "my sister\'s allergic to cats". Is' in text, text
    # ... not when a ladder read back names it already, nor a label that is no clean phrase
    said = _closing(mec, summary_chains=chains, answers=answers, summary_labels=["works great"])
    assert "also talked about" not in said, said
    junk = _closing(mec, summary_chains=chains, answers=answers, summary_labels=["cats so if"])
    assert "also talked about" not in junk, junk


def test_what_they_learnt_is_not_said_back_cut_from_what_it_was() -> None:
    # round 256: "ive learnt buying the 15 quid ones | is pointless" was about to be read back
    said = ["but ive learnt buying the 15 quid ones is pointless cos they just break"]
    assert phrase_for("ive learnt buying 15 quid ones", said) is None
    # (a thing they think is the main one is whole: the review)
    assert phrase_for("battery life", ["I think the battery life is the main thing"]) is not None


def test_what_they_do_not_want_is_asked_why_it_matters_not_how_it_helps(
    mec: Methodology,
) -> None:
    # round 258: "You mentioned that you don't want them in pain. How does that help you?" -
    # "it doesnt help me, its just being her mum?"
    spec = mec.strategy("deepen")
    assert spec is not None
    answers = ["eh well she's my wean, you dont want them in pain do you"]
    for turn in range(6):
        text = ask(mec, spec, "dont want them in pain", turn=turn, stance=1, answers=answers)
        assert not re.search(r"help|give|get out of|good about", text), text
        assert re.search(r"matter|important|difference", text), text


def test_the_ladders_naming_what_they_pointed_at_are_read_back_first(mec: Methodology) -> None:
    # round 260: "reliability is the big one for me", "I already said, reliability!", and the
    # close read back three side chains, longer ones
    answers = [
        "Reliability is the big one, it means I feel safe with the kids in the back.",
        "The school run is 3 kids and 2 schools, so it means all very tight timing.",
        "Work means I do shifts, and that means I can't just not turn up.",
        "The sliding doors mean she can get in on her own, so I'm not running round everyone.",
    ]
    chains = [
        ["school run", "all very tight timing", "can't afford anything going wrong"],
        ["work", "do shifts", "can't just not turn up"],
        ["sliding doors", "can get in on her own", "not running round everyone"],
        ["reliability", "feel safe with the kids"],
    ]
    text = _closing(mec, summary_chains=chains, answers=answers, summary_labels=["reliability"])
    assert '"reliability" because "I feel safe with the kids"' in text, text
    unpointed = _closing(mec, summary_chains=chains, answers=answers, summary_labels=[])
    assert "feel safe" not in unpointed, unpointed  # (the longest three, as before)


def test_how_they_are_and_their_people_let_them_do_nothing(mec: Methodology) -> None:
    # round 262: "You said you can actually relax on holiday. What does that let you do?" -
    # "What do you mean, let me do?"; "You talked about your old dears. What does that let you
    # do?"
    spec = mec.strategy("deepen")
    assert spec is not None
    for label, said in (
        ("can relax on holiday", "It means I can actually relax on holiday, not panicking."),
        ("noise some of my old dears", "Maybe the noise, some of my old dears don't like it."),
        # (the review: more people, plural, and more states)
        ("in-laws come round on sundays", "the in-laws come round on sundays"),
        ("school mums all use it", "the school mums all use it"),
        ("can switch off", "on the bike I can switch off from work"),
    ):
        for turn in range(6):
            text = ask(mec, spec, label, turn=turn, stance=1, answers=[said], quotes=[said])
            assert "let you do" not in text, text


def test_a_quote_is_never_cut_before_what_it_needs(mec: Methodology) -> None:
    # round 262: "bit sceptical of the 'for your gut' line" was said back "You said "sceptical
    # of the". What difference does that make for you?"
    spec = mec.strategy("deepen")
    assert spec is not None
    said = "coconut ones taste like sun cream haha. bit sceptical of the 'for your gut' line though"
    quote = "bit sceptical of the 'for your gut' line"
    for turn in range(4):
        text = ask(mec, spec, "bit sceptical", turn=turn, answers=[said], quotes=[quote])
        assert not re.search(r"\b(?:of|the)\"", text), text


def test_a_respondent_leaving_is_thanked_and_let_go(mec: Methodology) -> None:
    # round 261: "Sorry I have to go now, Zosia is awake" was asked 'We talked about ... Did I
    # miss anything that matters to you?' ("pressed for more while I was leaving")
    answers = ["The disc brakes, mainly.", "Because I feel safe on the descents."]
    chains = [["disc brakes", "feel safe on the descents"]]
    for leaving in (False, True):
        text = _closing(mec, summary_chains=chains, answers=answers, leaving=leaving)
        assert '"I feel safe on the descents"' in text, text
        assert ("let you go" in text or "won't keep you" in text) == leaving, text
    recap = _closing(mec, answers=answers, summary_labels=["disc brakes"], leaving=True)
    assert "disc brakes" in recap and "missed anything" not in recap, recap
    bare = _closing(mec, answers=["Dunno really."], leaving=True)
    assert "let you go" in bare and "anything else that matters" not in bare, bare
