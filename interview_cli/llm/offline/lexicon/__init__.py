"""Word lists and cue phrases for the offline heuristics (English).

Everything the offline provider "knows" about language lives here so the heuristics in
``reading`` and ``asking`` stay readable and a researcher can extend
the cues without reading the algorithms.

Cue phrases come from seed 000/002 (discourse markers: "because", "so that", "which means")
and from the laddering literature's typical answer frames ("it lets me", "makes me feel",
"I value"). Categories are *semantic hints*, never node types: the extractor maps a
category onto whichever node type of the methodology's ontology fits it best (by name,
description and level), so no methodology is hard-coded here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from interview_cli.llm.offline.lexicon.phrases import phrase_pattern, phrase_union

Link = Literal["up", "down", "sequence", "assoc", "sibling", "none"]


@dataclass(frozen=True)
class Cue:
    """A phrase that opens a clause.

    ``link``: how the clause it opens relates to the clause before it - ``up`` (the new
    clause is the reason/end of the previous one, one rung more abstract), ``down`` (the
    previous clause is the reason: "that's why"), ``sequence`` (what happened next),
    ``assoc`` (a related element of another kind: "when I ..., I need to ..."), ``sibling``
    (another element like the previous one: ", and ...") or ``none`` (a new statement).
    ``category`` hints at the kind of element the clause names; ``in_quote`` says whether
    the cue's words belong in the node's verbatim quote ("lets me focus") or are a mere
    connective ("because"); ``prefix`` is put before the label ("makes me feel calm" ->
    "feel calm").
    """

    phrase: str
    link: Link
    category: str | None = None
    in_quote: bool = False
    prefix: str = ""  # prepended to the label ("makes me feel calm" -> "feel calm")


def _c(
    phrase: str, link: Link, category: str | None = None, in_quote: bool = False, prefix: str = ""
) -> Cue:
    return Cue(phrase, link, category, in_quote, prefix)


# "X is for Y": what a thing is for, said of it (``IS_FOR``, below), longer phrases first
_IS_FOR = (
    "is because of",
    "is because",
    "'s because of",
    "'s because",
    "are because of",
    "is for",
    "'s for",
    "are for",
    "that's for",
    "thats for",
)

CUES: tuple[Cue, ...] = (
    # ---- means-end (causal, upward) -----------------------------------------------------
    _c("because of that", "up"),
    _c("because", "up"),
    _c("'cause", "up"),
    # ... as typed (round 22: "the showers being decent matters a bit cos I go straight to work
    # from there" was one clause)
    _c("cos", "up"),
    _c("coz", "up"),
    _c("cuz", "up"),
    _c("so that i can", "up", "functional", in_quote=True, prefix="can"),
    _c("so that", "up"),
    _c("so i can", "up", "functional", in_quote=True, prefix="can"),
    _c("so i don't have to", "up", "functional", in_quote=True, prefix="don't have to"),
    _c("in order to", "up", "functional"),
    _c("which means that", "up"),
    _c("which means", "up"),
    _c("that means", "up"),
    _c("this means", "up"),
    _c("it means", "up"),
    _c("which meant", "up"),
    _c("that meant", "up"),
    _c("means", "up"),  # a bare verb only: see BARE_MEANS below ("a means of", "by means")
    _c("meant", "up"),
    _c("which makes me feel", "up", "feeling", in_quote=True, prefix="feel"),
    _c("that makes me feel", "up", "feeling", in_quote=True, prefix="feel"),
    _c("it makes me feel", "up", "feeling", in_quote=True, prefix="feel"),
    _c("makes me feel", "up", "feeling", in_quote=True, prefix="feel"),
    _c("make me feel", "up", "feeling", in_quote=True, prefix="feel"),
    _c("makes it feel", "up", "feeling", in_quote=True, prefix="feel"),
    _c("made it feel", "up", "feeling", in_quote=True, prefix="feel"),
    _c("which lets me", "up", "functional", in_quote=True),
    _c("lets me", "up", "functional", in_quote=True),
    _c("let me", "up", "functional", in_quote=True),
    _c("which helps me", "up", "functional", in_quote=True),
    # "..., which saves time I dont have" (round 73 kept it inside "can get whole lot done")
    _c("which saves", "up", "functional", in_quote=True, prefix="saves"),
    # "she sings at the buses the whole way, which is the best fifteen minutes of my day" (round
    # 204's happiest point was kept inside the singing, and never asked about)
    _c("which is the best", "up", None, in_quote=True, prefix="best"),
    _c("which is the highlight", "up", None, in_quote=True, prefix="highlight"),
    _c("which is the worst", "up", None, in_quote=True, prefix="worst"),
    _c("helps me", "up", "functional", in_quote=True),
    _c("allows me to", "up", "functional", in_quote=True),
    _c("enables me to", "up", "functional", in_quote=True),
    _c("means i can", "up", "functional", in_quote=True, prefix="can"),
    _c("gives me", "up", None, in_quote=True),
    _c("so i", "up", None, in_quote=True),
    _c("so it", "up"),
    _c("so my", "up", None, in_quote=True),
    _c("so", "up"),  # only at a clause boundary: see SO_BOUNDARY below
    # what a thing is for, said of it: "light is for carrying it down the steps", "the quiet's
    # for next door", "the grain free is because of his stomach" (a check-back put right in
    # these words was read as one node each, round 184: "quiet thats for next door"); a
    # thing's own subject only (``IS_FOR``)
    *(_c(phrase, "up") for phrase in _IS_FOR),
    _c("that's why", "down"),
    _c("thats why", "down"),  # typed without its apostrophe (round 66: "thats why I love ...")
    _c("it's why", "down"),  # "the bad extraction - it's why I can't relax" (round 23)
    _c("which is why", "down"),
    _c("that is why", "down"),
    _c("in the end", "up", "outcome", in_quote=True),
    _c("as a result", "up", "outcome"),
    _c("it turned out", "up", "outcome", in_quote=True),
    _c("eventually", "up", "outcome", in_quote=True),
    # ---- values ---------------------------------------------------------------------------
    _c("i value", "assoc", "value", in_quote=True),
    _c("what matters to me is", "assoc", "value"),
    _c("what matters is", "assoc", "value"),
    _c("i care about", "assoc", "value", in_quote=True),
    _c("feel like a", "up", "value", in_quote=True, prefix="feel like a"),
    # ---- jobs, situations, problems (JTBD) --------------------------------------------------
    _c("whenever i", "assoc", "context", in_quote=True),
    _c("when i'm", "assoc", "context", in_quote=True),
    _c("when i was", "assoc", "context", in_quote=True),
    _c("when i", "assoc", "context", in_quote=True),
    _c("when we're", "assoc", "context", in_quote=True),
    _c("when we", "assoc", "context", in_quote=True),
    _c("i need to", "assoc", "job", in_quote=True),
    _c("i have to", "assoc", "job", in_quote=True),
    _c("i want to", "assoc", "job", in_quote=True),
    _c("i'm trying to", "assoc", "job", in_quote=True),
    _c("i try to", "assoc", "job", in_quote=True),
    _c("i was trying to", "assoc", "job", in_quote=True),
    _c("i needed to", "assoc", "job", in_quote=True),
    _c("i wanted to", "assoc", "job", in_quote=True),
    _c("the problem is", "assoc", "pain"),
    _c("the problem was", "assoc", "pain"),
    _c("the issue is", "assoc", "pain"),
    _c("the worst part is", "assoc", "pain"),
    _c("what annoys me is", "assoc", "pain"),
    _c("it's frustrating", "assoc", "pain", in_quote=True),
    _c("it was frustrating", "assoc", "pain", in_quote=True),
    _c("i struggle to", "assoc", "pain", in_quote=True, prefix="struggle to"),
    _c("i struggle with", "assoc", "pain", in_quote=True, prefix="struggle with"),
    # ---- incidents (critical incident) --------------------------------------------------------
    _c("and then i", "sequence", "action", in_quote=True),
    _c("then i", "sequence", "action", in_quote=True),
    _c("so then i", "sequence", "action", in_quote=True),
    _c("after that i", "sequence", "action", in_quote=True),
    _c("i decided to", "sequence", "action", in_quote=True),
    _c("i ended up", "sequence", "action", in_quote=True),
    _c("i felt", "assoc", "emotion", in_quote=True, prefix="felt"),
    _c("i was so", "assoc", "emotion", in_quote=True, prefix="felt"),
    _c("i learned that", "assoc", "lesson", in_quote=True),
    _c("i learned", "assoc", "lesson", in_quote=True),
    _c("i realised", "assoc", "lesson", in_quote=True),
    _c("i realized", "assoc", "lesson", in_quote=True),
    _c("now i always", "assoc", "change", in_quote=True, prefix="always"),
    _c("now i", "assoc", "change", in_quote=True),
    _c("since then i", "assoc", "change", in_quote=True),
    # (round 126: "Afterwards I just dont trust it on busy roads, I take the back streets now"
    # was asked "Do you do anything differently since then?")
    _c("afterwards i", "assoc", "change", in_quote=True),
    _c("these days i", "assoc", "change", in_quote=True),
    _c("nowadays i", "assoc", "change", in_quote=True),
    _c("i switched to", "assoc", "change", in_quote=True, prefix="switched to"),
    _c("i stopped", "assoc", "change", in_quote=True, prefix="stopped"),
    _c("i think it's because", "assoc", "attribution"),
    _c("i think it was because", "assoc", "attribution"),
    _c("probably because", "assoc", "attribution"),
    _c("the reason was", "assoc", "attribution"),
    # ---- solutions hired for a job (JTBD) ----------------------------------------------------
    _c("i usually", "assoc", "solution", in_quote=True),
    _c("i tried", "assoc", "solution", in_quote=True, prefix="tried"),
    _c("i used to", "assoc", "solution", in_quote=True, prefix="used to"),
    # ---- coordination: a sibling of the previous clause ---------------------------------------
    _c(", and also", "sibling"),
    _c(", and", "sibling"),
    _c(", but", "sibling"),
    _c("but also", "sibling"),
    # "someone has to be in or we leave a key under a pot" (round 56: nothing was read of it):
    # "or" before a subject opens the other way it goes
    _c("or we", "sibling"),
    _c("or i", "sibling"),
    _c("or they", "sibling"),
    _c("also", "sibling"),
)

# "X is for Y" reads as a reason only after a thing named (not "it's for the kids", "what is
# it for") and before no idiom ("that's for sure", "it's for me", "is for sale").
IS_FOR: frozenset[str] = frozenset(_IS_FOR)
# The words after which it is never read, as they name no thing of theirs: "that's because I
# commute" and "it's because of the drivers" are the plain "because", which reads them.
IS_FOR_NOT_AFTER: frozenset[str] = frozenset(
    """it it's its this that what which there here he she they who reason why thing all
    everything something nothing anything and so but""".split()
)
IS_FOR_IDIOMS = re.compile(
    r"\s*(?:sure|certain|real|now|ever|good|nothing|free|sale|rent|hire|instance|example|"
    r"a\s+while|me|you|us|them|him|her|everyone|everybody|anyone|once|later|show|life)\b",
    re.IGNORECASE,
)
# ... and what it is for is a doing or someone's ("for carrying it", "for my dad", "for the
# pram"), not a kind of person ("boots are for people who buy a map case")
IS_FOR_WHAT = re.compile(
    r"\s*(?!(?:a|an|the|one|two|three|four|five|six|\d+)\s+(?:[\w-]+\s+)?(?:years?|months?|weeks?|"
    r"days?|hours?|bundle|pair|lot|set|each|whole|first|second|price|deal)\b)"
    r"(?:\w+ing\b|(?:my|our|your|his|her|their|the|a|an|next|when|if|getting|keeping)\b)",
    re.IGNORECASE,
)

# A bare "so" is a connective only at a clause boundary (", so ...", "and so ...", a sentence
# start) and before a subject ("so the battery lasts") or the time or condition that opens
# a clause ("so after a wet day my feet are dry"), or a count ("the box, so one trip to the
# bin"), never in "so much" or "so is the fit".
SO_BOUNDARY = re.compile(r"(?:^|[,;:]|\band)\s*$", re.IGNORECASE)
# (also a dialect's "them" for "those": "so them five minutes by the machine are the best bit
# of the shift", round 214 lost it inside the clause before)
SO_SUBJECTS: frozenset[str] = frozenset(
    """i we you they it he she my our your their the that there now this nothing everything
    somebody someone something after when whenever if once by at on in every with without
    no less fewer never more even it's its i'm im i've we're they're there's that's
    one two three four five a an any all both each only half those these them
    like basically obviously then yeah""".split()  # "So like I'm actually a grown-up" (dev 7)
)
BARE_SO: frozenset[str] = frozenset({"so", "so i", "so it", "so my"})
# ...except before a pronoun, "the" or "there": "so" as an intensifier comes before an
# adjective or adverb ("so quiet", "so much"), never before "I"/"it"/"the", so "the battery
# lasts so I never worry" and "I have two kids so it needs to be big" are a connective even
# without a comma. Not after a verb that takes a bare "so" ("I think so", "I hope so"),
# where the pronoun starts a new thought, nor after "not" or "just" ("It's not so the price
# as the hassle": a comparison).
SO_PERSONAL: frozenset[str] = frozenset(
    """i i'm im i've ive i'd we we're they they're theyre he she you nothing everything
    nobody everyone it it's its the there there's he's hes she's shes we've weve they've
    you're youre you've""".split()
)
# ...and before a clause whose subject is a noun: "three kids and a dog so boot space is
# massive", "a long commute so battery life is key" (a family-car interview made the node "dog
# so boot space is massive" and asked about "the dog"). One to three words, no pronoun among
# them, then one of these verbs: an intensifier's "so" comes before an adjective and a clause
# of its own, with its own subject ("so quiet it's unreal", "so much I cried"), and after a
# form of "be" or a verb of seeming (``SO_INTENSIFIED_AFTER``).
SO_NOUN_CLAUSE_VERBS: frozenset[str] = frozenset(
    """is are was were isnt isn't arent aren't wasnt wasn't can cant can't could will wont won't
    would has have had needs need lasts last fits takes makes keeps stays goes comes matters
    does doesnt doesn't do dont don't gets got""".split()
)
# (nor a degree after a verb: "they last so long battery is never an issue")
SO_DEGREE: frozenset[str] = frozenset(
    """much many long well far fast often hard badly little few bad good quick quickly easy
    easily big small nice cheap heavy light loud quiet tired busy early late sweet sore creamy
    hot cold warm wet dry soft happy sad angry hungry full noisy comfy comfortable
    expensive dear pricey slow simple handy thick thin strong weak bright dark""".split()
)
SO_INTENSIFIED_AFTER: frozenset[str] = frozenset(
    """is was are were be been being am feel felt feels look looks looked seem seems seemed
    get gets got sound sounds become became stay stays keep keeps really not just too quite
    and or it's its that's thats i'm im you're they're we're he's she's even taste tastes
    tasted smell smells smelled make makes made""".split()
)
# Words said between a "so" and what it leads to that say nothing of which it is: "I work
# nights so honestly I need every hour of sleep" (round 73 read a sentence like it as backstory)
SO_HEDGES: frozenset[str] = frozenset("honestly actually basically literally tbh really".split())
SO_NOT_LINKING_AFTER: frozenset[str] = frozenset(
    "think thought hope hoped guess suppose believe say said told tell do did if not just".split()
)
# "means"/"meant" on their own link two clauses only as a verb ("being calm means I feel in
# control"); after a determiner or "by" it is a noun ("a means of transport", "by all means"),
# before "of"/"to"/"for" a noun or "intended" ("meant to last", "meant for kids"); after a
# form of "be" a passive ("it was meant as a gift").
BARE_MEANS: frozenset[str] = frozenset({"means", "meant"})
MEANS_NOUN_BEFORE: frozenset[str] = frozenset(
    """a an the by all no any some other own every only best same our my your their his her
    its what was were is are be been being""".split()
)
MEANS_NOUN_AFTER: frozenset[str] = frozenset({"of", "to", "for", "as"})
# "it means a lot", "means the world to me": importance, not a consequence (nothing to split).
MEANS_IDIOMS = re.compile(
    r"^\s*(?:a lot|a great deal|so much|(?:very )?much|the world|everything|nothing|more to me)\b",
    re.IGNORECASE,
)

# ---- semantic categories -------------------------------------------------------------------
# Each category: keywords matched against node type names (strong) and descriptions
# (weak), and where such an element sits on a 0 (concrete) .. 1 (abstract) scale.
CATEGORY_KEYWORDS: dict[str, tuple[str, ...]] = {
    "concrete": ("attribute", "feature", "property", "characteristic", "product", "element"),
    "functional": ("functional", "benefit", "practical", "tangible", "consequence"),
    "feeling": ("psychosocial", "emotional", "emotion", "feeling", "feel", "psychological"),
    "conduct": ("instrumental", "conduct", "being", "social", "perceived"),
    "value": ("value", "values", "terminal", "belief", "end"),
    "context": ("context", "situation", "circumstance", "trigger", "incident", "event", "setting"),
    # the event itself, where the ontology has a type for it (a critical incident's)
    "event": ("incident", "event", "episode", "occurrence"),
    "job": ("job", "statement", "goal", "task", "progress", "need", "motivation"),
    "solution": ("solution", "approach", "workaround", "tool", "service", "alternative", "hire"),
    "pain": (
        "pain",
        "problem",
        "obstacle",
        "barrier",
        "frustration",
        "struggle",
        "friction",
        "anxiety",
    ),
    "gain": ("gain", "desired", "success", "outcome"),
    "action": (
        "action",
        "behavior",
        "behaviour",
        "response",
        "step",
        "workaround",
        "solution",
        "coping",
    ),
    "outcome": ("outcome", "result", "consequence", "effect", "resolution"),
    "emotion": ("emotion", "emotional", "feeling", "felt", "reaction"),
    "lesson": ("lesson", "learning", "reflection", "insight", "belief", "conclusion"),
    "change": ("change", "habit", "behavior", "behaviour", "routine", "now"),
    "attribution": ("attribution", "explanation", "cause", "reason", "responsibility", "why"),
}
CATEGORY_POSITION: dict[str, float] = {
    "concrete": 0.0,
    "context": 0.0,
    "event": 0.0,
    "functional": 0.3,
    "action": 0.4,
    "job": 0.45,
    "pain": 0.45,
    "feeling": 0.55,
    "emotion": 0.6,
    "gain": 0.7,
    "outcome": 0.7,
    "conduct": 0.8,
    "value": 1.0,
    "lesson": 1.0,
    "change": 1.0,
    "attribution": 0.8,
    "solution": 0.0,
}
# Words of a node type's name that say the methodology is about events (an incident, a
# stage of a journey): there, a story told of the past is the matter, not backstory.
STORY_TYPE_WORDS: frozenset[str] = frozenset({"incident", "event", "episode", "stage"})
# Categories that mark the end of a chain: they favour the ontology's terminal types.
TERMINAL_CATEGORIES: frozenset[str] = frozenset({"value", "lesson", "change"})
# Categories every ontology can use through their position on the concrete-abstract scale;
# the others only apply where a node type fits them by name or description.
SCALE_CATEGORIES: frozenset[str] = frozenset(
    {"concrete", "functional", "feeling", "conduct", "value"}
)

# Words that reveal a category when no cue does (checked in this order: first hit wins).
VALUE_WORDS: frozenset[str] = frozenset(
    """freedom security self-respect self-esteem self respect happiness harmony accomplishment
    independence fulfilment fulfillment dignity integrity wisdom salvation pleasure
    meaningful meaning purpose""".split()
)
# "family comes first", "health is first for me": a priority named is a value
VALUE_PHRASES: tuple[str, ...] = (
    # (being a family: "It feels like we're still a family that does things together", round
    # 197 then asked why that was important, "Is that a serious question? It's my family")
    "still a family",
    "being a family",
    "inner harmony",
    "sense of accomplishment",
    "good person",
    "kind of person",
    "who i am",
    "good parent",
    "good mother",
    "good father",
    "my family",
    "quality of life",
    "enjoy life",
    "my own person",
    "comes first",
    "come first",
    "first for me",
    "is precious",
    "are precious",
    # standing on their own: "I'd like to think we can manage on our own without going cap in
    # hand to the kids" (round 220 read it as what the dentist's price did, and climbed no more)
    # (not "independent" alone: an independent shop, adviser or review, the review)
    "manage on our own",
    "manage on my own",
    "cope on our own",
    "own two feet",
    "without going cap in hand",
    "not going cap in hand",
    "never go cap in hand",
    "my independence",
    "being independent",
    "stay independent",
    "staying independent",
    "a burden on the kids",
    "a burden on my",
    "a burden to my",
    "a burden to the kids",
)
CONDUCT_PREFIXES: tuple[str, ...] = ("being ", "staying ", "to be ", "be more ", "be a ")
FEELING_PHRASES: tuple[str, ...] = (
    "peace of mind",
    "in control",
    "at ease",
    "less stress",
    # a worry said as a certainty: "I was sure it'd be a faff to clean" (round 131 asked about
    # the wife's passing remark instead, since the worry was read as a way of doing the job)
    # (said of a bother, not a price: "I was sure it would be cheaper at Aldi", from the review)
    *(
        f"{sure} it{would} be a {bother}"
        for sure in ("sure", "convinced")
        for would in ("'d", " would")
        for bother in ("faff", "pain", "nightmare", "hassle", "disaster")
    ),
    "dreading",
    # (a dev-3 respondent's "peace in the house" was a way of getting the job done)
    "peace in the house",
    "peace at home",
)
FEELING_WORDS: frozenset[str] = frozenset(
    """feel feels feeling felt calm relaxed relax stressed stress anxious worried worry
    confident proud guilty embarrassed happy happier content safe annoyed frustrated
    irritated upset nervous scared afraid relieved excited satisfied control overwhelmed
    lonely respected appreciated
    relief anxiety frustration embarrassment fear pride guilt anger panic shame dread joy
    gutted fuming furious livid disappointed mortified ashamed humiliated grateful thankful
    delighted chuffed rattled shaken terrified panicked sad angry humiliation dignity loneliness
    misery sadness paranoid
    frightened frightens""".split()
)
# ("frightens": round 265 asked 'You said "love it frightens me". What does that let you do?')
PAIN_WORDS: frozenset[str] = frozenset(
    """problem problems annoying annoyed frustrating frustrated hassle pain struggle hard
    difficult impossible broke broken fails failed waste wasting slow""".split()
)
# First words that reveal a solution hired (JTBD) or an action taken (critical incident).
SOLUTION_LEADS: frozenset[str] = frozenset(
    """grab grabbed buy bought order ordered use used drink drank hire hired switched
    tried pick picked take took""".split()
)
ACTION_LEADS: frozenset[str] = frozenset(
    """called rang phoned emailed wrote asked complained contacted waited went returned
    sent cancelled canceled escalated refunded posted chatted told""".split()
)
FUNCTIONAL_LEADS: frozenset[str] = frozenset(
    """can could don't doesn't won't no save saves saving get gets avoid avoids keep keeps
    make makes work works focus hear carry charge use using do does finish reach""".split()
)

# Irregular past verbs of something done or happening ("rang", "stole", "froze"): an event told,
# not a state ("was", "had") or a thought ("felt", "knew"). The reader finds the incident asked
# for by them (``reading/typing.py``); the question writer tells an event from a rule by them
# and the states it adds (``asking/questions.py``).
EVENT_PAST: frozenset[str] = frozenset(
    """went got came took said told stole broke lost left rang sent gave cut fell kept paid ran
    drove rode bought brought caught found forgot froze hung hit hurt met quit shut spent threw
    tore woke wrote sold swore died""".split()
)


# ---- words to strip from labels ------------------------------------------------------------
LEADING_STRIP: frozenset[str] = frozenset(
    """i i'm im i've i'd i'll me we we're we'd you you're you'd they they're they'd they'll
    he she he's she's hes shes
    he she it it's its this that these those which who what there there's here is are was
    were am be been 's
    the a an my our your their his her um uh er erm well so and but or then also just
    really actually basically honestly like love loved enjoy enjoyed prefer think guess
    that's what's here's mean suppose probably maybe perhaps definitely totally quite pretty
    very kind sort of mostly mainly
    because since as has have had having do does did to when whenever where about if cos coz cuz
    'cos ngl tbh sometimes occasionally""".split()
)
# Verbs of liking/using that open an attribute mention ("I like the sound") but carry no
# content; only stripped at the start of a clause.
# Not "hate"/"dislike": "hate faff" says what "faff" alone does not.
OPINION_LEADS: frozenset[str] = frozenset(
    """like love loved enjoy enjoyed prefer use used using bought chose picked want wanted
    need needed have has had miss appreciate""".split()
)
TRAILING_STRIP: frozenset[str] = frozenset(
    # ("plus": "the boot has to swallow the buggy plus | about eight bags", round 79; "within":
    # "spent that on a new battery within | a year", the time blanked, a typed JTBD interview;
    # "nearly": "my bill went up to nearly | three hundred pound", round 190 asked about "your
    # bill went up to nearly";
    # "wi", Yorkshire and Scots "with": "charged 90 quid roaming wi | it switched off", round
    # 183's summary read back "roaming wi")
    """the a an and but or plus so to of for with in on at by as from into it it's its that that's
    thats this which who rather
    really too though anyway either as well very just i me my you is are was were matters
    mostly mainly completely entirely totally altogether
    matter mattered annoys bugs irritates
    within during until via per upon towards toward
    wi
    nearly almost""".split()
)
# Words that never make a label on their own: a label of nothing but these (and stripped
# words) is dropped ("again", "being", "not", "much", "sorry", "said before").
EMPTY_LABEL_WORDS: frozenset[str] = frozenset(
    """again sorry ha haha heh lol being not no yes yeah nope much many more less most least
    lot lots bit thing things stuff something anything everything nothing none whatever etc all
    same said say says saying answered asked told mentioned before earlier already once twice
    still even ever never always sometimes probably maybe sure true right wrong enough else other
    others one ones way ways everyone someone anyone sense fact point reason part kind sort type
    able possible obviously certainly absolutely course mostly mainly anyway whole main only
    real care cares cared caring look listen done them us him myself themselves isn't innit
    gotta gonna wanna
    ain't oh ooh ah aah now hang first where when why how who which what whose dont cant
    wont isnt doesnt didnt wasnt werent arent couldnt wouldnt shouldnt im ive id youre
    theyre thats whats don't didn't doesn't won't isn't wasn't aren't weren't couldn't
    wouldn't shouldn't that'd it'd you'd would could should might may will shall nowt owt
    question questions hello hiya happened happend happen happens partly
    comes turns""".split()
    # (when a thing comes, its time gone: "it comes on a Sunday" was asked "You said it
    # comes. Why is that important to you?", a dev-7 simulated taxi driver)
)
# Words that name nothing in a label of their own, though a reply of them may say something
# ("get down to the allotment"): particles and light verbs ("up", "put them on", "get on
# with it").
LABEL_NAMELESS: frozenset[str] = frozenset(
    """up down in out off on over away get gets got getting go goes going went gone
    make makes made making do does did doing done put puts take takes took""".split()
)
INNER_FILLERS: frozenset[str] = frozenset("um uh er erm basically literally actually".split())
FILLER_PHRASES: tuple[str, ...] = ("you know", "i mean", "kind of", "sort of", "to be honest")
CLAUSE_BREAKS: frozenset[str] = frozenset(
    """that thats which who whom whose when where while if whereas before after until unless
    though""".split()
)
# Conjunctions that end a label once it has three words ("called the hotline and waited").
LATE_BREAKS: frozenset[str] = frozenset("and but or then instead rather".split())
INNER_PRONOUNS: frozenset[str] = frozenset("i i'm i've i'd we we're".split())
# Words a long label can lose without losing its meaning, and words it must not end on.
DISPENSABLE: frozenset[str] = frozenset("them it they the a an really just very actually".split())
# Time expressions that open a clause ("Last Tuesday I was late"): stripped from labels,
# and a hint that the clause sets the scene.
TIME_OPENER = re.compile(
    r"^(?:last|this|that|next|every|one|on a|on)\s+(?:\w+day|week|weekend|month|year|"
    r"morning|evening|night|time|summer|winter|spring|autumn)\b|^(?:yesterday|today|"
    r"recently|once|the other day|a few (?:days|weeks|months) ago|\w+ (?:days|weeks|months) ago|"
    r"since (?:then|the \w+|that \w+)|"
    r"in the morning|in the evening|on weekdays|on weekends|weekday mornings|most mornings)\b",
    re.IGNORECASE,
)
# A clause that opens on where it was: "In the hallway with my coat half on", "at the station"
# (round 194's Jobs-to-be-Done typed the hallway a solution, and asked "What else did you
# consider before that?"); not a figure of speech ("in the end", "at the moment", "on the
# whole", "in a way")
PLACE_OPENER = re.compile(
    r"^(?:in|at|on|outside|inside|by)\s+(?:the|my|our|his|her|their)\s+"
    r"(?!(?:end|moment|whole|way|meantime|time|past|long|short|first|second|last|same|main|"
    r"other|best|worst|case|mood|middle|experience|opinion|view|mind|head|start|beginning|"
    # ("At the start it was.", "On the plus side it is.": when and how, from the review)
    r"plus|minus|upside|downside)\b)[a-z]+"
    # (a place with nothing done or said to be there: not "At my desk I just use a cheap
    # cafetiere", "In the winter the paths are icy", from the review); "it was" closing the
    # clause only turns it round: "At the school gates it was." (a review of round 197)
    r"(?![^,.;!?]*\b(?:(?:i|we|you|they|he|she|there)(?:'\w+)?\s+\w+|"
    r"it(?:'\w+)?\s+(?!(?:was|is)\s*(?:[,.;!?]|$))\w+|(?<!it\s)(?:is|are|was|were))\b)",
    re.IGNORECASE,
)
# What the respondent does or where they live, said of themselves: "We've lived here 2 years",
# "I work nights in warehouse", "I run a little candle shop online", "I'm one person running the
# whole business". The reader types it a circumstance where the ontology has one (round 198's
# and 203's Jobs-to-be-Done had typed them a way chosen and a gain); the questions ask how it
# shapes what they do, never what happened next nor what they were trying to get done there
# (rounds 195, 203). Not a dependence ("I live on coffee during exams", from a review), nor a
# story told in the present ("I'm running for the bus").
LIFE_FACT = re.compile(
    r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:live|lived|been\s+living)\s+(?:here|there|near|with|alone|"
    r"on\s+my\s+own|by\s+myself|in\s+(?!(?:these|those|them|my|our|it)\b))\b|"
    r"^\W*(?:(?:so|well|and|but|like)\s+)?(?:i|we)\s+(?:work|do|did|worked)\s+(?:(?:on\s+)?"
    r"(?:nights|night\s+shifts?|days|lates|earlies|shifts|weekends)\b|part[\s-]time\b|"
    r"full[\s-]time\b|(?:in|at|from|for|as)\s+(?:a|an|the|home|myself)\b)|"
    r"^\W*(?:i|we)\s+work\s+(?:as|for)\b|"
    # what their job is: "So my job is basically clicking through the same test cases all day"
    # (round 216 asked what the clicking helped get done: "The clicking is my job mate")
    r"^\W*(?:(?:so|well|and|but|like)\W+)?(?:my|our)\s+(?:job|work|role)\s+(?:is|was)\s+"
    r"(?:basically\s+|just\s+|mostly\s+|literally\s+)?(?!(?:boring|exhausting|amazing|"
    r"interesting|tiring|demanding|rewarding|draining|challenging|exciting|nothing|something|"
    r"changing|suffering|killing)\b)\w+ing\b|"
    r"^\W*(?:i|we)\s+(?:run|own|manage)\s+(?:a|an|my|our|the|this)\s+\w+|"
    r"^\W*(?:i'?m|im|i\s+am)\s+(?:one|the\s+only)\s+person\b|"
    # the post they hold: "I'm the site manager", "I AM the site manager" (round 210 asked what
    # they were trying to get done there), "I'm the office manager at a primary school"
    # ... or a working life by its length: "I spent forty years as an engineer" (round 211 asked
    # what it taught them)
    r"^\W*(?:(?:well|so|and|but)\W+)?(?:i|we)\s+(?:spent|did|worked|had)\s+(?:over\s+|nearly\s+)?"
    r"(?:[\w-]+\s+){1,2}years?\s+(?:as|in|at|with)\b|"
    r"^\W*(?:(?:so|well|and|but|oh|look)\W+)?(?:i'?m|im|i\s+am)\s+(?:the|a|an)\s+(?:[\w-]+\s+)?"
    r"(?:manager|administrator|secretary|receptionist|head|deputy|supervisor|co-?ordinator|"
    r"officer|clerk|foreman|director|owner|bursar|caretaker|landlord|landlady|manageress)\b",
    re.IGNORECASE,
)
COPULAS: frozenset[str] = frozenset("is are was were be been 's".split())
# Predicates that only rate the subject ("the sound is great"): dropped from a label.
# The people of a respondent's life, by what they are to them: a question is about what was
# said of them, never the person (``asking.mentions``, ``reading.content``), and their death
# told is heard (``asking.acknowledgements``)
KIN: frozenset[str] = frozenset(
    """husband hubby wife missus partner fiance fiancee boyfriend girlfriend mum mam mom mother
    dad father son sons daughter daughters kid kids child children boy girl baby babies lad lads
    lass bairn bairns wean weans brother sister nan nana gran granny grandma grandmother grandad
    granddad grandpa grandfather grandkids grandchildren grandson granddaughter auntie aunt
    uncle""".split()
)


EVALUATIVE: frozenset[str] = frozenset(
    """great good nice amazing awesome excellent perfect fine ok okay bad terrible awful
    horrible brilliant fantastic lovely decent important crucial key essential""".split()
)
# Words that name nothing: pronouns, articles, fillers, ratings, "again", "not" (a label of
# only these is empty; a reply beyond a don't-know with only these says nothing more).
NAMELESS: frozenset[str] = (
    LEADING_STRIP
    | TRAILING_STRIP
    | EMPTY_LABEL_WORDS
    | EVALUATIVE
    | frozenset("ok okay hmm hm mm uh um alright whatever".split())
)
CAUSAL_RELATION_WORDS: tuple[str, ...] = (
    "lead",
    "leads",
    "cause",
    "causes",
    "enable",
    "enables",
    "result",
    "results",
    "produce",
    "because",
    "trigger",
    "triggers",
    "motivate",
    "motivates",
    "support",
    "supports",
    "achieve",
    "achieves",
    "serve",
    "serves",
    "help",
    "helps",
    "make",
    "makes",
    "link",
)
NON_CAUSAL_RELATION_WORDS: tuple[str, ...] = (
    "contrast",
    "contrasts",
    "versus",
    "instead",
    "revise",
    "revises",
    "correct",
    "corrects",
    "refine",
    "refines",
    "conflict",
    "conflicts",
    "opposite",
    "alternative",
)

# ---- don't-know, hedges, acknowledgements (seed 004 knowledge ceiling) ----------------------
# A don't-know, or the question passed on to someone else ("Ask my nan."), and a ceiling
# ("it just is", "end of story", "more a feeling than a reason"): their phrases are data
# (``en/dont_know.yaml``, ``en/deferral.yaml``, ``en/ceiling.yaml``), compiled once.
DONT_KNOW = phrase_union(("dont_know", "deferral"))
TERMINAL_CEILING = phrase_pattern("ceiling")
# "... annoys me": what a dislike frame says of what follows it ("what bugs me is the price")
DISLIKE_VERBS = r"(?:annoys|bugs|frustrates|bothers|irritates|gets\s+to)\s+me"
# What a thing is called when it irks ("it's annoying", "..., drives me mad", "a pain"):
# said of a pronoun (reading/held.py) or closing a sentence (reading/extraction.py)
IRKING = (
    r"(?:annoying|irritating|infuriating|maddening|frustrating|does\s+my\s+head\s+in|"
    r"winds\s+me\s+up|drives\s+me\s+(?:mad|nuts|crazy|up\s+the\s+wall|round\s+the\s+bend)|"
    r"(?:a\s+)?(?:pain(?![\s-]*free)|nightmare|rip[-\s]?off|kick\s+in\s+the\s+teeth)|"
    # said of a price (round 43: "a spare battery is 90 quid, daylight robbery")
    r"daylight\s+robbery|extortionate|a\s+(?:scam|con)\b|"
    # "I end up with a flat latte which is just sad"
    r"sad|gutting|depressing|grim|"
    # "its like undoing the session, feels a bit pointless" (round 49 asked how it helps)
    r"pointless)"
)
# A word written with a capital mid-sentence: a name, maybe ("a woman called Shona"); who
# reads it says which are ("phrases._names": never in lower case; "steering": no weekday)
TITLED = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+\b")
# Replies to "did I get that right, is anything missing?": agreement, not an element.
CONFIRMATIONS = re.compile(
    r"(?:^|(?<=[.!?] ))(?:no|yes|yeah|yep|nope)\s*,|"  # an interjection opening a sentence
    r"\b(?:(?:i think |i guess )?(?:that|it|this)(?:'s| is)? (?:about |pretty much )?"
    r"(?:covers?|covered) (?:it|everything|all of it|the lot)|"
    r"(?:that'?s|that is|it'?s|sounds) (?:about |pretty much |all )?"
    r"(?:right|accurate|correct|spot on|everything)|you(?:'ve)? got it(?: right)?|"
    r"thanks? (?:you )?for (?:asking|listening))\b",
    re.IGNORECASE,
)
EXPLORATORY_CEILING = re.compile(
    r"\b(?:but (?:maybe|perhaps|i guess|i think|probably|i suppose|it might|possibly)|"
    r"i wonder|curious|maybe it'?s|perhaps it'?s|might be|let me think|i'?d have to think|"
    r"(?:good|deep) question|never thought about it|(?:give me|hang on|need) a (?:sec|minute))\b",
    re.IGNORECASE,
)
HEDGES = re.compile(
    r"\b(?:maybe|perhaps|i guess|i suppose|sort of|kind of|kinda|not sure|probably|"
    r"possibly|might|i think|somewhat|more or less|i'?m not certain|could be)\b",
    re.IGNORECASE,
)
ACKNOWLEDGEMENTS: frozenset[str] = frozenset(
    """ok okay yes yeah yep sure no nope fine right hmm hm mm uh um alright i agree agreed
    true exactly nothing no idea dunno""".split()
)

POSITIVE_WORDS: frozenset[str] = frozenset(
    """like love loved great good nice enjoy enjoyed best better happy glad amazing awesome
    excellent perfect favourite favorite helpful easy calm relaxed confident proud safe
    comfortable pleasant important appreciate wonderful fantastic relieved""".split()
)
NEGATIVE_WORDS: frozenset[str] = frozenset(
    """hate hated dislike bad worse worst annoying annoyed frustrating frustrated awful
    terrible horrible stressed anxious worried expensive problem problems hassle angry
    upset disappointed disappointing broken useless difficult hard uncomfortable
    irritating guilty scared annoys annoy irritates sore painful pain aches knackered
    exhausted shattered frazzled flustered stuck rubbish nightmare stings ruins ruined ruin
    mould mouldy mold moldy disgusting gross filthy manky smelly stinks drenched soaked
    leaks leaking failing failed fail hypocritical poorly lonely nuisance tired nervous greasy
    slippy slippery treacherous stress stressful fussy flop flopping flopped waste wasted
    wasting grim boring bored panic panicking embarrassing embarrassed awkward chore faff
    miserable dread dreading struggle struggling skint cramps cramping fiddly
    deaf blind ill sick injured aching stiff dizzy breathless wheezy outage outages
    breakdown breakdowns dreadful shocking worry worries flimsy rammed heaving fuming
    rut uneasy robbery extortionate overpriced sad gutting pointless grumpy ratty broke
    blister blisters bruised sprained fractured hurt hurts hurting headache headaches
    migraine pricey clogged clogging unreliable unpredictable dodgy flaky naff crap crowded
    sweaty noisy carnage chaotic mortifying mortified humiliating humiliated
    soggy frantic hectic panicky""".split()
)
# Every word of how something felt or was held: a feeling, a liking or a disliking
FELT_WORDS: frozenset[str] = FEELING_WORDS | NEGATIVE_WORDS | POSITIVE_WORDS
CAUSAL_MARKERS = re.compile(
    r"\b(?:because|'cause|so that|so i|which means|that means|this means|in order to|"
    r"lets me|helps me|allows me|makes me|gives me|that's why|which is why|as a result)\b",
    re.IGNORECASE,
)
# "X is important to me" says X matters (stance +1) but names nothing new; the words are
# blanked before clause splitting so they don't become a node of their own.
IMPORTANCE = re.compile(
    r"\b(?:(?:is|are|was|it'?s|that'?s)\s+)?(?:really\s+|very\s+|so\s+)?"
    r"(?:important|matters|mattered)\s+to\s+me\b|"
    # "fuel costs matter a lot" (round 29)
    r"\b(?:matters?|mattered)\s+(?:a\s+lot|loads|massively|hugely)(?:\s+to\s+(?:me|us))?\b|"
    r"\b(?:it\s+|that\s+|this\s+)?(?:really\s+)?(?:means|meant)\s+(?:a lot|a great deal|so much|"
    r"the world|everything)(?:\s+to\s+(?:me|us)\b|(?=\s*(?:[.,;!?]|$|to\b|for\s+(?:me|us)\b)))",
    re.IGNORECASE,
)
# Words said before a noun, never of one: a phrase or a label that ends on one lost its noun
# ("every ingredient in its own little | plastic bag", round 66)
BEFORE_A_NOUN: frozenset[str] = frozenset("own little tiny wee big huge".split())
# Verbs whose doing follows them ("keep asking", "stop worrying"): no phrase ends on one
KEEP_DOING: frozenset[str] = frozenset(
    "keep keeps kept start started stop stopped avoid avoids finish quit mind minds".split()
)
# Numbers said in words (a label never ends on one whose noun was cut; an amount's words are one)
NUMBER_WORDS: frozenset[str] = frozenset(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty"
    " fifty hundred".split()
)
# A hope that the answers helped, said as a goodbye: "hope that was useful x", "hope this
# helps", "hope that's been of some use", "hope I've helped" (``reading.leaving``'s farewells
# and ``reading.nonanswers``' sign-offs: one pattern, not a copy in each)
HOPE_IT_HELPED = (
    r"hope\s+(?:that|this|it|i'?ve|i)(?:\s+(?:helps|helped)|(?:'?s|\s+is|\s+was|\s+has)?\s*"
    r"(?:been\s+)?(?:some\s+|a\s+bit\s+of\s+|of\s+(?:some\s+)?|a\s+)?"
    r"(?:useful|use|helpful|helped|helps|help|what\s+you\s+needed))"
)
# A sentence as typed: its words up to its stops (an ellipsis too), or to the end
# (``reading.leaving`` reads the last one, ``shapes.grid_answers`` the one naming an element)
SENTENCE = re.compile(r"[^.!?…]+(?:[.!?…]+|$)")
DANGLING: frozenset[str] = TRAILING_STRIP | frozenset(
    # ("inside": "should have someone picking up inside | 10 mins", round 200; not "around" or
    # "outside", which end "shop around" and "play outside", from the review)
    """every all some any each more most than from into about over under between like whole
    entire inside unless except mid""".split()
)
