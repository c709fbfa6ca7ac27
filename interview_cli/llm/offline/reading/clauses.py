"""Cutting an answer into clauses (offline extraction, step 1; naming them is ``labels``).

An answer is split into sentences, each sentence at the cue phrases of ``lexicon.CUES``.
Hedges, fillers and "don't know" phrases are first blanked out (replaced by spaces, so
every offset still points into the original answer and quotes stay verbatim). Each clause
keeps the cue that opened it (how it links to the clause before) and a semantic category
from its words (:func:`lexical_category`: a way of being, a value, a feeling, a pain, a
context, a solution, an action or a functional consequence, which the extractor weighs
against the category its cue suggests).

Naming a clause is ``labels.make_label`` (step 2).

Over 1,000 lines: one concept, where one clause of an answer ends and the next begins (at a
cue, a comma before a new subject, a contrast, a new pair), each rule weighed against the
others in ``_cuts``; the blanking that comes first reads the phrase files of ``nonanswers``
and ``meta``, and naming is ``labels``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from interview_cli.core.models import ExtractedNode
from interview_cli.core.text import NEGATIONS
from interview_cli.llm.offline.asking.vocabulary import vocabulary
from interview_cli.llm.offline.lexicon import (
    ACTION_LEADS,
    BARE_MEANS,
    BARE_SO,
    CONDUCT_PREFIXES,
    CONFIRMATIONS,
    CUES,
    DISLIKE_VERBS,
    DONT_KNOW,
    EVALUATIVE,
    FEELING_PHRASES,
    FEELING_WORDS,
    FUNCTIONAL_LEADS,
    IMPORTANCE,
    IS_FOR,
    IS_FOR_IDIOMS,
    IS_FOR_NOT_AFTER,
    IS_FOR_WHAT,
    LEADING_STRIP,
    MEANS_IDIOMS,
    MEANS_NOUN_AFTER,
    MEANS_NOUN_BEFORE,
    NUMBER_WORDS,
    PAIN_WORDS,
    PLACE_OPENER,
    SO_BOUNDARY,
    SO_DEGREE,
    SO_HEDGES,
    SO_INTENSIFIED_AFTER,
    SO_NOT_LINKING_AFTER,
    SO_NOUN_CLAUSE_VERBS,
    SO_PERSONAL,
    SO_SUBJECTS,
    SOLUTION_LEADS,
    TERMINAL_CEILING,
    TIME_OPENER,
    TRAILING_STRIP,
    VALUE_PHRASES,
    VALUE_WORDS,
    Cue,
)
from interview_cli.llm.offline.lexicon.phrases import phrase_pattern
from interview_cli.llm.offline.reading.irked import irked_spans
from interview_cli.llm.offline.reading.meta import blank_meta
from interview_cli.llm.offline.reading.nonanswers import NonContent, blank_spans, inline_spans

# A number with its thousands ("1,800 quid"): one word, and no comma that parts clauses.
THOUSANDS = r"\d{1,3}(?:,\d{3})+(?!\d)"
# The signs a figure of money is written with, kept on its word ("£3", "€40")
CURRENCY_SIGNS = "£$€"
CURRENCY_SIGN = f"[{CURRENCY_SIGNS}]"
# "3.49", "a 2:1", "1,800" kept whole
# The rest of a word after its first letter: its apostrophes and hyphens, and an ampersand
# between letters ("A&E", "M&S": round 92's "the one by A&E" was the label "one by a e")
WORD_REST = r"(?:[\w'\u2019\-]|&(?=\w))*"
# (a percentage keeps its sign: "the chatbot's 10% offer" was read back "chatbot's 10 offer",
# round 168)
WORD = re.compile(
    CURRENCY_SIGN
    + r"?(?:"
    + THOUSANDS
    + r"|\d+(?:[.:]\d+)+|\d"
    + WORD_REST
    + r")%?|[\w]"
    + WORD_REST
)
_STRENGTH = {"up": 5, "down": 5, "sequence": 4, "assoc": 3, "sibling": 2, "none": 1}
# A question back ("Why does anyone do anything?", "What do you want me to say?") and a
# tautology ("Boots are boots.", "it is what it is") say nothing about the topic.
# (A sentence that opens like a question; "maybe the face ID login?" is a tentative answer.)
# A tag question asks for agreement with what was just said ("it saves time, doesn't it?",
# "that's what life's for, isn't it, love"): the statement is the answer, the tag nothing.
_TAG = (
    r"(?:isn'?t|aren'?t|wasn'?t|weren'?t|doesn'?t|don'?t|didn'?t|won'?t|wouldn'?t|can'?t|"
    r"couldn'?t|haven'?t|hasn'?t|shouldn'?t)\s+(?:it|they|you|he|she|we|there|that|i)"
)
_TAG_QUESTION = re.compile(
    rf",\s*{_TAG}\b(?=\s*(?:,\s*(?:love|mate|dear|eh|like)\b)?\s*(?:[.!?]|$))|"
    # typed without its comma, before one: "Its just wasteful isnt it, my mam darned socks"
    # (round 51: "You said wasteful isn't it.")
    rf"(?<=\w)\s+{_TAG}\b(?=\s*(?:[,.!?]|$))",
    re.IGNORECASE,
)
# ... or, with no "n't" of its own, agreeing with a denial said before it in its clause: "a
# machine can't understand you can it" (round 203: "You said a machine can't understand you can
# it."); only the tag is blanked
_AGREEING_TAG = re.compile(
    r"\b(?:\w+n'?t|not|never)\b[^,.;!?]{1,60}?\s(?P<tag>(?:can|could|is|are|was|were|does|do|did|"
    r"will|would|has|have|should)\s+(?:it|they|you|he|she|we|there|i))\b(?=\s*(?:[.!?]|$))",
    re.IGNORECASE,
)
_QUESTION_BACK = re.compile(
    r"(?:^\s*|(?<=[.!?] ))(?:why|what|how|who|where|when|do|does|did|is|are|isn'?t|aren'?t|can|"
    r"could|would|should|will)\b[^.!?]*\?|"
    # a question of four words or more, whatever it opens with ("If I can't get myself up,
    # who's going to?"), asks the interviewer or no one; "Maybe the face ID login?" offers;
    # not a reason said unsure ("cos i need good grades??"), nor a statement with the
    # rising tone of a hedge ("less scared of ruining it, I think?")
    # , nor the answer to "what does that mean for you?" said with a rising tone ("it means
    # I'm doing an ok job as a mum? I dont know how much deeper that goes", round 35)
    # (an echo of the question blanked before it leaves it opening the answer: "what do you
    # mean features? like the machines and that?", round 44 asked about the machines)
    r"(?:^\s*|(?<=[.!?] ))(?!or\b)(?!(?:cos|coz|cause|because|bc|so)\s)"
    r"(?!(?:it|that|this)\s+(?:means|meant|makes|made|gives|gave|helps|lets)\s)"
    r"(?!(?:i'?m|im|i\s+am|i\s+feel)\s)"
    # nor a doing offered as the answer, with a rising tone ("Not throwing 100 quid a month at
    # a car park? Thats kind of it", round 128: the reason was lost), where it asks nothing
    # back ("Talking about the carton or the milk itself?", "Meaning what exactly?", from the
    # review; "morning" and "during" are no doings)
    r"(?!(?:not\s+|just\s+)?(?![a-z]*thing\s|morning\s|evening\s|during\s)[a-z]{2,}ing\s"
    r"(?![^.!?]*\b(?:or|what|which)\b))"
    r"(?![^.!?]*\b(?:maybe|perhaps|probably|possibly|i\s+think|i\s+guess|i\s+suppose|"
    r"i\s+reckon|kind\s+of|sort\s+of|idk|i\s+dunno|dunno|not\s+sure)\b)"
    rf"(?![^.!?]*,\s*{_TAG}\b[^.!?]{{0,12}}\?)"
    r"(?:[^.!?\s]+\s+){3,}(?<!you )(?<!you, )(?!(?:know|right|yeah|eh|innit|ok|okay|see)\b)"
    r"[^.!?\s]+\s*\?",
    re.IGNORECASE,
)
_TAUTOLOGY = re.compile(r"\b(\w+) (?:is|are) (?:what \w+ (?:is|are)|\1)\b", re.IGNORECASE)
# "the main thing is the fit": the frame says which one counts, the node is "fit". ("They
# do the job" stays: for a respondent who cares little, that it works is the attribute.)
_RATING_IDIOMS = re.compile(
    r"\b(?:the\s+)?(?:main|big|biggest|most important|only|key|whole)\s+(?:thing|point|reason)"
    r"(?:\s+for\s+me)?(?:\s+(?:is|was|'s))?\b|\b(?:which|that)\s+is\s+the\s+whole\s+point\b|"
    r"\bthe\s+point\s+(?:is|was)(?:\s+more)?\b|"
    # what a correction says they meant: "it's more that the foam ...", "I was saying ..."
    r"\b(?:it'?s|it\s+is)\s+more\s+that\b|\bwhat\s+i\s+meant\s+(?:is|was)\b|"
    r"\bi\s+was\s+saying(?:\s+that)?\b|"
    # a rating, not an element: "the price was fine, nothing special"
    r"\bnothing\s+(?:special|fancy|amazing|to\s+write\s+home\s+about)\b",
    re.IGNORECASE,
)
# Frames of a third-person or an absence answer: "someone like me cares because ...",
# "without it I'd have to ...": the frame is the question's, what follows is the answer.
_FRAMES = re.compile(
    # "it's not the fees so much, it's that ...": what it is not is no element
    # (a "that's" after a noun is a relative: "one evening a week that's not laundry")
    r"(?:\b(?:it'?s|it\s+is)|(?:^|(?<=[,.;!?]\s)|(?<=\bbut\s)|(?<=\bno\s))that'?s)\s+not\s+"
    # (what it is not stops at a "but": "It's not fancy but it's open when I need it, ...")
    r"(?:really\s+)?(?:about\s+)?(?:(?!\bbut\b)[^,.;!?]){1,40}?"
    # (not "it's not heavy, I think": a hedge after the comma sets nothing against it)
    r"(?:\s+so\s+much|\s+really)?\s*,"
    r"(?!\s*(?:i\s+think|i\s+guess|i\s+suppose|i'?d\s+say|i\s+reckon|basically|like|really|"
    r"honestly|to\s+be\s+(?:fair|honest)|mate|love|though|you\s+know|tbh|lol|haha)\s*(?:[,.!?]|$))"
    r"\s*(?:(?:it'?s|but)\s+)?(?:more\s+|rather\s+)?"
    r"(?:(?:that|about|the\s+fact\s+that)\b)?|"
    r"\b(?:(?:the\s+)?(?:thing|part|bit)\s+(?:that|which)|what)\s+"
    + DISLIKE_VERBS
    + r"(?:\s+the)?(?:\s+most)?(?:\s+(?:is|are))?(?:\s+when)?\b|"
    r"\b(?:someone|somebody|people|anyone|a person|others)\s+like\s+(?:me|us|you|myself)"
    r"(?:\s+(?:would|might|probably|just))*(?:\s+(?:cares?|want|wants)(?:\s+about\s+(?:it|that))?)?"
    r"|^\s*without\s+(?:it|them|that|this)\b",
    re.IGNORECASE,
)
# A full stop between digits is a decimal point ("3.49", "£2.50"), not a sentence's end.
# "\u2026": a typed ellipsis; a dash with a space each side, before a new clause's subject,
# ends a thought as a full stop does ("whether they keep the water out - my last pair leaked
# ...": round 133's first answer was read as backstory whole, its attribute lost; not "one off
# Marketplace - like half the price")
SPACED_DASH = (  # (reading.doubt parts sentences by it too)
    r"\s[-\u2013\u2014]{1,2}"
    r"(?=\s+(?i:i|i'm|im|i've|ive|we|my|our|it|it's|its|they|he|she|that|this|there|the)\b)"
)
# A sentence's end as a reader of the whole answer sees it (not a decimal point: "2.5 days")
_FULL_STOP = re.compile(r"[!?]+|\.(?!\d)")


def sentence_start(answer: str, at: int) -> int:
    """Where the sentence of ``answer`` holding ``at`` starts."""
    ends = [m.end() for m in _FULL_STOP.finditer(answer, 0, at)]
    return ends[-1] if ends else 0


_SENTENCE_END = re.compile(r"(?:(?<!\d)\.|\.(?!\d)|[!?;\n\u2026]|" + SPACED_DASH + ")+")
_EDGE_WORDS = re.compile(
    # (and a "that's" left over from the next clause after a comma: "the coffee is what gets
    # me thru the 3am slump, thats | when i properly crash", round 77's quote)
    r"^(?:(?:and|but|or|so|then|because)\b[\s,]*)+|(?:[\s,]*\b(?:and|but|or|so|then))+(?:\s+that)?$|"
    # (a word to start on, said before a comma: "Well, the barista one stretches real nice",
    # dev 8's closing read it back)
    r"^(?:(?:well|oh|ah|aye|um|erm|uh|hmm|yeah|yep|nah|ok|okay|honestly|basically|anyway)"
    r"\s*,\s*)+|"
    r",\s*(?:that'?s|thats|that\s+is|which\s+is|which)$",
    re.IGNORECASE,
)


_INFINITIVE = frozenset("wanna gonna gotta to".split())
_MADE_WHO = frozenset("me us him her them you".split())
_CAUSATIVE = frozenset("made make makes making let lets letting".split())
_SHARED_DENIAL = re.compile(r"^(?:the\s+)?(?:no|without)\s", re.IGNORECASE)
# A denied verb before an "or": "she didnt rush me or read from a script" (the verb negators of
# ``NEGATIONS``, with or without their apostrophe; not "no", which denies a noun: "no wires or
# the cheap wired ones" is a list)
_DENYING_WORDS = NEGATIONS - frozenset(
    "none nothing without neither nor non lack lacks lacking lacked hardly barely".split()
)
_VERB_NEGATORS = sorted(
    w.replace("nt", "n'?t") if w.endswith("nt") else w for w in _DENYING_WORDS - {"no"}
)
_DENIED_OR = re.compile(
    rf"\b(?:{'|'.join(_VERB_NEGATORS)})\s+\w+[^,;]*\bor\b",
    re.IGNORECASE,
)
_DENIED_DOING = re.compile(r"\b(?:not|never|no\s+more)\s+\w{3,}ing\b", re.IGNORECASE)
_DOING = re.compile(r"\s*\w{3,}ing\b", re.IGNORECASE)
# ... with or without the apostrophe: "dont", "don't"
_NEGATORS = _DENYING_WORDS | {w[:-2] + "n't" for w in _DENYING_WORDS if w.endswith("nt")}
_CONNECTIVES = ("because", "'cause", "so", "which", "that", "this", "it", "in ", "as ", ",", "and")


_IF_MAIN = re.compile(
    r"^\s*(?:(?:and|but|because|'cause|so|well)\W+)*(?P<cond>if|as long as|when|whenever)\s+"
    r"(?:[\w'\u2019]+\s+){1,6}?[\w'\u2019]+"
    r"(?=\s*,?\s+(?:then\s+)?(?:i|i'm|i'll|we|we're|you|they|it|it's|my)\b|"
    # ... or, after a comma, someone else's doing: "if i miss deadlines, clients just go to
    # someone else" (round 274 read one clause of both, and dropped it as saying the focus)
    r"\s*,\s+(?:the\s+|your\s+|our\s+|his\s+|her\s+|their\s+)?(?:clients?|customers?|people|"
    # (not "he" or "she": "If my husband cooks, he uses loads of salt" is his way, no rung)
    r"everyone|everybody|nobody|no\s+one|someone|kids|boss|there's|there\s+is)\b)",
    re.IGNORECASE,
)
_IF_CUE = Cue("if", "up")
# "Every time I rang it was a different person": when it happens, then what happened each time
# (round 210 asked 'You mentioned that you rang it was a different person.')
_EVERY_TIME_MAIN = re.compile(
    r"^\s*(?:(?:and|but|so|well)\W+)*(?:every|each)\s+(?:single\s+)?time\s+(?:i|we|you|they|he|"
    r"she)\s+(?!(?:thought|think|hope|hoped|guess|reckon|believed?|said|say|told|knew|know)\b)"
    r"[\w'\u2019]+(?:\s+(?:them|him|her|up|in|back|round|home))?"
    # (the next subject, not the verb's object: "Every time I put it on it rubs", a review)
    r"(?=\s+(?:it(?:'s|\s+(?:was|is|were|\w+s|\w+ed)\b)|i|i'd|we|they|he|she|there's|"
    r"there\s+(?:was|is)\b)"
    r"\b\s*\w)",
    re.IGNORECASE,
)
# (and how it is now, after how it was: "it took me till dinner time to straighten out, now I can
# get up and take the dog out", round 231 lost the dog inside the old bed's label; "I used to
# get sore knees but now I can do eighty miles", the review)
_COMMA_SUBJECT = re.compile(
    r"(?:,|\band|\bbut)\s+(?:then\s+|now\s+)?(?=(?:(?:i|we|you|they|he|she|it)(?:['\u2019](?:m|ve|d|ll|re|s))?"
    # typed without the apostrophe: "its", "im", "ive", "theyre"
    r"|its|im|ive|theyre|youre)\s+"
    r"(?!mean\b|guess\b|think\b|suppose\b|know\b|said\b|say\b|see\b|reckon\b)\w)|"
    # what happened next, someone else doing it: "sat on hold for an hour, then a guy called Dan
    # said it was a system error" (a typed support-call interview read one event of both)
    r",\s+(?:and\s+)?then\s+(?=(?:a|an|the|this|some|my|our|his|her|their)\s+\w)|"
    # ... or what those ones are, after "but": "so i could bring my daughter sometimes but those
    # are expensive" (round 246 read the dearness into the daughter, and asked why bringing her
    # bothered him)
    r"\bbut\s+(?=(?:those|these)\s+(?:ones\s+)?(?:are|were|cost|costs|'re|re|aren't|arent)\b|"
    r"that(?:'s|s|\s+is)\s+(?:too\s+|really\s+|so\s+|a\s+bit\s+|quite\s+)?(?:expensive|dear|pricey|"
    r"costly|extra)\b)|"
    # two of them as the subject: "the money I suppose, me and my girlfriend want to save for
    # deposit" (round 179 made "money me and my girlfriend want" one node)
    r",\s+(?=(?:me|i|my\s+\w+)\s+and\s+(?:my\s+|me\b|i\b)?\w*\s+(?:both\s+)?(?:want|wanted|"
    r"need|needed|have|had|are|were|decided|got|get|go|went|like|love|live|do|did)\b)|"
    # ... or after "and" and a while: "The vet put us onto this grain free stuff and within a
    # fortnight her tummy settled" (round 207's settled tummy was kept inside the vet's label)
    r"\band\s+(?=(?:within|after|in|over)\s+(?:a|an|the|two|three|a\s+few|\d+)\s+\w+\s+(?:her|his|"
    r"my|our|their|the|it|they|she|he|i|we)\b)|"
    # a second statement about something else: "... and the noise cancelling is proper good"
    r"\band\s+(?:that\s+)?(?=(?:the|my|our|their|his|her|your)\s+(?:[\w'-]+\s+){0,2}(?:is|are|was|were|has|"
    r"have|had|does|do|did|can|can't|will|won't|keeps?|gets?|goes|lasts?|makes?|stays?|"
    # ... or what it did: "I'm the office manager at a primary school and our broadband
    # provider cut the whole school off" (round 209 made one node of both, the job's label)
    r"cut|put|sent|took|gave|lost|broke|left|rang|sold|shut|kept|told|said|hung|came|went|got|"
    r"made|brought|bought|found|(?!used\b)\w{3,}ed)\b)|"
    # ... or what else it is: "i notice the quick 30 minute wash and that its quiet on the
    # spin so i can still hear the telly" (round 185 read the wash as why they hear the telly)
    r"\band\s+(?=that\s+(?:it'?s|it\s+is|they'?re|theyre|they\s+are)\s+\w)|"
    # ... or a condition of its own: "I work from home and if I dont sleep I am like a zombie in
    # the meetings" (round 78: the work made the whole clause backstory, the zombie unread)
    r"\b(?:and|but)\s+(?=if\s+(?:i|we|you|they|he|she|it|my|the)\b)|"
    # ... or after a comma, what is so of something of theirs: "Also the noise, our flat is
    # small" (round 78 made the node "noise our flat small")
    r",\s+(?=(?:the|my|our|their|his|her|your)\s+(?:[\w'-]+\s+){0,4}(?:is|are|was|were)\b"
    r"(?!\s+just\b))|"  # (not "the radio is just background": played down)
    # ... or a thing and what it does, said with "-ing": "i mostly use them on the train, the
    # battery lasting all week is the big thing" (a typed answer made one node of the train)
    r",\s+(?=(?:the|my|our|their|his|her|your)\s+[a-z]+\s+[a-z]{3,}ing\b)|"
    # ... or after a comma, someone of theirs and what they did: "Its just wasteful isnt it,
    # my mam darned socks till there was more darn than sock" (round 51)
    r",\s+(?=(?:my|our|me)\s+(?:mam|mum|mom|mother|dad|father|nan|nana|gran|granny|grandad|"
    r"grandma|husband|wife|partner|fella|missus|son|daughter|brother|sister|kids|boss|mate)\s+"
    r"(?:[\w'-]+\s+)?\w+ed\b)|"
    # ... or after a comma, another thing and what it did: "The laser mapping I guess, the old
    # cheap one we had before kept getting stuck under the sofa" (round 50 held the mapping
    # against for the old one getting stuck); "they're waterproof, my old ones leaked like a
    # sieve" (a typed interview dropped the waterproofing with the old boots' backstory)
    r",\s+(?=(?:the|my|our|their|his|her|your)\s+(?:old|other|last|previous|first|cheap|new)\s+"
    r"(?:[\w'-]+\s+){0,4}?(?:is|are|was|were|has|"
    r"had|kept|keeps|used\s+to|would|never|always|broke|died|got|gets|took|takes|\w{3,}ed)\b)|"
    # ... or a doing said as its subject: "... and having that 6am thing is good for my head"
    r"\band\s+(?=\w+ing\s+(?:[\w'-]+\s+){0,3}(?:is|are|was|were|makes?|keeps?|gives?|"
    r"helps?)\b)|"
    # a second action with its subject unsaid: "..., pour it in my cup and drink it on the
    # train" (a verb and its object pronoun); not "go and fetch it", one doing
    r"(?:,|(?<!\bgo\s)(?<!\bcome\s)(?<!\btry\s)(?<!\bwent\s)(?<!\bgoes\s)\band)"
    r"\s+(?:then\s+)?(?=(?!it\b|them\b|that\b|this\b)[a-z]{3,}\s+(?:it|them)\b)",
    re.IGNORECASE,
)
_COMMA_CUE = Cue(",", "sibling")
# A thing said, then what it is not, with no comma between: "for the telly no the quick wash"
_BARE_CONTRAST = re.compile(r"\b(?P<before>[a-z']+)\s+(?=(?:not|no)\s+the\s+[a-z])", re.I)
_A_VERB = re.compile(
    r"\b(?:is|are|was|were|be|get|gets|got|last|lasts|do|does|did|have|has|had|go|goes|went|"
    r"make|makes|made|break|breaks|keep|keeps|work|works)\b",
    re.IGNORECASE,
)
# ... after a thing, not a verb or a word the "not" belongs to ("it's not the price")
_NOT_A_THING = frozenset(
    """is are was were be been am it's its that's thats there's theres do does did don't can
    could would will should must might may has have had i you we they he she it who which what
    if and but or so just really probably maybe definitely certainly actually still why i'm im
    he's hes she's shes we're they're theyre you're youre i've ive who's""".split()
)
# After a comma, another thing and what it is for, a chain of its own: "the price fixed so Im
# not taken advantage of, signal at Mairs farm so I can talk to the family" (round 57 read
# "not taken advantage of, signal at Mairs farm" as one rung, leading to talking to the family)
# (only after a pair of the same form, "A so I ..."; never a clause about who or what the first
# one was: "its cheaper so I save", "everyone talks so I feel like a family")
_SO_WHO = (
    # "so I ...", the pair's second half ("good mpg so theres money for our holiday" too)
    r"so\s+(?:i|i'm|im|we|you|they|it|its|it's|my|the|there|theres|there's|he|she|his|her|our|"
    r"their)\s"
)
# (an "and" may lead it, and its thing may take five words: "..., no petrol in the shed so the
# grandkids are safe, and quiet so I can mow early", round 63's closing answer, chained
# all three off the first)
_COMMA_NEW_PAIR = re.compile(
    r",\s+(?:and\s+)?(?=(?!(?:so|and|but|or|because|cos|then|it|its|it's|he|she|they|we|i|i'm|"
    r"im|you|everyone|everybody|nobody|not|the\s+kids|kids|that|this|there)\b)"
    rf"(?:[\w'-]+\s+){{1,5}}?{_SO_WHO})",
    re.IGNORECASE,
)
# (or "because": "a big drum so I get it done in one go, it not breaking again because when it
# died I was stuck, quiet because the baby naps over the utility", a closing answer's list of
# reasons, had chained each reason off the one before)
_REASON = r"(?:because|cos|coz|cause)\s"
_COMMA_NEW_REASON = re.compile(
    r",\s+(?:and\s+)?(?=(?!(?:so|and|but|or|because|cos|then|he|she|they|we|i|i'm|im|you|"
    rf"that|this|there|which|when|if)\b)(?:[\w'-]+\s+){{1,5}}?{_REASON})",
    re.IGNORECASE,
)
_A_SO_B = re.compile(rf"\b(?:{_SO_WHO}|{_REASON})", re.IGNORECASE)
_BARE_SO = re.compile(r"\bso\b", re.IGNORECASE)
# a list said before the comma: "the main things are X and Y, Z so ..."
_LISTED = re.compile(r"\b(?:things|ones|points)\s+(?:are|were)\b[^,]*\band\b", re.IGNORECASE)
_NEW_PAIR_CUE = Cue(",", "none")
# A comma that parts words, not one inside a number ("1,800 quid").
COMMA = re.compile(r",(?!(?<=\d,)\d)")
# A part of a clause: to the next comma that parts clauses (not the one in "£1,200"), or ";"
PART = re.compile(rf"(?:(?!{COMMA.pattern}|;).)+")
# ... or up to a "now" they are somebody: "It makes you feel you're still some use | now im
# retired" (``extraction``: the clause's part before its backstory)
NOW_PART = re.compile(
    rf"(?:(?!{COMMA.pattern}|;|\s+now\s+(?:that\s+)?(?:i'?m|im|i\s+am|i'?ve|we'?re|we\s+are|"
    r"we'?ve)\b).)+",
    re.IGNORECASE,
)


@dataclass
class Clause:
    """One clause of the answer that may name an element of the ontology."""

    text: str  # the clause's words, noise blanked
    start: int  # span of its content in the answer
    end: int
    quote_start: int  # where its verbatim quote starts (earlier when the cue belongs to it)
    cue: Cue | None
    sentence: int
    label: str = ""
    category: str | None = None
    node_type: str = ""
    existing: bool = False  # names a node from an earlier turn: reference, don't re-extract
    strong: bool = False  # its category points clearly at one node type
    timed: bool = False  # its sentence put a time before it ("Last Tuesday I was late")
    # the stretch of the answer between the cues around it, blanked words included
    raw_start: int = 0
    raw_end: int = 0


# "because" as typed.
_TYPED_BECAUSE = frozenset("cos coz cuz".split())
# What refuses a letting ("won't let me", "never lets me"), each spelled as typed.
_REFUSED = (
    "won't",
    "wont",
    "don't",
    "dont",
    "doesn't",
    "doesnt",
    "didn't",
    "didnt",
    "never",
    "not",
    "wouldn't",
    "wouldnt",
)


def _cue_pattern() -> re.Pattern[str]:
    phrases = sorted({c.phrase for c in CUES}, key=len, reverse=True)
    parts = []
    for phrase in phrases:
        body = re.escape(phrase).replace(r"\ ", r"\s+").replace("'", "['\u2019]")
        lead = "" if phrase.startswith(",") else r"(?<![\w'\u2019])"
        if phrase.startswith("'s "):
            lead = r"(?<=\w)"  # "the quiet's for next door": the thing's own "'s"
        if phrase in IS_FOR:
            # (not matched there at all, so that a "because" inside it is read as itself)
            words = sorted(re.escape(w) for w in IS_FOR_NOT_AFTER)
            lead += "".join(rf"(?<!\b{w})(?<!\b{w}\s)" for w in words)
        # "it lets me relax" opens a reason; "it won't let me down" is the phrasal verb, and
        # "she won't let me skip it" is what they cannot do, no reason (round 22: "skip it")
        letting = re.search(r"\blets?\s+me$", phrase)
        down = r"(?!\s+down\b)" if letting else ""
        if phrase in _TYPED_BECAUSE:
            down = r"(?!\s+of\b)"  # "8 till 7 cos of labs": a time's reason, no clause
        if letting:
            lead += "".join(rf"(?<!\b{n}\s)" for n in _REFUSED)
        if phrase.startswith("it "):
            # "Knowing whats in it means I can ...": the "it" is what they know is in it, the
            # cue its "means" (round 142 asked "You said you know what's.")
            lead += "".join(rf"(?<!\b{p}\s)" for p in _OBJECT_OF)
        parts.append(lead + body + r"(?![\w'\u2019])" + down)
    return re.compile("|".join(parts), re.IGNORECASE)


_OBJECT_OF = ("in", "on", "of", "with", "for", "about", "at", "into", "from", "to")
_CUE_RE = _cue_pattern()
_CUES_BY_PHRASE = {c.phrase: c for c in CUES}


def _cue_for(matched: str) -> Cue:
    key = " ".join(matched.lower().replace("\u2019", "'").split())
    if key.startswith(","):
        key = ", " + key[1:].strip()
    return _CUES_BY_PHRASE[key]


def _the_point_after_a_comma(answer: str, frame: re.Match[str]) -> bool:
    """An ``emphasis/ahead`` frame that says "the point is", after a comma: what it puts ahead
    is a clause of its own ("it ended with everyone hungover on the plane, the point is the 90
    quid they charged me", round 183 asked about the plane); not every frame that puts a thing
    ahead ("So when we took Netflix, the main thing for me was ..." leads into its clause)."""
    return "point" in frame.group(0).lower() and answer[: frame.start()].rstrip().endswith(",")


@lru_cache(maxsize=1024)
def blank(answer: str) -> str:
    """The answer with hedges, fillers, importance and don't-know phrases, and remarks about
    the interview ("like I said", "can we move on?"), replaced by spaces."""
    working = list(blank_spans(blank_meta(answer), inline_spans(answer)))
    _blank_around_times(answer, working)
    for named in _APPOSITION.finditer(answer):
        # "one manager, Sandra, actually took ownership": who it was, said in passing, is no
        # clause of its own (round 156's summary read back "one manager"); not a list of
        # names ("I rang the energy company, Ofgem, got nowhere")
        comma = answer.index(",", named.start())
        working[comma] = working[named.end() - 1] = " "
    for aside in (*_WHO_AS_ASIDE.finditer(answer), *_AGE_AS_ASIDE.finditer(answer)):
        # "my daughter, who's 15 and very into climate stuff, gives me a look": who she is, said
        # in passing, is no clause (round 197 made "who's 15" and "into climate" nodes), and her
        # clause goes on past it; so is her age ("Mrs Patel, 82, got two buses in", round 200)
        for i in range(aside.start("aside"), aside.end("aside")):
            working[i] = " "
    for frame in _LEADS_TO.finditer(answer):
        # "when I've been rushed it leads to a bad cut": the question's own verb said back
        # names nothing, and where it stood one clause ends and the next begins
        working[frame.start() : frame.end()] = ";" + " " * (frame.end() - frame.start() - 1)
    ahead = phrase_pattern("emphasis/ahead")
    points: list[int] = []
    for pattern in (
        _TAG_QUESTION,
        ahead,
        phrase_pattern("emphasis/comes_to"),
        phrase_pattern("emphasis/behind"),
        phrase_pattern("emphasis/offer"),
        phrase_pattern("frame"),
        phrase_pattern("another"),
        phrase_pattern("against"),
        phrase_pattern("against_after"),
        _RATING_IDIOMS,
        _FRAMES,
        IMPORTANCE,
        DONT_KNOW,
        TERMINAL_CEILING,
        CONFIRMATIONS,
        _QUESTION_BACK,
        _TAUTOLOGY,
    ):
        for match in pattern.finditer(answer):
            for i in range(match.start(), match.end()):
                working[i] = " "
            if pattern is ahead and _the_point_after_a_comma(answer, match):
                points.append(match.start())
    _blank_agreeing_tags(answer, working)
    for at in points:  # (after the blanking, which would space the break over)
        working[at] = ";"
    for start, end in irked_spans(answer):
        # (where it stood the clause ends: "The queue drives me mad but the staff are lovely")
        working[start:end] = " " * (end - start - 1) + ";"
    text = "".join(working)
    # "Nothing much, literally, goes to landfill": a filler between commas after a word or two
    # of a sentence leaves no clause behind, only its commas; the sentence is one again
    for match in _FILLER_COMMAS.finditer(text):
        working[match.start("a")] = working[match.start("b")] = " "
    return "".join(working)


def _blank_agreeing_tags(answer: str, working: list[str]) -> None:
    for tag in _AGREEING_TAG.finditer(answer):
        working[tag.start("tag") : tag.end("tag")] = " " * (tag.end("tag") - tag.start("tag"))


_FILLER_COMMAS = re.compile(
    r"(?:^|(?<=[.!?;]\s))\s*[\w'\u2019]+(?:\s+[\w'\u2019]+)?\s*(?P<a>,)\s{2,}(?P<b>,)"
)


# "not sluggish on a Thursday": with the time gone, its preposition names nothing either.
_TIME_PREPOSITION = re.compile(r"\b(?:on|at|in|by|during|every|for)\s*$", re.IGNORECASE)
# A name said between commas after who it was, the clause going on after it
_APPOSITION = re.compile(
    r"\b(?:manager|lady|guy|woman|man|bloke|fella|agent|engineer|assistant|girl|lad|chap|"
    r"person|boss|supervisor|advisor|adviser|nurse|doctor|receptionist|driver|mechanic|one)"
    r",\s+(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?,"
    r"(?=\s+(?:actually|really|just|finally|who|had|has|was|did|took|gave|said|sorted|came|"
    r"stayed|listened|fixed)\b)",
    re.IGNORECASE,
)
_WHO_AS_ASIDE = re.compile(
    r"\b(?:daughter|son|husband|wife|partner|mum|mam|mom|dad|sister|brother|boss|"
    r"neighbour|friend|missus|grandson|granddaughter|kids|lad|girl|boy)"
    r"(?P<aside>,\s+who(?:'s|s|\s+is|\s+are|\s+was|\s+were)\s+[^,.;!?]{1,45},)(?=\s+\w)",
    re.IGNORECASE,
)
_AGE_AS_ASIDE = re.compile(
    r"(?-i:[A-Z][a-z]+)(?P<aside>,\s+(?:aged\s+)?\d{1,3}(?:\s+(?:years\s+old|yrs?|year\s+old))?,)"
    r"(?=\s+(?!(?:and|or|but|then)\b)[a-z])",
    re.IGNORECASE,
)
# (also a verb's particle before a day told by what came after it: "Our printer packed in |
# the day before parents evening" keeps its "in", round 209; not "on the day before.")
_OWN_PREPOSITION = re.compile(r"(?:on|at|in|by|during|every|for)\b", re.IGNORECASE)
# (a phrasal verb's "in", not a place's: "my card got blocked in | the week before", a review)
_PARTICLE_IN = re.compile(
    r"\b(?:packed|caved|gave|handed|checked|logged|moved|plugged|filled|signed|kicked|chipped|"
    r"pitched|stepped|popped|called|broke|dropped|joined|settled)\s+in\s+$",
    re.IGNORECASE,
)
_TOLD_BY_AFTER = re.compile(r"the\s+\w+\s+(?:before|after)\s+\w", re.IGNORECASE)


_LEADS_TO = re.compile(
    r"\b(?:(?:and\s+)?then\s+)?(?:it|that|this|which)\s+(?:leads?|led)\s+(?:me\s+)?to\b|"
    # the read-back's verb agreed with: "the label reading does lead to her being comfy"
    r"\b(?:does|do|did)\s+lead\s+to\b|"
    # "How does that help you?" - "it helps cos i get better feedback" (round 25)
    r"\b(?:it|that|this)\s+(?:helps|matters)(?=\s+(?:because|cos|coz|cuz|as|since)\b)|"
    # the read-back's own words said back: "firm support leading to waking without the ache"
    # (after its quoted words were blanked too: "'X' leading to 'Y' is daft", round 25)
    r"(?:(?<=\w)|(?<=\s))\s*leading\s+to\b|"
    # which story they tell, after what it is not: "not really a shop thing mate but the one
    # that stands out is last winter, my battery died" (round 81 asked "You said 'not really a
    # shop thing'. What happened next?")
    # (or opening the answer: "ok so the one that stands out, last month the lock jammed")
    r"\b(?:but\s+)?the\s+(?:one|time|thing)\s+(?:that|which)\s+(?:really\s+)?(?:stands|sticks)\s+"
    r"out(?:\s+(?:for\s+me|most))?(?:\s+(?:is|was)\b|\s*,)",
    re.I,
)


def _blank_around_times(answer: str, working: list[str]) -> None:
    """Blank (in place) the preposition leading into each time, and a time's "'s"."""
    for time in inline_spans(answer, ("time",)):
        particle = _PARTICLE_IN.search(answer, 0, time.start) and _TOLD_BY_AFTER.match(
            answer, time.start
        )
        if not _OWN_PREPOSITION.match(answer, time.start) and not particle:
            # (not when the time has its own: "put a wash on | at night" keeps its "on")
            _blank_preposition_before(working, time.start)
        if answer[time.end : time.end + 2] in ("'s", "\u2019s"):
            working[time.end : time.end + 2] = "  "  # "Thursday's our night": the time's verb


def _blank_preposition_before(working: list[str], at: int) -> None:
    """Blank the preposition that leads into a blanked time ending at ``at``."""
    match = _TIME_PREPOSITION.search("".join(working[max(0, at - 12) : at]))
    if match is not None:
        for i in range(at - (len(match.group(0))), at):
            working[i] = " "


def content_words(text: str) -> list[str]:
    return [
        w for w in WORD.findall(text.lower()) if w not in LEADING_STRIP and w not in TRAILING_STRIP
    ]


def _merge(a: Cue | None, b: Cue) -> Cue:
    """Cues with nothing between them ("because it lets me") act as one."""
    if a is None:
        return b
    link = b.link if _STRENGTH[b.link] >= _STRENGTH[a.link] else a.link
    return Cue(
        f"{a.phrase} {b.phrase}", link, b.category or a.category, b.in_quote, b.prefix or a.prefix
    )


def _sentences(working: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for match in _SENTENCE_END.finditer(working):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(working)))
    return spans


def _cuts(sentence: str, offset: int, active: Callable[[Cue], bool]) -> list[tuple[int, int, Cue]]:
    cuts = []
    for match in _CUE_RE.finditer(sentence):
        cue = _cue_for(match.group(0))
        if not active(cue):
            continue
        before = sentence[: match.start()].split()
        previous = before[-1].lower().strip(",").replace("\u2019", "'") if before else ""
        made = previous in _MADE_WHO and len(before) > 1 and before[-2].lower() in _CAUSATIVE
        if (previous in _NEGATORS | _INFINITIVE or made) and not cue.phrase.startswith(
            _CONNECTIVES
        ):
            # "not feel like a dinosaur": the negation belongs to what the cue introduces,
            # and cutting there would leave a node "not" and lose the negation; so does the
            # wanting ("i dont wanna | feel like a muppet" made the rung "dont wanna", round 36)
            # and the making ("He just never made me | feel like a nuisance" lost its "never",
            # round 40: read back as "feel like a nuisance")
            cuts.extend(_denied_frame(sentence, offset, match.start(), cue))
            continue
        if cue.phrase in BARE_SO and not _so_links(sentence, match, cue, previous):
            continue
        if cue.phrase in IS_FOR and not _said_of_a_thing(sentence, match, previous):
            continue
        if cue.phrase in BARE_MEANS:
            after = [w.lower().strip(",") for w in sentence[match.end() :].split()]
            if (
                not before
                or not after
                or previous in MEANS_NOUN_BEFORE
                or (after[0] in MEANS_NOUN_AFTER or MEANS_IDIOMS.match(sentence[match.end() :]))
            ):
                continue
        cuts.append((offset + match.start(), offset + match.end(), cue))
    main = _IF_MAIN.match(sentence)
    if main and not any(main.start("cond") <= start - offset < main.end() for start, _, _ in cuts):
        # "If I can concentrate, I get my reading done": the condition is the means, the
        # main clause its end; one label for both would read "if can concentrate get my ...".
        at = offset + main.end()
        cuts.append((at, at, _IF_CUE))
    for _, end, cue in list(cuts):
        # ... and where a clause opens on one after "so": "I go before work so if the showers
        # are grim my whole day is ruined" (round 255 asked about "go so if the showers")
        opens = _IF_MAIN.match(sentence[end - offset :]) if cue.phrase in BARE_SO else None
        if (
            opens
            and opens.group("cond").lower() == "if"
            and not any(end < s < end + opens.end() for s, _, _ in cuts)
        ):
            cuts.append((end + opens.end(), end + opens.end(), _IF_CUE))
    if every := _EVERY_TIME_MAIN.match(sentence):
        cuts.append((offset + every.end(), offset + every.end(), _COMMA_CUE))
    _second_statements(sentence, offset, cuts)
    _second_doings(sentence, offset, cuts)
    _bare_contrasts(sentence, offset, cuts)
    _new_pairs(sentence, offset, cuts)
    cuts.sort(key=lambda cut: cut[0])
    return cuts


def _bare_contrasts(sentence: str, offset: int, cuts: list[tuple[int, int, Cue]]) -> None:
    """The cuts (in place) before what it is not, said without its comma: "the quiet spin is
    for the telly no the quick wash" is a contrast of its own (``contrast.yaml``), not part of
    the telly; not a statement of its own ("they sit fine no the pads get sweaty")."""
    for contrast in _BARE_CONTRAST.finditer(sentence):
        rest = re.split(r"[,;:]", sentence[contrast.end() :])[0]
        if contrast.group("before").lower() not in _NOT_A_THING and not _A_VERB.search(rest):
            cuts.append((offset + contrast.end(), offset + contrast.end(), _COMMA_CUE))


def _so_links(sentence: str, match: re.Match[str], cue: Cue, previous: str) -> bool:
    """A bare "so" (``BARE_SO``) that joins two clauses, not a degree ("so quiet"): at a clause
    boundary before a subject, before a clause of its own (``SO_PERSONAL``, ``_noun_clause``),
    or before a condition with its own main clause ("I go before work so if the showers are
    grim my whole day is ruined": round 255 asked about "go so if the showers")."""
    after = sentence[match.end() :].split()
    while len(after) > 1 and after[0].lower().strip(",") in SO_HEDGES:
        after = after[1:]
    pronoun = (
        cue.phrase.split()[1]
        if cue.phrase != "so"
        else (after[0].lower().strip(",") if after else "")
    )
    subject = cue.phrase != "so" or pronoun in SO_SUBJECTS
    personal = (
        pronoun in SO_PERSONAL or (cue.phrase == "so" and _noun_clause(after, previous))
    ) and previous not in SO_NOT_LINKING_AFTER
    if cue.phrase == "so" and pronoun == "if" and previous not in SO_NOT_LINKING_AFTER:
        personal = personal or _IF_MAIN.match(sentence[match.end() :]) is not None
    return bool((SO_BOUNDARY.search(sentence[: match.start()]) and subject) or personal)


def _said_of_a_thing(sentence: str, match: re.Match[str], previous: str) -> bool:
    """ "X is for Y" (``IS_FOR``) says what a thing named is for: a content word between the
    part's start and the cue, the word before it no pronoun, no idiom after ("that's for
    sure"), and after "for" a doing or someone's (``IS_FOR_WHAT``)."""
    if previous in IS_FOR_NOT_AFTER or IS_FOR_IDIOMS.match(sentence, match.end()):
        return False
    if match.group(0).lower().endswith("for") and not IS_FOR_WHAT.match(sentence, match.end()):
        return False
    part = re.split(r"[,;:]", sentence[: match.start()])[-1]
    if re.search(r"\d|\b(?:quid|pounds?|bucks|euros?|dollars)\b|[£$€]", part, re.IGNORECASE):
        return False  # an amount and what it buys: "the 80 quid is for the whole bundle"
    return bool(content_words(part)) and bool(content_words(sentence[match.end() :]))


_DENIAL_BEFORE = re.compile(
    r"(?:\b(?:did|do|does|would|will|could)\s+not|\b\w+n['\u2019]?t|\bnever|\bnot)\s+$",
    re.IGNORECASE,
)


def _denied_frame(sentence: str, offset: int, at: int, cue: Cue) -> list[tuple[int, int, Cue]]:
    """A frame of feeling denied as a second thing said ("he actually listened and didnt make
    me | feel daft", round 165 asked "You mentioned feeling daft."): a clause of its own from
    the denial, which keeps it, after "and" or "but"; else nothing."""
    denial = _DENIAL_BEFORE.search(sentence, 0, at)
    if not cue.prefix or denial is None:
        return []
    if not re.search(r"\b(?:and|but)\s+$", sentence[: denial.start()], re.IGNORECASE):
        return []  # its own subject's ("the oat one never makes me feel sick"): one clause
    before = re.sub(r"\b(?:and|but|so|he|she|they|it|i|we|you)\b", " ", sentence[: denial.start()])
    if not content_words(before):
        return []
    return [(offset + denial.start(), offset + denial.start(), _COMMA_CUE)]


def _noun_clause(after: list[str], previous: str) -> bool:
    """After a bare "so", a clause whose subject is a noun of one to three words ("so boot
    space is massive") and its verb (``SO_NOUN_CLAUSE_VERBS``), after a word an intensifier's
    "so" does not follow (``SO_INTENSIFIED_AFTER``) and before no word it would intensify
    (``SO_DEGREE``, ``EVALUATIVE``: "it makes my coffee so creamy sugar isn't needed")."""
    if not previous or previous in SO_INTENSIFIED_AFTER or previous.endswith("ly"):
        return False
    words = [w.lower().strip(",").replace("\u2019", "'") for w in after[:4]]
    if not words or words[0] in SO_DEGREE or words[0] in EVALUATIVE:
        return False
    for at, word in enumerate(words):
        if word in SO_NOUN_CLAUSE_VERBS:
            return at >= 1
        if word in SO_PERSONAL or word in SO_SUBJECTS or not word.isalpha():
            return False
    return False


def _second_statements(sentence: str, offset: int, cuts: list[tuple[int, int, Cue]]) -> None:
    """The cuts (in place) where a second statement starts after a comma or an "and": "it
    just works, I don't have to fiddle with it", "... and then I'd get the headache" are an
    element each, like the first, not the tail of one long label."""
    for match in _COMMA_SUBJECT.finditer(sentence):
        at = offset + match.end()
        if match.group().lower().startswith(("but", "and")) and not content_words(
            sentence[: match.start()]
        ):
            # (a sentence that opens "But its ..." starts a statement of its own: it is no
            # sibling of the last sentence's reason; round 69 linked "being knackered on the
            # shift" to "the flat ones" across "... stay on my side. but its ...")
            continue
        if match.group().lower().startswith("and") and _joins_subjects(sentence, match.start()):
            continue  # "the kettle and the toaster stopped working": one subject of two things
        if not any(abs(start - at) <= 12 for start, _, _ in cuts):
            cuts.append((at, at, _COMMA_CUE))


def _second_doings(sentence: str, offset: int, cuts: list[tuple[int, int, Cue]]) -> None:
    """The cuts (in place) where a second thing done by the same subject starts after "and":
    "it keeps me awake and saves money for Zosia ballet" is two things it does (a typed
    closing answer lost the money); both verbs in the same "-s" form, so that "the dog and
    cats" or "she likes it and its price" is no such pair."""
    for match in _AND_DOES.finditer(sentence):
        verb = match.group("verb").lower()
        # (a plural noun as often, unless an object follows: "... and shows my balance")
        plural = verb in _PLURAL_TOO and not _OBJECT_NEXT.match(sentence, match.end())
        if verb not in _S_FORMS or plural:
            continue
        segment = re.findall(r"[a-z']+", re.split(r"[,;]", sentence[: match.start()])[-1].lower())
        # (the first doing has words of its own: "it just works and gets me my Saturday
        # back" is one thing, no bare "works")
        if not set(segment[:-1]) & _S_FORMS or segment[-1] in _S_FORMS:
            continue
        at = offset + match.start("verb")
        if not any(abs(start - at) <= 12 for start, _, _ in cuts):
            cuts.append((at, at, _COMMA_CUE))


# "-s" forms that are as often plural nouns after "and" ("its comfort and looks", "the school
# run and walks to the park", "waste and costs", "odds and ends": the review)
_PLURAL_TOO = frozenset(
    """looks walks drives rides costs shows ends plays works runs calls texts trips lifts pays
    sets reads charges lasts fits cuts turns starts sleeps checks plans matters
    cares moves lives picks waits worries watches fixes breaks sends wins wears""".split()
)
_OBJECT_NEXT = re.compile(
    r"\s+(?:my|me|your|you|it|them|him|her|us|our|the|a|an|some|any|money|time)\b", re.IGNORECASE
)
_AND_DOES = re.compile(r"\s+and\s+(?:also\s+|then\s+)?(?P<verb>[a-z]+s)\b", re.IGNORECASE)
# The "-s" forms of the common verbs (``asking/lexicon/en/verbs.yaml``), "is" and "has" aside
# (auxiliaries as often as verbs: "it keeps going and is cheap")
_S_FORMS = frozenset(
    w for w in vocabulary().verbs if w.endswith("s") and w not in ("is", "has", "was", "does")
)


def _joins_subjects(sentence: str, at: int) -> bool:
    """The "and" at ``at`` follows no more than a noun of two words since the last comma: it
    joins two subjects ("My mum and my sister cooked"), no statement is before it."""
    words = [w.lower() for w in re.findall(r"[\w'\u2019]+", re.split(r"[,;]", sentence[:at])[-1])]
    stating = {w.replace("\u2019", "'").split("'")[0] for w in words} & _STATING
    return len(words) < 3 and not stating


# Words that make a statement of a short segment ("Its quiet and the battery lasts")
_STATING = frozenset(
    "i im it its we they he she you that there theyre youre is are was were ive".split()
)


def _new_pairs(sentence: str, offset: int, cuts: list[tuple[int, int, Cue]]) -> None:
    """The cuts where a chain of its own starts, "A so I ..." after a comma (in place): after
    a first pair, or after a list ("fitting three car seats and the crate, wide sliding doors
    so Im not wrecking my back", round 136's closing answer lost the doors)."""
    matches = [*_COMMA_NEW_PAIR.finditer(sentence), *_COMMA_NEW_REASON.finditer(sentence)]
    for match in sorted(matches, key=lambda m: m.start()):
        if not _a_pair_before(sentence, match.start()) and not _LISTED.search(
            sentence, 0, match.start()
        ):
            continue  # "every morning, nice and creamy so I ...": one chain
        # (the comma's own cut, if it had one, gives way: this one says the chain ends there)
        at = offset + match.end()
        cuts[:] = [c for c in cuts if not offset + match.start() <= c[0] <= at]
        cuts.append((at, at, _NEW_PAIR_CUE))
    _last_of_the_list(sentence, offset, cuts)


def _a_pair_before(sentence: str, end: int) -> bool:
    """A pair "A so B" (or "A because B") said before ``end``; its "so" may have a thing of its
    own as subject, told from an intensifier as a bare "so" is (``_noun_clause``): "the hotspot
    on the train so evenings are free, and no contract so i'm not trapped", a typed closing
    answer, linked the contract to the hotspot."""
    if _A_SO_B.search(sentence, 0, end):
        return True
    for match in _BARE_SO.finditer(sentence, 0, end):
        before = sentence[: match.start()].split()
        previous = before[-1].lower().strip(",") if before else ""
        if _noun_clause(sentence[match.end() : end].split(), previous):
            return True
    return False


# The last item of a list of pairs: ", and keeping the garden tidy for Mair" closing "A so I
# can B, C so D, and E" is an item of its own, not what the last pair leads to (round 63)
_LAST_AND = re.compile(r",\s+and\s+(?=[^,]*$)", re.IGNORECASE)


def _last_of_the_list(sentence: str, offset: int, cuts: list[tuple[int, int, Cue]]) -> None:
    paired = [at for at, _, cue in cuts if cue is _NEW_PAIR_CUE]
    tail = _LAST_AND.search(sentence, max(paired) - offset) if paired else None
    if tail is None or _A_SO_B.search(sentence, tail.end()):
        return
    at = offset + tail.end()
    cuts[:] = [c for c in cuts if not offset + tail.start() <= c[0] <= at]
    cuts.append((at, at, _NEW_PAIR_CUE))


# A new clause's subject after a time set after a comma: "the cold ngl, back in january | my
# mate priya lent me her charger" (round 178 made one node of both, "cold my mate priya lent")
_SUBJECT_AFTER = re.compile(r"\s*(?:i|we|he|she|they|my|our|his|her|their)\b", re.IGNORECASE)


def _scenes(
    working: str, sentence: tuple[int, int], times: Sequence[NonContent]
) -> list[tuple[int, int, Cue]]:
    """Cuts before a time that opens a new clause after a comma, within ``sentence`` (start,
    end; the time itself is blanked in ``working``)."""
    s_start, s_end = sentence
    cuts = []
    for t in times:
        before = working[s_start : t.start].rstrip()
        if not s_start < t.start < s_end or not before.endswith(","):
            continue
        if content_words(before) and _SUBJECT_AFTER.match(working, t.end):
            cuts.append((t.start, t.start, _NEW_PAIR_CUE))
    return cuts


def split_clauses(answer: str, active: Callable[[Cue], bool] = lambda cue: True) -> list[Clause]:
    """Clauses of the answer, cut at the cue phrases ``active`` accepts (all by default)."""
    working = blank(answer)
    times = inline_spans(answer, ("time",))
    clauses: list[Clause] = []
    for index, (s_start, s_end) in enumerate(_sentences(working)):
        segments: list[tuple[int, int, Cue | None, int | None]] = []
        position = s_start
        pending: Cue | None = None
        pending_quote: int | None = None
        cuts = _cuts(working[s_start:s_end], s_start, active)
        cuts += _scenes(working, (s_start, s_end), times)
        for c_start, c_end, cue in sorted(cuts, key=lambda cut: cut[0]):
            segments.append((position, c_start, pending, pending_quote))
            pending, pending_quote = cue, (c_start if cue.in_quote else None)
            position = c_end
        segments.append((position, s_end, pending, pending_quote))
        carried: Cue | None = None
        carried_quote: int | None = None
        before = s_start  # where the clause before this one ended, in this sentence
        for seg_start, seg_end, opener, quote_at in segments:
            merged = _merge(carried, opener) if opener is not None else carried
            if not content_words(working[seg_start:seg_end]):
                # "because it lets me": the empty "it" between two cues joins them.
                carried = merged
                carried_quote = quote_at if quote_at is not None else carried_quote
                continue
            start, end = _trim(working, seg_start, seg_end)
            quote_start = quote_at if quote_at is not None else carried_quote
            clauses.append(
                Clause(
                    text=working[start:end],
                    start=start,
                    end=end,
                    quote_start=start if quote_start is None else quote_start,
                    cue=merged,
                    sentence=index,
                    timed=any(before <= t.start and t.end <= start + 1 for t in times),
                    raw_start=seg_start,
                    raw_end=seg_end,
                )
            )
            before = end
            carried, carried_quote = None, None
    return _second_reasons(clauses)


# A reason said after another with "and because": "i was livid, because nobody rang ..., and
# because i'd already paid £90" gives two reasons for one thing, not a reason for the reason
# (a typed incident read the £90 as a lesson, and asked for another incident next)
_AND_REASON = re.compile(r"^,?\s*and\s+(?:because|cos|coz|cause)$", re.IGNORECASE)
_REASON_CUES = frozenset("because cos coz cause".split())


def _second_reasons(clauses: list[Clause]) -> list[Clause]:
    for i, clause in enumerate(clauses):
        cue = clause.cue
        if cue is None or not _AND_REASON.match(cue.phrase):
            continue
        if any(
            p.sentence == clause.sentence and p.cue is not None and p.cue.phrase in _REASON_CUES
            for p in clauses[:i]
        ):
            clause.cue = replace(cue, link="sibling")
    return clauses


# A noun phrase of its own after "and": "the battery in the cold" after "the ice and", "the
# winter battery" after "theft and"; not "the bags go in the recycling" (a doing of the two)
_A_THING = re.compile(
    r"\s*(?:the|my|our|your|his|her|their|those|these)\s+(?:\w+\s+)?\w+\s*$|"
    r"\s*(?:the|my|our|your|his|her|their|those|these)\s+\w+\s+"
    r"(?:in|on|at|for|with|from|of|during)\s+(?:the\s+|my\s+|a\s+)?\w+\s*$",
    re.IGNORECASE,
)


def _items(segment: str) -> list[str]:
    """The items of one comma-separated segment of a list: its parts at "and", "or", "plus",
    unless the two parts are one thing."""
    # (no "and" inside a number: "six hundred and forty quid", round 212 read back "forty quid")
    pieces = [
        p
        for p in re.split(r"\s*\b(?<!hundred\s)(?<!thousand\s)(?:and|or|plus)\b\s*", segment)
        if p.strip()
    ]
    if (
        len(pieces) == 2
        and len(content_words(pieces[0])) == 1 < len(content_words(pieces[1]))
        and not _A_THING.fullmatch(pieces[1])
    ):
        # "a full and rich life": two words for one noun; but "the ice in January and the
        # battery in the cold" are two things (the time blanked, "the ice" is one word)
        pieces = [segment.strip()]
    elif len(pieces) == 2 and _one_preposition(pieces):
        pieces = [segment.strip()]  # "data for the satnav and the app": one "for"
    elif len(pieces) == 2 and _a_guess(pieces):
        pieces = [segment.strip()]  # "6 or 7 jobs": one figure, guessed (round 262: "got 6")
    elif len(pieces) == 2 and _DENIED_OR.search(segment):
        # "she didnt rush me or read from a script": the "or" is denied too (round 70 asked
        # "What happened next, after reading from a script?")
        pieces = [segment.strip()]
    elif len(pieces) == 2 and (
        (_SHARED_DENIAL.match(pieces[0]) and len(pieces[1].split()) == 1)
        or (
            _DENIED_DOING.search(pieces[0])
            and _DOING.match(pieces[1])
            and len(pieces[1].split()) <= 2
        )
    ):
        # "no added oil and sugar": no added sugar either (round 41 read back "sugar");
        # "not chucking cups and starting again": not starting again either (dev 8 made
        # "starting again" a consequence of its own)
        pieces = [re.sub(r"^(?:plus|and|or)\s+", "", segment.strip())]
    return [p.strip() for p in pieces if p.strip()]


_FIGURE = r"(?:\d+(?:[.,]\d+)?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + ")"
_A_FIGURE_ENDS = re.compile(r"\b" + _FIGURE + r"\s*$", re.IGNORECASE)
_A_FIGURE_OPENS = re.compile(r"\s*" + _FIGURE + r"\b", re.IGNORECASE)
_VALUES = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "hundred": 100}


def _value(figure: str) -> float | None:
    word = figure.lower()
    if word in _VALUES:
        return float(_VALUES[word])
    try:
        return float(word.replace(",", "."))
    except ValueError:
        return None


def _a_guess(pieces: list[str]) -> bool:
    """Two parts either side of an "or" that are one figure guessed: the first ends on a
    figure, the second opens on one near it ("6 or 7 jobs", "two or three times"; not "20 or 45
    on the bus", "in 30 or 2 pizzas from the freezer", the review)."""
    ends, opens = _A_FIGURE_ENDS.search(pieces[0]), _A_FIGURE_OPENS.match(pieces[1])
    if ends is None or opens is None:
        return False
    a, b = _value(ends.group().strip()), _value(opens.group().strip())
    return a is not None and b is not None and 0 < min(a, b) and max(a, b) <= 1.6 * min(a, b)


_GUESSED_FIGURE = re.compile(
    r"\b(" + _FIGURE + r")\s+(?:or|to)\s+" + _FIGURE + r"\b", re.IGNORECASE
)


def _size(chunk: str) -> int:
    """A list item's content words, a number said in words counted as one ("six hundred and
    forty quid" is a price), a person it is about as none."""
    # (a figure guessed is one: "6 or 7 jobs")
    chunk = _GUESSED_FIGURE.sub(r"\g<1>", chunk)
    words = [w for w in content_words(chunk) if w not in _MADE_WHO]
    # (the number's words run together: "one for work and one for the gym" is two items)
    joined = sum(a in _AMOUNT_WORDS and b in _AMOUNT_WORDS for a, b in itertools.pairwise(words))
    return len(words) - joined


_AMOUNT_WORDS = NUMBER_WORDS | frozenset("sixty seventy eighty ninety thousand".split())


def list_parts(clause: Clause) -> list[Clause]:
    """A plain list of short noun phrases ("light and comfortable", "the sound, the fit")
    as sibling clauses; [] when the clause is not such a list."""
    # "peace and quiet" is one thing, and so may be two words of one kind ("happy and
    # relaxed"); but a list with commas is a list whatever its first item is ("feeling like
    # myself, calm mornings and time thats just mine", round 28: one node of three)
    if BINOMIAL.search(clause.text):
        return []
    chunks = [item for segment in COMMA.split(clause.text) for item in _items(segment)]
    # (a person the item is about names nothing of it: "his tummy, him enjoying his dinner
    # and me knowing I have done right by him", round 54: one node, "tummy him enjoying his
    # dinner")
    sizes = [_size(c) for c in chunks]
    # a comma list of three or more may hold one longer item among its short ones ("the
    # dentist explaining before they do anything, early appointments, no upselling, and
    # setting an example for my kids", round 35: read as two nodes, the short items lost)
    listed = len(COMMA.split(clause.text)) >= 3 and len(sizes) > 1 and sorted(sizes)[1] <= 2
    longest = 6 if listed else 3
    if len(chunks) < 2 or any(not 0 < size <= longest for size in sizes):
        return []
    if lexical_category(clause.text) is not None and (len(chunks) < 3 or "," not in clause.text):
        return []
    parts: list[Clause] = []
    cursor = 0
    for chunk in chunks:
        at = clause.text.find(chunk, cursor)
        cursor = at + len(chunk)
        start = clause.start + at
        parts.append(
            Clause(
                chunk,
                start,
                start + len(chunk),
                start,
                clause.cue,
                clause.sentence,
                raw_start=start,
                raw_end=start + len(chunk),
            )
        )
    parts[0].quote_start = clause.quote_start
    return parts


PART_WORDS = 3
# Two words that say something whole: "they're waterproof" (before "my last pair let water in
# on Snowdon", backstory, a typed interview lost both)
_A_STATEMENT = re.compile(r"(?:they'?re|it'?s|its|theyre)\s+[a-z-]{4,}", re.IGNORECASE)


def too_short(words: list[str]) -> bool:
    """A comma-separated part of a clause too short to stand as a clause of its own: fewer
    than ``PART_WORDS`` words, unless they say something whole."""
    return len(words) < PART_WORDS and not _A_STATEMENT.fullmatch(" ".join(words))


# "nice and" before a quality says only the quality: "nice and stiff" is stiff, one thing
# (labels drop the "nice and")
NICE_AND = r"(?:nice|lovely)\s+and\s+(?!(?:the|a|an|my)\b)(?=[a-z]+\b)"
# Pairs said as one thing: "peace and quiet", "safe and sound", "wear and tear".
BINOMIAL = re.compile(
    r"\b(?:peace\s+and\s+quiet|safe\s+and\s+sound|wear\s+and\s+tear|rest\s+and\s+relaxation|"
    r"ups\s+and\s+downs|pros\s+and\s+cons|odds\s+and\s+ends|bits\s+and\s+bobs|"
    r"health\s+and\s+safety|fish\s+and\s+chips|salt\s+and\s+pepper|bread\s+and\s+butter|"
    r"time\s+and\s+money|hustle\s+and\s+bustle|fit\s+and\s+healthy|fit\s+and\s+well|"
    # "it costs an arm and a leg" (round 118 asked about "costs an arm")
    r"an\s+arm\s+and\s+a\s+leg|sick\s+and\s+tired|touch\s+and\s+go|short\s+and\s+sweet|"
    r"out\s+and\s+about|up\s+and\s+running|neck\s+and\s+neck|"
    # "just to see the damage in black and white" (round 131's summary listed "white")
    r"black\s+and\s+white|loud\s+and\s+clear|rough\s+and\s+ready|tried\s+and\s+tested|"
    r"first\s+and\s+foremost|by\s+and\s+large|now\s+and\s+then|on\s+and\s+off|"
    # "it needs to last me there and back" (a typed answer made "back" an attribute)
    r"there\s+and\s+back|back\s+and\s+forth|to\s+and\s+fro|up\s+and\s+down|in\s+and\s+out|"
    r"here\s+and\s+there|over\s+and\s+over|again\s+and\s+again|more\s+and\s+more|"
    r"round\s+and\s+round|day\s+and\s+night|night\s+and\s+day|chalk\s+and\s+cheese|"
    r"trial\s+and\s+error|hit\s+and\s+miss|give\s+and\s+take|part\s+and\s+parcel|"
    r"nuts\s+and\s+bolts|bits\s+and\s+pieces|heart\s+and\s+soul|life\s+and\s+death|"
    r"few\s+and\s+far\s+between|high\s+and\s+dry|hot\s+and\s+bothered|"
    # "raining like cats and dogs" (round 216 asked about "raining like cats")
    r"cats\s+and\s+dogs|"
    # "nice and stiff" is pleasantly stiff (round 85 asked why "the sole has to be nice")
    rf"{NICE_AND}[a-z]+)\b",
    re.IGNORECASE,
)
_SHARED_PREPOSITION = re.compile(r"\w\s+(?:for|with|on|to|from)\s+(?:the\s+|my\s+|a\s+)?\w+$", re.I)
_DOING_AFTER = re.compile(r"^\s*(?:the\s+|my\s+|them\s+|they\s+)?\w+\s+\w{3,}ing\b", re.I)


def _one_preposition(pieces: list[str]) -> bool:
    """Two pieces that share the first one's preposition ("data for the satnav and the app"),
    not a second thing with a doing of its own ("the stiff sole for scree and the boots
    lasting", what round 169 said the check-back had missed)."""
    return bool(_SHARED_PREPOSITION.search(pieces[0])) and not _DOING_AFTER.search(pieces[1])


def _trim(working: str, start: int, end: int) -> tuple[int, int]:
    # (a currency sign stays with its figure: "£1.50 is my limit" is no "1.50 my limit")
    while start < end and not (
        working[start].isalnum()
        or working[start] in CURRENCY_SIGNS
        and working[start + 1 : start + 2].isdigit()
    ):
        start += 1
    while end > start and not (working[end - 1].isalnum() or working[end - 1] in "%)'\u2019"):
        end -= 1
    return start, end


def quote(answer: str, start: int, end: int) -> str:
    """The verbatim span, without dangling connectives or punctuation at its ends."""
    text = answer[start:end].strip(" \t\n,;:-\"'")
    trimmed = _EDGE_WORDS.sub("", text).strip(" \t\n,;:-\"'")
    return trimmed or text or answer[start:end]


_WORD = re.compile(r"[\w][\w'\u2019\-]*")  # WORD without its dotted numbers


_ABLE = re.compile(r"(?:being|to\s+be)\s+able\s+to\b")
# (an end, not what it lets them do: "keep my feet dry", "stay out longer on the hills" are
# consequences, the third review)
_ABLE_TO_AN_END = re.compile(
    r"(?:being|to\s+be)\s+able\s+to\s+(?:(?:provide|support|look\s+after|care\s+for|protect)\b|"
    r"(?:be|stay|live|feel)\s+(?:independent|free|myself|in\s+control|secure|safe|confident|"
    r"there\s+for|a\s+good)\b|enjoy\s+life\b|"
    r"stand\s+on\s+my\s+own|give\s+(?:my|the|our)\s+(?:kids|children|family)\b)"
)


# How they are seen, or whom they let down: "it's not professional like", "I hated letting her
# down" (round 220 asked about the scripts and the consultants instead, and never why)
# (the respondent's own: not "the staff are not professional", "the website looks professional",
# "the shop let my son down", the review)
_SEEN_AS = re.compile(
    r"(?:\b(?:it'?s|its|it\s+is|it\s+isn'?t|that'?s|thats|that\s+isn'?t)\s+(?:not\s+|un)?professional|"
    r"\b(?:i|me|to)\s+(?:(?:look|seem|be|come\s+across\s+as)\s+(?:un)?professional)|"
    r"\bi\s+(?:hate|hated|don'?t\s+like|dont\s+like|can'?t\s+stand|never\s+want|wouldn'?t\s+want)\s+"
    r"(?:letting|to\s+let)\s+(?:her|him|them|people|anyone|everyone|the\s+team|my\s+\w+)\s+down|"
    r"^\W*(?:i\s+)?(?:hate|hated)?\s*letting\s+(?:her|him|them|people|anyone|the\s+team)\s+down)\b"
)


_ITS_HOW = re.compile(
    r"^(?:it'?s|its|it\s+is|that'?s|thats)\s+(?:just\s+)?how\s+(?:i|he|she|we|they|you)\s+\w"
)


def lexical_category(
    text: str, supports: Callable[[str], bool] = lambda c: True, *, timed: bool = False
) -> str | None:
    """A semantic category from the words of a clause alone (None: nothing stands out).

    ``supports`` says which categories the methodology can use; the first supported
    category whose words appear wins, in order of how telling they are. ``timed``: a time
    was said before the clause, which sets a scene.
    """
    lower = " ".join(_WORD.findall(text.lower())).replace("\u2019", "'")
    words = set(lower.split())
    # the frame around it does not change the form: "it's (all) about being a good parent"
    frame = {"i", "i'm", "it's", "just", "really", "because", "it", "is", "that's", "all", "about"}
    stripped = " ".join(w for w in lower.split() if w not in frame)
    content = [w for w in lower.split() if w not in LEADING_STRIP]
    lead = content[0] if content else ""
    valued = bool(words & VALUE_WORDS) or any(p in lower for p in VALUE_PHRASES)
    checks: list[tuple[str, bool]] = [
        # "being a good parent" names a way of being (an instrumental value) even when its
        # words are value words: the phrase's form decides first
        # ("being able to switch it" is what it lets them do, a consequence: round 209 typed it
        # a value, which ended the ladder)
        (
            "conduct",
            stripped.startswith(CONDUCT_PREFIXES)
            and (not _ABLE.match(stripped) or bool(_ABLE_TO_AN_END.match(stripped))),
        ),
        # (what it lets them do, not an end: "being able to go walking with my family"; an end
        # is a value: "being able to provide for my family", from the reviews)
        ("functional", bool(_ABLE.match(stripped)) and not _ABLE_TO_AN_END.match(stripped)),
        ("conduct", bool(_SEEN_AS.search(lower))),
        # what it does for someone, said as "it's how": "its how he keeps in touch with them"
        # (my own typed interview: an attribute, linked to nothing, and the go-back question
        # asked why the gaming mattered after it was said)
        ("functional", bool(_ITS_HOW.match(lower))),
        # "I can provide for my family": what it makes possible, not yet the end itself
        ("feeling", valued and lead in ("can", "could")),
        ("value", valued),
        ("feeling", bool(words & FEELING_WORDS) or any(p in lower for p in FEELING_PHRASES)),
        ("pain", bool(words & PAIN_WORDS)),
        ("context", timed or bool(TIME_OPENER.search(text.strip()))),
        ("context", bool(PLACE_OPENER.search(text.strip()))),
        ("solution", lead in SOLUTION_LEADS),
        ("action", lead in ACTION_LEADS),
        ("functional", lead in FUNCTIONAL_LEADS),
    ]
    for category, hit in checks:
        if hit and supports(category):
            return category
    return None


def normal(label: str) -> str:
    """A lookup key for labels: lower case words only."""
    return " ".join(WORD.findall(label.lower().replace("\u2019", "'")))


def quoted_at(answer: str, node: ExtractedNode) -> int:
    """Where ``node``'s quote stands in ``answer`` (its end when it is not there): the order
    the respondent said things in."""
    at = answer.find(node.quote)
    return at if at >= 0 else len(answer)
