"""Offline recognition of replies that are not answers (INTERVIEWING.md "When the respondent
cannot or will not answer").

"I don't know", "I already told you", "can we move on" and remarks about the interview itself
("that's not really about headphones") are signals, not content: the interviewer records them
and changes technique or focus instead of asking the same why again. A real provider reports
the same ``answer_kind`` as a field of its assessment; offline, these patterns decide.

Patterns are kept per language and all of them are tried: a respondent may answer in another
language than the study's, and the phrases do not collide across the languages listed.

Precedence when a reply matches several kinds: ``move_on`` (an explicit request, obeyed)
over ``about_interview`` over ``already_said`` over ``dont_know``. A reply that says one of
these and then goes on with real content (several content words beyond the phrase: pronouns,
fillers and words that name nothing do not count) is an ``answer``: "like I said, it's the
battery, and also the way they fold flat in my bag" carries news; "It's a bike, isn't it. I
don't know. Nothing more to it really." does not. A reply of words that name nothing at all
("Hmm.", "Mm, maybe.", "Not really, no.") is a ``dont_know``: there is nothing in it to ladder.
"""

from __future__ import annotations

import re

from interview_cli.llm.offline.lexicon import (
    CLOSER_PATTERN,
    DEFERRAL_PATTERN,
    INARTICULATE_PATTERN,
    NAMELESS,
)
from interview_cli.llm.offline.reading.meta import (
    CANNOT_SAY_PATTERN,
    ODD_QUESTION_PATTERN,
    QUESTION_REMARK_PATTERN,
    VERDICT_RE,
    naming_words,
)

_WORD = re.compile(r"[\w][\w'\u2019\-]*")
# "It's not about X, it's about Y": a contrast that names what matters, not a remark.
_CONTRAST = re.compile(r"\b(?:it'?s|it is|but|rather|more)\b[^.?!]*\babout\b", re.IGNORECASE)
# Beyond the matched phrase, a reply carries content anyway from this many words, of which
# this many name something (English fillers and pronouns do not; other languages count words).
CONTENT_WORDS = 5
NAMING_WORDS = 2

PATTERNS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "move_on": (
            # skipping or declining the question, not "can we skip the ads", "I'd prefer to skip
            # the queue", "I'd rather not answer calls on the bike" (a move_on drops the answer)
            r"(?:can|could|shall) we (?:please )?(?:move on|talk about something else|"
            r"change the (?:topic|subject)|skip(?: (?:this|that|it)(?: one| question)?)?"
            r"(?: now| please)?\b(?!\s+\w))",
            r"\b(?:let'?s|let us) (?:move on|skip (?:this|that|it)|talk about something else)",
            r"\bnext question\b",
            r"\bi'?d (?:rather|prefer) (?:not (?:talk about|go into|discuss)|(?:not (?:answer|say)|"
            r"to move on|to skip)(?: (?:this|that|it)(?: one| question)?)?(?: now| please)?\b"
            r"(?!\s+\w))",
            r"^\W*(?:ok(?:ay)?\W+)?(?:please\W+)?move on\b",
            r"\bskip (?:this|that)(?: one| question)?\W*$",
            # stopping: "ask me something else", "I'm not answering another why", "we're done"
            r"\bask me (?:something|anything) else\b",
            r"\b(?:i'?m|i am) not answering (?:another|any more|anymore|that|this)\b",
            # ... as a sentence of its own: "By Friday I'm done, I need quiet" is tiredness
            r"(?:^|[.!?;]\s*)(?:(?:ok(?:ay)?|right|well|so|look|honestly|sorry)\W+)*"
            r"(?:i'?m|we'?re|i am|we are) (?:all )?(?:done|finished)(?: now| here)?"
            r"(?=\s*(?:[.!?]|$|,?\s*thank))",
            r"\bare we (?:nearly |almost )?(?:done|finished)\b",
            # said to the interviewer, not "so it would stop asking me about it every morning"
            r"(?:^|[.!?;,]\s*)(?:(?:please|just|ok(?:ay)?|can you|could you|will you)\W+)*"
            r"stop asking (?:me )?(?:about )?(?:that|this|it)\b",
            # another topic asked for: "can we talk about the battery instead"
            r"\b(?:can|could|shall) we (?:talk about|go back to|get back to) [^.?!]{1,40}? "
            r"instead\b",
            r"\bmaybe we talk about (?:other|another|something)\b",
        ),
        "about_interview": (
            r"\b(?:that|this|it)(?:'?s| is) (?:not|n'?t) (?:really )?(?:about|related to|"
            r"relevant to)\b",
            r"\bthe question (?:has )?(?:drifted|wandered|went off|is off)",
            r"\b(?:we'?re|you'?re|we are|you are) (?:getting |going )?(?:off[- ]topic|"
            r"off track|sidetracked|going in circles)",
            r"\bwhat does (?:that|this) have to do with\b",
            rf"\b{ODD_QUESTION_PATTERN}",  # "that's kind of a weird one to answer"
            QUESTION_REMARK_PATTERN,  # "that's a deep one for a Monday morning"
            r"\byou(?:'ve| have)? (?:already )?asked (?:me )?(?:that|this)\b",
            r"\bwhy do you keep asking\b",
            r"\byou keep asking\b",
            r"\b(?:this|that)(?:'s| is) (?:a )?waste of (?:my |our )?time\b",
            r"\bis (?:this|that) (?:leading|going) (?:anywhere|somewhere)\b",
            # the question not understood: "you've lost me", "I'm not sure I follow"
            r"\b(?:you'?ve|you have) lost me\b",
            r"\bi (?:do\s*n[o']?t|do not) (?:really )?(?:understand|get) (?:the|your) question\b",
            r"\bnot sure i (?:follow|understand)\b",
            r"^\W*forget (?:it|that)\W*$",
            # asked to say it again: "Sorry?", "Come again?"
            r"^\W*(?:sorry|pardon|what|huh|eh|come again)\W*\?\W*$",
        ),
        "already_said": (
            r"\b(?:like|as) i (?:just )?(?:said|mentioned|told you)\b",
            r"\bi (?:already|just) (?:said|told you|mentioned|explained|answered)\b",
            r"\b(?:i'?ve|i have) (?:already )?(?:said|told you|answered|explained) (?:that|this)",
            r"\bwe(?:'ve| have)? (?:already )?(?:covered|been (?:over|through)|gone over|"
            r"went over) (?:that|this)",
            r"\bsame (?:answer|as before|thing i said)\b",
            r"\bi (?:said|explain(?:ed)?|told you|answered)(?: it| this| that)? already\b",
            r"\b(?:why (?:are|do) you (?:keep )?ask(?:ing)? (?:me )?)?the same thing in "
            r"different words\b",
            r"\byou'?re doing it again\b",
        ),
        "dont_know": (
            r"\b(?:i\s+)?(?:do\s*n[o']?t|really don't|do not)(?: really)? know\b",
            r"\bdunno\b",
            r"\bno (?:idea|clue)\b",
            r"\bnot sure\b",
            r"\bcan'?t (?:really )?(?:say|think of)\b",
            r"\bhard to say\b",
            r"\bit just (?:is|does|matters)\b",
            rf"\b(?:{CLOSER_PATTERN})\b",  # "End of story."
            r"\bnothing in particular\b",
            # a pause asked for, nothing yet said: "give me a sec", "I'd need a minute on that"
            r"\b(?:give me|hang on|wait|need) a (?:sec|second|minute|moment|mo)\b",
            r"\b(?:it\s+)?(?:does\s*n[o']?t|does not) do (?:anything|much|a lot) for me\b",
            # asked what it gives them: nothing ("I don't get anything out of it")
            r"\b(?:do\s*n[o']?t|do not) (?:really )?get (?:anything|much) (?:out )?of "
            r"(?:it|that|them)\b",
            r"\bget nothing (?:much )?(?:out )?of (?:it|that|them)\b",
            r"\b(?:never|haven'?t) (?:really )?thought about (?:it|that)\b",
            r"\bnever (?:given|gave) it (?:much |any )?thought\b",
            r"\bnot much (?:more )?to (?:say|it)\b",
            r"\bnothing (?:more|else) to (?:say|it)\b",
            rf"\b(?:{INARTICULATE_PATTERN})\b",  # "more a feeling than a reason"
            r"\b(?P<same>\w+) (?:is|are) (?P=same)\b",  # "boots are boots": nothing said
            DEFERRAL_PATTERN,  # passing the question on: "Ask my nan.", "You'd have to ask her."
            CANNOT_SAY_PATTERN,  # "I couldn't really say", "that's as far as it goes"
        ),
    },
    "de": {
        "move_on": (r"\bkönnen wir (?:weiter|das thema wechseln)", r"\bnächste frage\b"),
        "about_interview": (r"\bdas hat (?:doch )?nichts mit\b", r"\bwir schweifen ab\b"),
        "already_said": (
            r"\bwie (?:ich )?(?:schon |bereits )?gesagt\b",
            r"\bhab(?:e)? ich (?:doch )?schon gesagt\b",
        ),
        "dont_know": (
            r"\bweiß (?:ich )?nicht\b",
            r"\bkeine ahnung\b",
            r"\bist (?:halt|einfach) so\b",
        ),
    },
    "fr": {
        # not "on peut passer plus de temps en famille", "nous passons nos week-ends"
        "move_on": (
            r"\bon peut passer (?:à (?:autre chose|la suite)|à la question suivante)\b",
            r"\bquestion suivante\b",
            r"\bpassons(?: à (?:autre chose|la suite))?\s*(?:[.!]|$)",
        ),
        "about_interview": (r"\bça n'a rien à voir\b", r"\bon s'éloigne du sujet\b"),
        "already_said": (r"\bcomme je (?:l'ai )?(?:déjà )?dit\b", r"\bje l'ai déjà dit\b"),
        "dont_know": (r"\bje ne sais pas\b", r"\bj(?:e n)?'sais pas\b", r"\baucune idée\b"),
    },
    "es": {
        "move_on": (  # not "así podemos pasar más tiempo juntos"
            r"\bpodemos pasar a (?:otra cosa|otro tema|la siguiente)\b",
            r"\bsiguiente pregunta\b",
            r"\bcambiemos de tema\b",
        ),
        "about_interview": (r"\beso no tiene (?:nada )?que ver\b",),
        "already_said": (r"\bcomo (?:ya )?(?:te )?dije\b", r"\bya lo dije\b"),
        "dont_know": (r"\bno (?:lo )?sé\b", r"\bni idea\b"),
    },
}

PRECEDENCE: tuple[str, ...] = ("move_on", "about_interview", "already_said", "dont_know")

_COMPILED: dict[str, re.Pattern[str]] = {
    kind: re.compile(
        "|".join(p for lang in PATTERNS.values() for p in lang.get(kind, ())), re.IGNORECASE
    )
    for kind in PRECEDENCE
}


def _content_words(text: str) -> int:
    return naming_words(text, NAMELESS)


def answer_kind(answer: str) -> str:
    """``answer`` or the non-answer kind the reply is (see the module docstring)."""
    text = answer.strip()
    if not text:
        return "dont_know"
    matched = [kind for kind in PRECEDENCE if _COMPILED[kind].search(text)]
    rest = VERDICT_RE.sub(" ", text)  # "it was the sensible choice" gives no reason
    for kind in matched:  # every non-answer phrase out: what is left is what was said
        rest = _COMPILED[kind].sub(" ", rest)
    if "move_on" in matched:
        return "move_on"  # "I'd rather not go into our finances": obeyed, whatever else is said
    if matched:
        if len(_WORD.findall(rest)) >= CONTENT_WORDS and _content_words(rest) >= NAMING_WORDS:
            return "answer"  # said it, then went on with something to say
        for kind in matched:
            if kind == "about_interview" and _CONTRAST.search(text):
                continue  # "it's not about the money, it's about freedom" states what it is about
            return kind
        return "answer"
    if not _content_words(rest):
        return "dont_know"  # "Hmm.", "Not really, no.", "It just made sense.": nothing named
    return "answer"


__all__ = ["CONTENT_WORDS", "PATTERNS", "PRECEDENCE", "answer_kind"]
