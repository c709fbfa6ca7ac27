"""Offline extraction, step 2: typing a clause, which kind of element it names and where it
sits in the chain.

A clause's cue ("so", "because", "which means") and its own words (``clauses.lexical_category``:
a feeling, a pain, a time) say what kind of element it is; where they say nothing, the chain
does: the first clause answering a "why" sits above the question's focus, a later one follows
the link from the clause before (``_position``). Words outrank position, except that an answer
to "why does X matter?" is never typed below X. In a ladder, a thing the study names, said as
a noun phrase, is a feature, and what the person does is a consequence (``_worded_level``).
The type is chosen by ``OntologyView.choose_type`` from the category, the level aimed at and
the link's direction.
"""

from __future__ import annotations

import re
from dataclasses import replace

from interview_cli.core.text import label_profile
from interview_cli.llm.offline.lexicon import CATEGORY_POSITION, EVENT_PAST, LIFE_FACT
from interview_cli.llm.offline.reading.clauses import Clause, lexical_category
from interview_cli.llm.offline.reading.links import Turn, Unit, names_another, opens_another
from interview_cli.llm.offline.reading.ontology import STRONG_AFFINITY, OntologyView
from interview_cli.llm.offline.reading.stance import stance_of

# "I go when I want", "we don't row about it": what the person does or can do (not "I like
# the sound", "I bought them"): in a ladder, a consequence
# "midweek we do it as a date": a when before the doer is still a doing
_WHEN_FIRST = (
    r"(?:(?:midweek|weekdays|weekends|now|nowadays|then|sometimes|usually|often|mostly|"
    r"these\s+days|at\s+(?:the\s+)?weekends?|on\s+\w+days?|most\s+\w+)\s*,?\s+)?"
)
_DOING = re.compile(
    r"^\W*" + _WHEN_FIRST + r"(?:i|we)(?:['\u2019](?:m|d|ve|ll|re))?\s+"
    r"(?!(?:really\s+|just\s+)?(?:like|love|loved|enjoy|prefer|think|thought|guess|suppose|mean|reckon|know|have|had|got|bought|"
    r"chose|use|used|want|wanted|need|needed|was|were)\b)\w",
    re.IGNORECASE,
)
_SUBJECT_START = re.compile(
    r"^\W*" + _WHEN_FIRST + r"(?:i|we|you|he|she|they|it|my|our)\b", re.IGNORECASE
)


# (and "means" with its subject left off: "Means I'm not stood there at 11 at night waiting for
# the spin to finish", what the focus makes possible, was typed a feature for "spin" and linked
# below it in round 196's check-back)
_FILLER_FIRST = re.compile(
    r"^\W*(?:(?:like|so|well|and|but|um|erm|er|yeah|oh|i\s+mean|(?:it\s+|that\s+|which\s+)?"
    r"means|meaning)\W+)+",
    re.I,
)


def _worded_level(text: str, view: OntologyView, features: frozenset[str]) -> str | None:
    """Where the words themselves put a clause that no cue or category placed, in a ladder
    (an ontology with a type for product features): a thing the study names, said as a noun
    phrase ("the lock", "built-in lights"), is a feature whatever the question climbed to;
    what the person does ("I go when I want") is a consequence."""
    if not any(view.affinity("concrete", n) >= STRONG_AFFINITY for n in view.nodes):
        return None
    # (a filler before it is no word of the study's: "like i want mum to see i've got it
    # handled" named "like" of the phone plan's "what they like about it", and was typed a
    # feature below why being grown up matters, read back the wrong way round in round 195)
    text = _FILLER_FIRST.sub("", text)
    if _DOING.match(text):
        return "functional"
    words = set(label_profile(text).content)
    doing = re.match(r"^\W*\w+ing\b", text)  # "cooking from scratch" is a doing, not a thing
    if not _SUBJECT_START.match(text) and not doing and words & features:
        return "concrete"
    return None


def _lexical(
    view: OntologyView, clause: Clause, uncued: bool, features: frozenset[str] | None
) -> str | None:
    """The category a clause's own words name (``type_clause``); ``uncued``: no cue names
    one, and it does not answer a why."""
    lexical = lexical_category(clause.text, view.supports, timed=clause.timed)
    if (
        lexical in (None, "functional")
        and view.supports("context")
        and LIFE_FACT.search(clause.text)
    ):
        # where they live or how they work is a circumstance where the ontology has one
        return "context"
    if lexical is None and uncued and features is not None:
        # what follows "so" is what the thing before it leads to, whatever the study calls
        # its words: "nothing too fiddly, so the kids cook twice a week" names no feature
        return _worded_level(clause.text, view, features)
    return lexical


def _pick_category(cue: str | None, lexical: str | None, link: str) -> str | None:
    # On an upward link the more abstract reading wins ("helps me relax" is a feeling, not a
    # function); elsewhere the cue's own category is the better evidence.
    if cue and lexical:
        if link == "up":
            return max((cue, lexical), key=lambda c: CATEGORY_POSITION.get(c, 0.0))
        return cue
    return cue or lexical


# A clause that tells something happening or done: a verb of the past, not of being, having,
# wanting or feeling ("I was at Tesco", "I needed to pay the plumber" set the scene)
_TELLS_AN_EVENT = re.compile(
    r"\b(?:(?!(?:needed|wanted|used|seemed|liked|loved|hoped|hated|preferred|tired|bored|"
    r"worried|scared|stressed|annoyed|excited|interested|supposed|based|named|aged)\b)\w{3,}ed|"
    + "|".join(sorted(EVENT_PAST))
    + r"|made\s+a\s+mistake|put\s+a\s+hold|hangs\s+up|"
    r"(?:was|were|got|been)\s+(?:stolen|frozen|broken|down|cut\s+off|lost|nicked)|"
    r"(?:did|could|would|wouldn'?t|couldn'?t|didn'?t))\b",
    re.IGNORECASE,
)


# What went wrong in an event: a mishap's verb, or one denied ("it never arrived")
_MISHAP = re.compile(
    r"\b(?:stole|stolen|nicked|broke|broken|froze|frozen|blocked|declined|failed|bounced|lost|"
    r"crashed|refused|cancell?ed|cut\s+(?:me\s+|us\s+|it\s+)?off|overcharged|charged\s+me\s+twice|"
    r"ignored|hung\s+up|hangs\s+up|stopped\s+working|"
    r"(?:machine|reader|terminal|app|card|phone|internet|wifi|wi-fi|broadband|website|site|system|"
    r"payments?|signal|connection|service)\s+(?:just\s+)?stopped(?=\s*(?:[,.;!?]|$))|"
    r"(?:was|were|is|are|went)\s+down\s+(?!to\b)|mistake|hold|flooded|leaked|died|collapsed|snapped|went\s+wrong|messed\s+up|never|"
    r"(?:did|would|could|was|were)n'?t|nobody|no\s+one)\b",
    re.IGNORECASE,
)


def _done_by_others(category: str | None, text: str) -> bool:
    """An action told of someone else: "they cancelled the flight at the gate" is the incident,
    not what the respondent did (my own typed Critical Incident interview typed it an action,
    and made no incident node)."""
    return category == "action" and not _THEIR_OWN.match(text)


_THEIR_OWN = re.compile(r"^\W*(?:(?:and|so|then|but)\s+)?(?:i|we|me|i'?ve|we'?ve)\b", re.IGNORECASE)


_A_REASON = re.compile(r"\b(?:because|cos|cause|since|as)\b", re.IGNORECASE)
# The kinds of clause that tell how it was, not what happened
_NO_EVENT = frozenset(
    {"feeling", "emotion", "value", "lesson", "change", "attribution", "conduct", "gain"}
)


def incident_clause(clauses: list[Clause], story: bool) -> Clause | None:
    """The clause of an answer to "what happened?" that tells the incident: the first event
    told (a verb of the past, not of being, having, wanting or feeling) in which something went
    wrong, else the first event told; none that gives a reason ("because nobody rang") or names
    a feeling. The scene before it stays the scene ("I was at Tesco on a Saturday and my card
    got declined at the till", "Last month I ordered a charger online and it never arrived");
    a name is no event ("Broadband company."). ``story``: the method asks for one."""
    if not story:
        return None
    told = [
        c
        for c in clauses
        if (c.cue is None or not (c.cue.link in ("up", "down") or _A_REASON.search(c.cue.phrase)))
        and lexical_category(c.text) not in _NO_EVENT
        and _TELLS_AN_EVENT.search(c.text)
    ]
    wrong = next((c for c in told if _MISHAP.search(c.text) or stance_of(c.text) < 0), None)
    return wrong or (told[0] if told else None)


def type_clause(
    view: OntologyView,
    clause: Clause,
    link: str,
    previous: Unit | None,
    turn: Turn,
    features: frozenset[str] | None = None,
    *,
    event_open: bool = False,
) -> None:
    """Type ``clause`` in place (``category``, ``strong``, ``node_type``): by its cue and its
    words first, then by where the chain puts it (``_position``); ``features``: the study's
    own words (``extraction._Study.features``), which name a feature said as a noun phrase;
    ``event_open``: this clause tells the incident asked for (``incident_clause``)."""
    cue_category = clause.cue.category if clause.cue else None
    if cue_category and not view.supports(cue_category):
        cue_category = None
    lexical = _lexical(view, clause, cue_category is None and link != "up", features)
    category = _pick_category(cue_category, lexical, link)
    if category is None and view.supports("pain") and stance_of(clause.text) < 0:
        # what goes wrong is a pain where the ontology has a type for pains, not the default
        # solution: "Somebody gets hurt or I lose the job" (round 195's Jobs-to-be-Done typed
        # both solutions, and asked "You said you lose the job. What does that help you get
        # done?")
        category = "pain"
    if previous is None and category is None:
        category = "context" if turn.expected == "event" else turn.expected
    if event_open and (category in (None, "context") or _done_by_others(category, clause.text)):
        category = "event"  # the incident asked for (``incident_clause``)
    clause.category = category
    clause.strong = (
        category is not None
        and max(view.affinity(category, n) for n in view.nodes) >= STRONG_AFFINITY
    )
    lexical_level = (
        view.level_at(CATEGORY_POSITION[category]) if category in CATEGORY_POSITION else None
    )

    another = previous is None and names_another(clause)
    if previous is None and opens_another(clause, turn):
        turn = replace(turn, deepen=False)  # "the other big thing is ...": a line of its own
    anchor, direction, target = _position(view, link, previous, turn, lexical_level, another)
    why_above = clause.strong and _answers_why_above(previous, turn, view, lexical_level)
    if why_above:
        # The answer to "why does X matter?" is what X leads to: words that read as a lower
        # consequence do not put it at or below X ("no awkward comments", asked why blending
        # in matters). The climb keeps its direction; it reaches the top level only with
        # words that name an end (value words), never by position alone.
        if target >= view.max_level and category != "value":
            direction = "none"  # beside the focus, not above it
            target = float(max(lexical_level or 0.0, view.level(turn.focus_type) or 0.0))
    elif clause.strong:
        # The words name a kind of element the ontology has: trust them over the chain's
        # direction ("so I grab a pod coffee" names a solution, whatever came before).
        direction = "none"
        target = lexical_level if lexical_level is not None else target
    elif lexical_level is not None:
        # Words outrank position: keep the direction, but let the lexical level pull.
        target = max(target, lexical_level) if direction == "up" else lexical_level
    clause.node_type = view.choose_type(
        category=category or ("concrete" if target <= view.min_level else None),
        target_level=target,
        previous_type=anchor,
        direction=direction,
    )
    focus_level = view.level(turn.focus_type) or 0
    if why_above and (view.level(clause.node_type) or 0) < focus_level:
        # ... nor do its words put it below X: "I don't want to be a burden", asked why
        # "makes things tight" (a value) matters, was typed a functional consequence, linked
        # into the focus, and read back at the close backwards (round 118)
        clause.node_type = view.choose_type(category=None, target_level=float(focus_level))


def _position(
    view: OntologyView,
    link: str,
    previous: Unit | None,
    turn: Turn,
    lexical_level: float | None,
    another: bool = False,
) -> tuple[str | None, str, float]:
    """Where the chain puts a clause, before its words have their say: the type it hangs
    from (None: from nothing), the direction from there, and the level it aims at. The
    first clause answers the question (above the focus after a "why"); later ones follow
    the link from the clause before."""
    anchor: str | None = None
    direction = "none"
    if previous is None:
        focus_level = view.level(turn.focus_type)
        if another and focus_level is not None:
            # "I also like the noise cancelling", asked why the cable matters: another one
            # beside the focus, not what the focus leads to
            target = float(focus_level)
        elif turn.deepen and focus_level is not None:
            anchor, direction = turn.focus_type, "up"
            target = float(min(focus_level + 1, view.max_level))
        else:
            # Without a "why" question or telling words, an answer names something concrete.
            target = lexical_level if lexical_level is not None else float(view.min_level)
        return anchor, direction, target
    prev = previous.clauses[-1]
    prev_level = view.level(prev.node_type) or view.min_level
    if link == "sibling":
        target = float(prev_level)
    elif link == "none":  # a new statement starts a new chain
        target = float(view.min_level)
    elif link == "up":
        anchor, direction = prev.node_type, "up"
        target = float(min(prev_level + 1, view.max_level))
    elif link == "down":
        anchor, direction = prev.node_type, "down"
        target = float(max(prev_level - 1, view.min_level))
    else:  # sequence, assoc
        anchor = prev.node_type
        target = float(prev_level)
    return anchor, direction, target


def _answers_why_above(
    previous: Unit | None, turn: Turn, view: OntologyView, lexical_level: float | None
) -> bool:
    """The first clause answering a why on the focus, with words that would type it above
    the concrete level but not above the focus."""
    focus_level = view.level(turn.focus_type)
    if previous is not None or not turn.deepen or focus_level is None or lexical_level is None:
        return False
    return view.min_level < lexical_level <= focus_level
