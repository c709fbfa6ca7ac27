"""The offline provider's safety reading of an answer: keyword rules, per language.

A model reads distress, abuse, a request to stop and off-topic talk from meaning; offline, a
few unmistakable phrases per language stand in (``Assessment.safety``). The rules err on the
side of silence: a phrase must be plain ("I can't cope", "shut up", "I want to stop now"),
never a single sad or angry word, since a false alarm pauses or ends an interview. Distress is
checked first: a reply that is both distressed and rude needs care more than an ending.
"""

from __future__ import annotations

import re
from functools import lru_cache

# kind -> language -> phrases (lower case; matched on word boundaries, apostrophes folded)
RULES: dict[str, dict[str, tuple[str, ...]]] = {
    "distress": {
        "en": (
            "i want to die",
            "kill myself",
            "end my life",
            "suicidal",
            "self harm",
            "hurt myself",
            "i can't cope",
            "i cant cope",
            "i can't go on",
            "i feel hopeless",
            "panic attack",
            "i'm falling apart",
            "no reason to live",
        ),
        "de": (
            "ich will sterben",
            "mich umbringen",
            "suizid",
            "ich kann nicht mehr",
            "hoffnungslos",
            "panikattacke",
        ),
        "fr": ("je veux mourir", "me suicider", "je n'en peux plus", "crise de panique"),
        "es": ("quiero morir", "suicidarme", "no puedo más", "ataque de pánico"),
    },
    "abuse": {
        "en": (
            "fuck you",
            "fuck off",
            "shut up",
            "you idiot",
            "you moron",
            "stupid bot",
            "piece of shit",
            "go to hell",
            "screw you",
        ),
        "de": ("halt die klappe", "fick dich", "du idiot", "arschloch", "verpiss dich"),
        "fr": ("ta gueule", "va te faire foutre", "connard", "espèce d'idiot"),
        "es": ("cállate", "vete a la mierda", "idiota", "imbécil"),
    },
    # the interview itself ended at the respondent's word (not one question left: move_on);
    # also STOP_CLAUSES below, which end an interview only where the clause ends
    "stop": {
        "en": (
            "let's stop here",
            "let's stop now",
            "stop the interview",
            "end the interview",
            "end this interview",
        ),
        "de": (),
        "fr": (),
        "es": (),
    },
    "off_topic": {
        "en": (
            # something else named ("..., like football?"); a bare "can we talk about
            # something else" asks to move on within the study, no redirect back to it
            # (round 37: "Thank you. Let's come back to the topic of this interview.")
            "talk about something else, like",
            "talk about something else like",
            "change the subject",
            "changing the subject",
            "off topic",
            "unrelated but",
            "nothing to do with this but",
            "speaking of something else",
        ),
        "de": ("ganz anderes thema", "themenwechsel", "etwas anderes reden"),
        "fr": ("changer de sujet", "hors sujet"),
        "es": ("cambiar de tema", "fuera de tema"),
    },
}
ORDER: tuple[str, ...] = ("distress", "abuse", "stop", "off_topic")
# A request to stop only where the clause ends there (or goes on with "now", "please", "the
# interview"): "I want to stop worrying about charging", "I don't want to continue paying for
# a gym I never use", "I've had enough of this rain", "j'arrête de fumer", "no quiero seguir
# pagando tanto" are answers, and a false stop ends the interview.
STOP_CLAUSES: dict[str, tuple[str, ...]] = {
    "en": (
        "i want to stop",
        "i'd like to stop",
        "can we stop",
        "could we stop",
        "i'm not doing this any more",
        "i'm not doing this anymore",
        "i don't want to do this any more",
        "i don't want to do this anymore",
        "i don't want to continue",
        # (typed without the apostrophe, the third review: "I dont want to continue" was answered
        # "How does that affect you?")
        "i dont want to continue",
        "i dont want to do this any more",
        "i dont want to do this anymore",
        "i've had enough of this",
        # round 54: "I said I think that is all, can we finish please" (asked three times,
        # the interview went on); a request, never a statement ("I never really finish")
        "can we finish",
        "could we finish",
        "can we finish up",
        "can we end it",
        "can we end this",
        "can we wrap up",
        "can we wrap it up",
        "can we wrap this up",
        "can we call it a day",
        "let's finish",
        "let's wrap up",
        "let's wrap it up",
        "let's call it a day",
        "lets finish",
        "lets wrap up",
        "lets wrap it up",
        "lets call it a day",
    ),
    "de": ("ich möchte aufhören", "können wir aufhören", "ich will aufhören"),
    "fr": ("je veux arrêter", "on peut arrêter", "j'arrête"),
    "es": ("quiero parar", "podemos parar", "no quiero seguir"),
}
_CLAUSE_END = (
    r"(?=\s*(?:[.!?;]|$)|,?\s+(?:now|here|please|sorry|thanks|thank you|the interview|"
    r"this interview|jetzt|bitte|maintenant|ici|s'il vous plaît|ahora|aquí|por favor)(?!\w))"
)


def _fold(text: str) -> str:
    return " ".join(re.sub(r"[\u2019\u2018`]", "'", text.casefold()).split())


@lru_cache(maxsize=32)
def _pattern(kind: str, language: str | None) -> re.Pattern[str]:
    by_language = RULES[kind]
    languages = [language] if language in by_language else list(by_language)
    if language in by_language and language != "en":
        languages.append("en")  # respondents mix in English
    phrases = sorted({_fold(p) for lang in languages for p in by_language[lang]}, key=len)
    alternatives = "|".join(re.escape(p) for p in reversed(phrases))
    if kind != "stop":
        return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
    clauses = sorted({_fold(p) for lang in languages for p in STOP_CLAUSES[lang]}, key=len)
    ending = "|".join(re.escape(p) for p in reversed(clauses))
    return re.compile(rf"(?<!\w)(?:(?:{alternatives})(?!\w)|(?:{ending}){_CLAUSE_END})")


# A sentence that is nothing but the wish to end (English): "Now really finish ok" (round
# 54), "Honestly I think thats me done now" (round 55). Only a whole sentence: "Once the
# kids are in bed thats me done now till morning" and "I never really finish" are answers.
_ENDING_SENTENCE = re.compile(
    r"(?:^|[.!?]\s*)\W*(?:(?:ok|okay|right|honestly|so|now|and)\W+)*(?:i\s+think\s+)?"
    r"(?:(?:now\s+)?really\s+finish(?:\s+now)?|(?:that'?s|thats)\s+me\s+done\s+now|"
    # (a bare "stop", "end this", "no more questions": the review of this stop found them read
    # as answers: "You talked about stopping. What do you mean by that?")
    r"(?:please\s+|just\s+)?stop(?:\s+(?:please|now|it))?|(?:let'?s\s+)?end\s+this|"
    r"no\s+more\s+questions(?:\s+please)?|"
    r"we'?re\s+done\s+here)(?:\W+(?:ok|okay|please|thanks|thank\s+you|bye))*\W*(?:[.!?]|$)"
)


# "I'm done" opening the answer, with "no more questions" or a goodbye: "I'm done, no more
# questions." (round 219 asked on). A bare "I'm done now, thanks." leaves the question
# (``move_on``), and "I cancelled the gym. I'm done now." or "I'm done with the old bike" are
# answers (English)
_DONE_FIRST = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*(?:(?:ok|okay|right|honestly|look|sorry|no|so|well)\W+)*(?:i\s+think\s+)?(?:i'?m|im|i\s+am)\s+done"
    # (a sign-off between: "Look I think I'm done, thats about it really, no more questions
    # please", round 225 asked one more)
    r"(?:\s+now)?(?:\W+(?:that'?s|thats)\s+(?:about\s+)?(?:it|all)(?:\s+really)?)?"
    r"\W+(?:(?:ok|okay|thanks|thank\s+you)\W+)?(?:no\s+more\s+questions|bye|goodbye)"
    r"(?:\s+(?:from\s+me|for\s+me))?(?:\s+(?:please|pls|thanks))?(?:\s*,\s*[^.!?]{1,80})?\W*(?:[.!?]|$)"
)
# ... and said again: "No. Sorry, I did say I'm done." (round 221 asked on after "I think I'm
# done now, no more questions please"); not "I said I'm done with that bank"
_SAID_DONE = re.compile(
    r"\bi\s+(?:did\s+say|said|told\s+you|already\s+said)\s+(?:that\s+)?(?:i'?m|im|i\s+was|we'?re|we\s+were)"
    r"\s+done\b(?!\s+with)"
)


# A request to stop with its reason after a comma: "sorry can we wrap up, I have to pick up my
# son" (asked of the interviewer; English)
# (opening its sentence: not someone in the story asked, "I kept asking my husband can we stop,
# my heels were bleeding", "The kids always ask can we stop, they're bored"; nor a break asked
# for, "Could we stop, I need the loo, back in 2 mins", which a stop would end for good: the
# review)
_ASKED_TO_STOP_BECAUSE = re.compile(
    r"(?:^|(?<=[.!?]\s))\W*(?:(?:sorry|look|ok|okay|right|so|honestly|listen|please|um|erm)\W+)*"
    r"(?:can|could)\s+we\s+(?:please\s+)?(?:stop|finish(?:\s+up)?|wrap\s+(?:it\s+|this\s+)?up|"
    r"call\s+it\s+a\s+day|end\s+(?:it|this))\s*,\s"
    r"(?![^.!?]*\b(?:loo|toilet|bathroom|wee|break|back\s+in|carry\s+on|be\s+back|brb|one\s+sec|"
    r"a\s+sec|a\s+minute|two\s+minutes|2\s+mins?|five\s+minutes|5\s+mins?)\b)"
)
# Asked to be left alone, as the whole answer: "Please leave me alone now.", "Leave me alone,
# I'm done." (round 219 asked on); not what they want of a company, "Leave me alone! That's all
# I want from my bank", "They never leave me alone" (the review)
_LEAVE_ME_ALONE = re.compile(
    r"^\W*(?:(?:please|pls|just|oh|look|honestly|ok|okay|seriously)\W+)*leave\s+me\s+alone"
    r"(?:\W+(?:now|please|pls|thanks|ok|okay|i'?m\s+done|im\s+done|i\s+am\s+done|no\s+more\s+questions))*"
    r"\W*$"
)


# An answer that went off the topic only after a sentence of its own: an aside, not a turn
# away ("Maybe the sliding doors thing, ... Unrelated but the 6 year old has just learned to
# whistle" was redirected "Let's come back to the topic of this interview", round 79)
_SAID_BEFORE = re.compile(r"\w[^.!?]*[.!?]\s")


# Abuse told of someone else, or said to them, not to the interviewer: "I was trying to get him
# to shut up about it" (round 100 ended the interview as abuse), "told him to fuck off"; never
# "I want you to fuck off" (English; a third person straight before the phrase, or before "to")
_REPORTED = re.compile(
    r"\b(?:him|her|them|he|she|they)\s+(?:(?:to|would|wouldn't|wouldnt|won't|wont|never|"
    r"didn't|didnt|doesn't|doesnt|could|can't|cant)\s+)?$"
)


# "shut up" as closing something, not said to anyone: "My old NHS place shut up shop" (round 220
# ended the interview as abuse at the first answer), "shut up the caravan for the winter"
_SHUT_A_PLACE = re.compile(
    r"\s+(?:shop|early|for\s+the\s+(?:night|winter|season|day)|"
    r"(?:the|our|my|his|her|their)\s+(?:shop|house|place|shed|caravan|garage|office|business))\b"
)


# Distress named as what they would hate, not what they feel (a fear of it is distress enough):
# "I hate feeling like I can't cope with her on my own" (round 217 showed a support line to a
# respondent explaining why being stranded on a hill with her toddler would be grim; English)
_DREADED = re.compile(
    r"\b(?:hate|hated|dread|dreaded|don't\s+want|dont\s+want|wouldn't\s+want|wouldnt\s+want)\b(?:\s+(?:feeling|to\s+feel|of\s+feeling))?"
    r"(?:\s+(?:like|that|as\s+if))?\s*$"
)


# ... and only not coping with something named ("can't cope with her on my own"): "I hate feeling
# like I want to die", "I hate that I can't cope anymore" are distress (the review)
_COPE_WITH = re.compile(
    r"i\s+can'?t\s+cope\b[^.!?,]{0,25}?\bwith\s+(?!(?:it|this|anything|everything|life)\b)"
)


# The requests to stop said as a whole sentence or with their reason (English), beside the
# phrases of ``RULES`` and ``STOP_CLAUSES``
_ENGLISH_STOPS = (
    _ENDING_SENTENCE,
    _DONE_FIRST,
    _SAID_DONE,
    _ASKED_TO_STOP_BECAUSE,
    _LEAVE_ME_ALONE,
)


def _set_aside(kind: str, text: str, m: re.Match[str]) -> bool:
    """A phrase of ``kind`` found that is none: abuse told of someone else or a place shut,
    distress named as what they would hate about something named."""
    if kind == "abuse":
        return bool(_REPORTED.search(text, 0, m.start()) or _SHUT_A_PLACE.match(text, m.end()))
    if kind == "distress":
        if "cope" in m.group() and _THEIR_WORRY.search(text, 0, m.start()):
            return True
        return bool(_DREADED.search(text, 0, m.start()) and _COPE_WITH.match(text, m.start()))
    return False


# Not coping as words someone else expects them to say, told as theirs: "My son worries, he half
# expects me to ring him to say I can't cope" (round 279 showed a support line to a calm woman
# explaining why she wants to manage on her own; English). Only "can't cope", only as the words
# they are expected to say: never "He thinks I'm being dramatic but some days I want to die",
# "my partner thinks I'm fine, I'm not, I can't cope" (review rv64)
_THEIR_WORRY = re.compile(
    r"\b(?:expects?|expecting|wants?|waiting\s+for)\s+me\s+to\s+(?:ring|call|phone|text|tell|say)\b"
    r"[^.!?,;]{0,25}?(?:\bsay|\btell\s+\w+)?\s*(?:that\s+)?$"
)


def safety_reading(answer: str, language: str | None = None) -> str:
    """``distress``, ``abuse``, ``stop``, ``off_topic`` or ``none`` for one answer;
    ``language`` picks the rules (with English beside them); None applies every language's."""
    text = _fold(answer)
    for kind in ORDER:
        found = next(
            (m for m in _pattern(kind, language).finditer(text) if not _set_aside(kind, text, m)),
            None,
        )
        if found and not (kind == "off_topic" and _SAID_BEFORE.search(text, 0, found.start())):
            return kind
        if kind == "stop" and language in (None, "en"):
            if any(p.search(text) for p in _ENGLISH_STOPS):
                return kind
    return "none"
