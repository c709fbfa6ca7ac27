"""Offline extraction hygiene: labels are short phrases in the respondent's words, nothing
junk becomes a node, remarks about the interview extract nothing, and links climb the
ladder. Table-driven over answers as people give them, in several domains (headphones,
cooking, cycling, a banking app) so the heuristics are not tuned to one topic."""

from __future__ import annotations

import re
from typing import Any

import pytest
from offline_fixtures import A, F, P, T, extract, shipped_mec

from interview_cli.config.schemas import Methodology
from interview_cli.core.models import Extraction
from interview_cli.llm.offline.reading.meta import blank_meta, meta_kind

JUNK = {
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
}


@pytest.fixture(scope="module")
def mec() -> Methodology:
    return shipped_mec()


# ---- answers that are only a remark, a don't-know or an aside: nothing to extract -----------

NOTHING = [
    ("I already told you that.", "asked again"),
    ("I've answered that.", "asked again"),
    ("You asked that already.", "asked again"),
    ("Same as before.", "asked again"),
    ("Like I said.", "asked again"),
    ("Again?", "asked again"),
    ("Why do you keep asking why?", "asked again"),
    ("We've been over this.", "asked again"),
    ("You asked that already. Can we talk about something else?", "asked again"),
    ("Can we move on?", "move on"),
    ("Okay, can we please move on to something else?", "move on"),
    ("Let's move on.", "move on"),
    ("Next question.", "move on"),
    ("Pass.", "move on"),
    ("That's not really about headphones.", "about the interview"),
    ("Honestly, this isn't relevant.", "about the interview"),
    ("The question drifted a bit there.", "about the interview"),
    ("These questions are a bit repetitive.", "about the interview"),
    ("We're going round in circles.", "about the interview"),
    ("That's kind of a weird one to answer, but okay. I don't know, that's all.", "about the"),
    ("Sorry, what?", "repeat or explain"),
    ("Could you repeat the question?", "repeat or explain"),
    ("I'm not sure what you mean.", "repeat or explain"),
    ("I'd rather not go into that.", "declined"),
    ("Not really, no.", "declined"),
    ("Marketing would love that answer, but no.", "declined"),
    ("No idea.", "don't-know"),
    ("It just is.", "don't-know"),
    ("I don't know, it's just what I'm used to I suppose.", "don't-know"),
    ("Ha, hard to say really.", "hedge"),
    ("Hmm, who knows.", "hedge"),
    ("They're fine, I guess.", "hedge"),
    ("Yeah, sure.", "acknowledgement"),
    ("I love them.", "no element"),
    ("Sorry, I lost my train of thought. What was the question again?", "repeat or explain"),
    ("Yeah I think we covered that already.", "asked again"),
    ("It's hard to explain.", "hedge"),
    ("Honestly, it's not that deep. I don't know, that's all there is to it.", "don't-know"),
    ("Can't say more than that really.", "don't-know"),
    ("Never given it much thought.", "don't-know"),
    ("Ask my nan, to be fair. I don't know. Nothing more to it really.", "don't-know"),
    ("You'd have to ask my wife.", "don't-know"),
    ("Well, it's just nice, isn't it. I can't put it better than that.", "don't-know"),
    ("It's more a feeling than a reason. It just is, that's all there is to it.", "don't-know"),
    ("Ooh, now, that takes me back to a callout, hang on... I don't know.", "remark"),
    # remarks on the question, on oneself as a respondent, on who is asking
    ("Ha, that's a deep one for a Monday morning. I don't know, that's all.", "about the"),
    ("That's quite deep for a washing machine. It just is.", "about the"),
    ("Well, you could write a thesis on that. I don't know.", "about the"),
    ("I'm sorry, I'm not much use on this.", "about the"),
    ("I'm not one for the deep questions, love. It just is.", "about the"),
    ("That sounds like a question a pet food company would want answered.", "about the"),
    ("I don't really do the emotional side of phone contracts.", "about the"),
    ("Well, that's a whole other story really.", "about the"),
    ("Not sure where you're going with this.", "about the"),
    ("I don't see what you're getting at.", "about the"),
    # can't go further, in other words than "I don't know"
    ("Oh, I couldn't really say, dear. I don't know.", "don't-know"),
    ("Gosh, I've not thought about it like that. Let me think.", "hedge"),
    ("Hmm, I'd have to think about whether that's really the reason.", "hedge"),
    ("I don't know what else you want me to say about it.", "don't-know"),
]


@pytest.mark.parametrize(("answer", "reason"), NOTHING)
def test_a_remark_or_a_dont_know_extracts_nothing(
    mec: Methodology, answer: str, reason: str
) -> None:
    result = extract(mec, "headphones", answer, ("noise cancelling", A))
    assert (result.extractable, result.nodes, result.edges) == (False, [], [])
    assert reason in result.reason


# ---- labels: short phrases in the respondent's words ----------------------------------------

# (domain, answer, focus (label, type) of a "why" question or None, labels in order)
LABELS = [
    # headphones
    (
        "headphones",
        "Because more time with my kids, again.",
        ("long battery life", A),
        ["more time with my kids"],
    ),
    ("headphones", "Hmm, again, because I can relax.", ("noise cancelling", A), ["can relax"]),
    (
        "headphones",
        "Because, like I said before, I can focus at work.",
        ("noise cancelling", A),
        ["can focus at work"],
    ),
    ("headphones", "Like I said, the battery.", None, ["battery"]),
    # a question back and a tautology are not rungs
    (
        "headphones",
        "Why does anyone do anything? They're fine, that's why. It means I don't "
        "care if they get wrecked.",
        ("cheap pair", A),
        ["don't care if they get wrecked"],
    ),
    (
        "headphones",
        "Boots are boots. What do you want me to say? I also like the long battery.",
        None,
        ["long battery"],
    ),
    # a label cut at its sixth word does not end on a number
    (
        "cycling",
        "Because I get there and back on one charge.",
        ("big battery", A),
        ["get there and back"],
    ),
    # not caring about something says something; "don't care" alone closes the topic
    (
        "headphones",
        "Because I don't care if they get wrecked.",
        ("cheap pair", A),
        ["don't care if they get wrecked"],
    ),
    (
        "headphones",
        "Marketing would love that answer, but no. Because it's about my privacy.",
        ("no account and no tracking", A),
        ["privacy"],
    ),
    (
        "headphones",
        "If I can concentrate I get my reading done.",
        ("noise cancelling", A),
        ["can concentrate", "get my reading done"],
    ),
    (
        "headphones",
        "Because I can concentrate on my reading.",
        ("noise cancelling", A),
        ["can concentrate on my reading"],
    ),
    (
        "headphones",
        "Because not feel like a dinosaur, which means keeping up with the world.",
        ("no fiddling with cables", F),
        ["not feel like a dinosaur", "keeping up with the world"],
    ),
    (
        "headphones",
        "I feel I deserve nice things.",
        ("premium brand", A),
        ["feel I deserve nice things"],
    ),
    (
        "headphones",
        "I stay in while cycling, which is the whole point.",
        ("snug fit", A),
        ["stay in while cycling"],
    ),
    (
        "headphones",
        "It's a full and rich life, that's what music gives me.",
        ("music moves me", P),
        ["full and rich life"],
    ),
    (
        "headphones",
        "Sorry, I mean the sound. The sound is just really clear.",
        None,
        ["sound", "clear sound"],
    ),
    ("headphones", "Ha, the price, obviously. They were on sale.", None, ["price", "on sale"]),
    ("headphones", "Being honest, I like the sound.", None, ["sound"]),
    ("headphones", "They do the job.", None, ["do the job"]),
    (
        "headphones",
        "I suppose the main thing is the fit, because they don't fall out when I run, "
        "and I don't have to keep pushing them back in.",
        None,
        ["fit", "don't fall out", "don't have to keep pushing back"],
    ),
    (
        "headphones",
        "Well, they're light and comfortable, and the battery lasts for ages.",
        None,
        ["light and comfortable", "battery lasts for ages"],
    ),
    (
        "headphones",
        "Honestly I'm not sure, maybe the face ID login? It's quick I guess.",
        None,
        ["face ID login", "quick"],
    ),
    (
        "headphones",
        "Because then I don't have to think about it.",
        ("auto-off", A),
        ["don't have to think about it"],
    ),
    (
        "headphones",
        "Well, it was a Tuesday on the train, and I just put them on and the noise "
        "cancelling kicked in, so I could finally read my book in peace.",
        None,
        [
            "tuesday on the train",
            "put them on",
            "noise cancelling kicked in",
            "could finally read my book",
        ],
    ),
    (
        "headphones",
        "Honestly the thing that annoys me most is when the Bluetooth drops out in "
        "the middle of a call.",
        None,
        ["bluetooth drops out"],
    ),
    ("headphones", "Look, I've said this twice now: the battery.", None, ["battery"]),
    (
        "headphones",
        "Because it just works, you know, I don't have to fiddle with it.",
        ("auto-pairing", A),
        ["works", "don't have to fiddle with it"],
    ),
    (
        "headphones",
        "Probably because I hate faff. Like, I really hate faff.",
        ("auto-pairing", A),
        ["hate faff"],
    ),
    (
        "headphones",
        "It's not about the price really, it's more that they don't hurt my ears after two hours.",
        None,
        ["don't hurt my ears"],
    ),
    # cooking
    (
        "cooking",
        "It's hard to explain. It just feels right in the hand.",
        ("weighted handle", A),
        ["feels right in the hand"],
    ),
    (
        "cooking",
        "Because I don't want to be that parent who just throws chicken nuggets in the oven.",
        ("cooking from scratch", F),
        ["don't want to be that parent"],
    ),
    (
        "cooking",
        "The knife has to be sharp, otherwise I'm hacking at onions for ages.",
        None,
        ["knife has to be sharp"],
    ),
    (
        "cooking",
        "A good pan heats evenly so nothing burns, which means I don't waste food.",
        None,
        ["good pan heats evenly", "nothing burns", "don't waste food"],
    ),
    (
        "cooking",
        "Because cooking from scratch means I know what my kids are eating.",
        ("fresh ingredients", A),
        ["cooking from scratch", "know what my kids are eating"],
    ),
    (
        "cooking",
        "Honestly? The recipes are quick, so I can get dinner on the table before seven.",
        None,
        ["quick recipes", "can get dinner on the table"],
    ),
    (
        "cooking",
        "Because then we actually sit down together as a family.",
        ("dinner before seven", F),
        ["sit down together as a family"],
    ),
    (
        "cooking",
        "I like the non-stick coating and the heavy base, I guess.",
        None,
        ["non-stick coating", "heavy base"],
    ),
    (
        "cooking",
        "Because I'm not scrubbing pans at midnight, and that makes me feel less frazzled.",
        ("non-stick coating", A),
        ["not scrubbing pans at midnight", "feel less frazzled"],
    ),
    # cycling
    (
        "cycling",
        "Because I'm not dropped on the hills, and that makes me feel part of the group.",
        ("light frame", A),
        ["not dropped on the hills", "feel part of the group"],
    ),
    (
        "cycling",
        "Disc brakes, mainly. I can stop in the wet without drama.",
        None,
        ["disc brakes", "can stop in wet without drama"],
    ),
    (
        "cycling",
        "It's about being independent, I don't need anyone to drive me around.",
        ("feel safe", P),
        ["being independent", "don't need anyone to drive"],
    ),
    (
        "cycling",
        "Like I said, being out there on my own. Can we move on?",
        ("freedom", T),
        ["being out there on my own"],
    ),
    (
        "cycling",
        "Because when I'm fit I'm just a nicer person to be around, my wife says so anyway.",
        ("riding every weekend", F),
        ["fit", "nicer person to be around"],
    ),
    # banking
    (
        "banking",
        "It's not the fees so much, it's that I felt stupid, like I couldn't manage my own money.",
        ("no overdraft fees", F),
        ["felt stupid"],
    ),
    (
        "banking",
        "Because it's simple, I open it, I see my balance, done.",
        ("clean home screen", A),
        ["simple", "open it", "see my balance"],
    ),
    (
        "banking",
        "Because I feel in control of my money. Like I said, I hate surprises.",
        ("instant notifications", A),
        ["feel in control of my money", "hate surprises"],
    ),
    (
        "banking",
        "Mostly the budgeting pots, they let me put money aside for bills.",
        None,
        ["budgeting pots", "put money aside for bills"],
    ),
    (
        "banking",
        "It means security for my family, at the end of the day.",
        ("feel in control of my money", P),
        ["security for my family"],
    ),
    (
        "banking",
        "Face ID login, it's quick and I don't have to remember another password.",
        None,
        ["face ID login"],
    ),
    (
        "banking",
        "I already told you, the notifications. They're instant.",
        None,
        ["notifications", "instant"],
    ),
    # a way of being is an instrumental value, whatever frame it comes in
    (
        "cycling",
        "Because it's about being a good parent.",
        ("arrive in a good mood", P),
        ["being a good parent"],
    ),
    # an embedded clause keeps its subject
    (
        "commuting",
        "It means I choose how hard I work.",
        ("different assist levels", A),
        ["choose how hard I work"],
    ),
    # the topic itself and a tag question name no element of it
    (
        "commuting",
        "It's a bike, isn't it. It gets me places.",
        ("nothing electric", A),
        ["gets me places"],
    ),
    ("headphones", "Headphones. I like the long battery.", None, ["long battery"]),
    # "after" a time is a phrase, not a new clause; a why's "X and Y" is one consequence
    (
        "cooking",
        "It means I can sleep after a night shift while it simmers.",
        ("slow cooker", A),
        ["can sleep after a night shift"],
    ),
    (
        "cycling",
        "Because it's still going after fifteen years.",
        ("steel frame", A),
        ["still going after fifteen years"],
    ),
    ("cooking", "Because it's quick and cheap.", ("one-pot recipes", A), ["quick and cheap"]),
    ("headphones", "I like the comfort and the battery.", None, ["comfort", "battery"]),
    # ... but one "for" over both is one element, not "my lunch" on its own
    ("commuting", "I like the rack for my laptop and my lunch.", None, ["rack for my laptop"]),
    # ... and a why's "X and Y" with a subject of its own is two
    (
        "banking",
        "Because I stay healthy and I save money.",
        ("round-ups", A),
        ["stay healthy", "save money"],
    ),
    # a remark's words opening a longer sentence are not a remark: what follows is kept
    (
        "cooking",
        "I'm no good with recipes, so I improvise and it's creative.",
        None,
        ["no good with recipes", "improvise", "creative"],
    ),
    (
        "cooking",
        "I'd need to think about why, but it keeps me calm.",
        ("chopping", A),
        ["why", "keeps me calm"],
    ),
    # words that each name nothing, together a consequence; asides that name nothing
    (
        "banking",
        "Because one less thing to think about.",
        ("automatic savings", A),
        ["one less thing to think about"],
    ),
    (
        "commuting",
        "One less thing to think about in the mornings.",
        ("charge it weekly", F),
        ["one less thing to think about"],
    ),
    (
        "cooking",
        "For me? Well. Because it's about being there for them.",
        ("at the table together", P),
        ["being there for them"],
    ),
    (
        "cycling",
        "Last time it mattered? Because they'll look at it if I can't.",
        ("the bike shop", A),
        ["look at it"],
    ),
    ("cycling", "It means I'm not done in after.", ("electric assist", F), ["not done in"]),
    # a decimal point ends no sentence
    (
        "cooking",
        "The price seems fair, 3.49 for four pots.",
        None,
        ["price seems fair", "3.49 for four pots"],
    ),
    # interjections name nothing
    ("cooking", "Ach, it does the job. Funny you ask.", ("kettle", A), ["does the job"]),
    (
        "cooking",
        "The point is I don't get them any more.",
        ("blisters from every pair", A),
        ["don't get them any more"],
    ),
    # a negation names nothing: "don't worry" alone is not where the clause ends
    (
        "cooking",
        "For me? Well. Because I don't worry when my wife drives them.",
        ("children safe in the back", P),
        ["don't worry when my wife drives"],
    ),
    # "it means everything" is importance only when it ends there ("to me", a full stop)
    (
        "cooking",
        "It means everything for two weeks goes in.",
        ("big boot", A),
        ["everything for two weeks goes in"],
    ),
    # ... or where "to" follows: not "lot to my family", "everything to get some sleep"
    ("cooking", "It means a lot to my family.", ("meals together", P), ["family"]),
    (
        "headphones",
        "It means everything to get some sleep on the plane.",
        ("noise cancelling", A),
        ["get some sleep on the plane"],
    ),
    # the word limit fell between two phrases: the one before it stays whole
    (
        "cooking",
        "Because something to do in the garage in winter.",
        ("sharpening knives", A),
        ["something to do in garage"],
    ),
    # a verdict with no reason in it is no element; the reason after it is
    ("cooking", "It was the sensible choice because it lasts.", ("cast iron pan", A), ["lasts"]),
    ("cooking", "Why does it matter why? It just made sense.", ("cast iron pan", A), []),
    ("cycling", "Aye, well, it's just easier, isn't it.", ("gears", A), ["easier"]),
    # a general noun keeps whose it is; a rating is no element
    ("headphones", "It's my time, you know?", ("rhythm", P), ["my time"]),
    ("headphones", "The price was fine too, nothing special.", None, ["price"]),
    (
        "cycling",
        "I feel better for it. That's as far as it goes, I'm afraid.",
        ("hills", A),
        ["feel better for it"],
    ),
]


def _labels_case_id(case: tuple[Any, ...]) -> str:
    return f"{case[0]}:{case[1][:40]}"


@pytest.mark.parametrize("case", LABELS, ids=[_labels_case_id(c) for c in LABELS])
def test_labels_are_the_respondents_short_phrases(
    mec: Methodology, case: tuple[str, str, tuple[str, str] | None, list[str]]
) -> None:
    domain, answer, focus, labels = case
    result = extract(mec, domain, answer, focus)
    assert [n.label for n in result.nodes] == labels
    for node in result.nodes:
        assert 1 <= len(node.label.split()) <= 6
        # every word of a label is the respondent's (the label is their words, not ours)
        said = set(re.findall(r"\d+(?:\.\d+)+|[\w'-]+", answer.lower().replace("\u2019", "'")))
        assert set(node.label.lower().split()) <= said | {"feel", "can"}, node.label


ALL_ANSWERS = [(c[0], c[1], c[2]) for c in LABELS] + [
    ("headphones", answer, ("noise cancelling", A)) for answer, _ in NOTHING
]


@pytest.mark.parametrize(("domain", "answer", "focus"), ALL_ANSWERS)
def test_no_junk_label_ever(
    mec: Methodology, domain: str, answer: str, focus: tuple[str, str] | None
) -> None:
    result = extract(mec, domain, answer, focus)
    for node in result.nodes:
        label = node.label.lower()
        assert label not in JUNK, label
        assert not re.search(r"\b(?:again|like i said|sorry|hard to say|not sure)\b", label), label


# ---- links climb the ladder; forbidden ones are dropped with a reason ------------------------

EDGES = [
    (
        "headphones",
        "Because more time with my kids, again.",
        ("long battery life", A),
        [("long battery life", "more time with my kids")],
    ),
    (
        "headphones",
        "If I can concentrate I get my reading done.",
        ("noise cancelling", A),
        [("noise cancelling", "can concentrate"), ("can concentrate", "get my reading done")],
    ),
    (
        "cooking",
        "A good pan heats evenly so nothing burns, which means I don't waste food.",
        None,
        [("good pan heats evenly", "nothing burns"), ("nothing burns", "don't waste food")],
    ),
    (
        "cycling",
        "Because I'm not dropped on the hills, and that makes me feel part of the group.",
        ("light frame", A),
        [
            ("light frame", "not dropped on the hills"),
            ("not dropped on the hills", "feel part of the group"),
        ],
    ),
    (
        "banking",
        "It means security for my family, at the end of the day.",
        ("feel in control of my money", P),
        [("feel in control of my money", "security for my family")],
    ),
    (
        "headphones",
        "I value freedom, that's why I like the battery.",
        None,
        [("battery", "freedom")],
    ),
]


@pytest.mark.parametrize(("domain", "answer", "focus", "edges"), EDGES)
def test_links_point_up_the_ladder(
    mec: Methodology,
    domain: str,
    answer: str,
    focus: tuple[str, str] | None,
    edges: list[tuple[str, str]],
) -> None:
    result = extract(mec, domain, answer, focus)
    assert [(e.source, e.target) for e in result.edges] == edges


@pytest.mark.parametrize(("domain", "answer", "focus"), ALL_ANSWERS)
def test_every_link_goes_from_a_lower_level_to_a_higher_one(
    mec: Methodology, domain: str, answer: str, focus: tuple[str, str] | None
) -> None:
    result: Extraction = extract(mec, domain, answer, focus)
    types = {n.label: n.node_type for n in result.nodes}
    if focus is not None:
        types[focus[0]] = focus[1]
    level = {n.name: n.level for n in mec.ontology.nodes}
    for edge in result.edges:
        assert level[types[edge.source]] <= level[types[edge.target]], edge


def test_a_forbidden_link_is_dropped_with_its_reason(mec: Methodology) -> None:
    # Asked why one end state matters, the respondent names another: the ontology has no
    # link between two terminal values, so the link is not made, and the record says why.
    result = extract(mec, "headphones", "Because I value my freedom.", ("self-respect", T))
    assert [n.label for n in result.nodes] == ["freedom"] and result.edges == []
    (refused,) = result.rejected
    assert refused.kind == "edge"
    assert refused.item["source"] == "self-respect" and refused.item["target"] == "freedom"
    assert "terminal_value" in refused.reason and "permits no link" in refused.reason


def test_permitted_links_leave_no_rejection(mec: Methodology) -> None:
    result = extract(
        mec,
        "cooking",
        "Because cooking from scratch means I know what my kids are eating.",
        ("fresh ingredients", A),
    )
    assert result.rejected == [] and len(result.edges) == 2


# ---- the remark detector itself -------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("I already told you that.", "repeat"),
        ("Because more time with my kids, again.", "repeat"),
        ("Can we move on?", "move_on"),
        ("That's not really about headphones.", "off_topic"),
        ("That reminds me of my late father's tape recorder.", "off_topic"),
        ("Sorry, could you repeat the question?", "clarify"),
        ("I'd rather not say.", "decline"),
        ("Ha, hard to say.", "hedge"),
        ("Because I can focus at work.", None),
        ("It's not about the price, it's more that they don't hurt my ears.", None),
        ("Music moves me again.", None),
        ("The question of price never came up for me.", None),
    ],
)
def test_meta_kind(answer: str, kind: str | None) -> None:
    assert meta_kind(answer) == kind


def test_blanking_keeps_offsets_and_the_rest_of_the_answer() -> None:
    answer = "Because, like I said before, I can focus at work. Can we move on?"
    blanked = blank_meta(answer)
    assert len(blanked) == len(answer)
    assert "like I said" not in blanked and "move on" not in blanked
    assert blanked.index("I can focus at work") == answer.index("I can focus at work")
