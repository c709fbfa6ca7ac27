"""Offline recognition of replies that are not answers (``llm/offline/reading/answer_kind.py``).

Real answers that share words with a non-answer ("it's not about the money, it's about
freedom", "I'd rather not carry a charger") must stay answers: a non-answer's content is
dropped from the graph and its focus is closed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interview_cli.llm.offline.reading.answer_kind import answer_kind

PROMPTS = Path(__file__).resolve().parents[3] / "interview_cli" / "llm" / "prompts"


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        # not answers
        ("Can we move on?", "move_on"),
        ("Let's talk about something else.", "move_on"),
        ("I'd rather not say.", "move_on"),
        ("Skip this one.", "move_on"),
        ("Next question, please.", "move_on"),
        # stopping, declining, another topic asked for: obeyed whatever else is said
        (
            "Right, I'm not answering another why. Ask me about the machine or we're finished.",
            "move_on",
        ),
        ("It's walking. I like walking. Ask me something else.", "move_on"),
        ("I'm done now, thanks.", "move_on"),
        ("I never said I was happy. We're done.", "move_on"),
        ("Are we nearly done?", "move_on"),
        ("Because it's tight! I'd rather not go into our finances, to be honest.", "move_on"),
        ("Can we talk about the battery instead, that's my actual gripe.", "move_on"),
        ("I explain already two times. Please, next question.", "move_on"),
        # the question not understood, or the interview judged
        ("You've lost me there.", "about_interview"),
        ("Sorry, I don't understand the question.", "about_interview"),
        ("I'm not sure I follow.", "about_interview"),
        ("Is this leading somewhere?", "about_interview"),
        ("This is a waste of my time.", "about_interview"),
        ("You keep asking me why everything matters.", "about_interview"),
        # asked again, in other words
        ("Why are you asking me the same thing in different words?", "already_said"),
        ("You're doing it again.", "already_said"),
        ("I said already, the noise.", "already_said"),
        ("I don't really know how to answer that.", "dont_know"),
        # a closer alone, nothing in particular, a dismissal
        ("End of story.", "dont_know"),
        ("That's as deep as it goes.", "dont_know"),
        ("Nothing in particular, to be honest.", "dont_know"),
        ("Ooh, deep question. Give me a sec.", "dont_know"),
        ("Good question, I'd need a minute on that one.", "dont_know"),
        ("Doesn't do anything for me.", "dont_know"),
        ("Forget it.", "about_interview"),
        ("Sorry?", "about_interview"),
        ("Is this for one of them finance companies?", "about_interview"),
        ("Come again?", "about_interview"),
        ("Stop asking about that.", "move_on"),
        # asked what it gives them: nothing
        ("None.", "dont_know"),
        ("I don't get anything out of it.", "dont_know"),
        ("I get nothing out of it, it's just annoying.", "dont_know"),
        ("That's not really about headphones.", "about_interview"),
        ("The question drifted.", "about_interview"),
        ("Why do you keep asking that?", "about_interview"),
        (
            "That's kind of a weird one to answer, but okay. I don't know, that's all.",
            "about_interview",
        ),
        ("That's a leading question.", "about_interview"),
        ("I already told you that.", "already_said"),
        ("Like I said, that's all I have on that.", "already_said"),
        ("We've already covered this.", "already_said"),
        ("I don't know.", "dont_know"),
        ("Hmm, I'm not sure. Let me think.", "dont_know"),
        ("It just is, that's all there is to it.", "dont_know"),
        ("No idea.", "dont_know"),
        ("Never given it much thought.", "dont_know"),
        ("Can't say more than that really.", "dont_know"),
        # fillers and a tautology around a don't-know carry nothing
        ("It's a bike, isn't it. I don't know. Nothing more to it really.", "dont_know"),
        # a hedge, then a short real reason: an answer
        ("Never given it much thought. Because I get down to the allotment.", "answer"),
        ("", "dont_know"),
        # words that name nothing: nothing to ladder
        ("Hmm.", "dont_know"),
        ("Ask my nan, to be fair. I don't know. Nothing more to it really.", "dont_know"),
        ("You'd have to ask my wife.", "dont_know"),
        ("We covered that already.", "already_said"),
        ("Boots are boots. What do you want me to say?", "dont_know"),
        ("Well, it's just nice, isn't it. I can't put it better than that.", "dont_know"),
        ("It's more a feeling than a reason. It just is, that's all there is to it.", "dont_know"),
        ("I ask my vet which one to buy, because she knows the breed.", "answer"),
        ("Mm, maybe.", "dont_know"),
        ("Not really, no.", "dont_know"),
        # remarks on the question or on oneself as a respondent; other ways of "can't say"
        ("Ha, that's a deep one for a Monday morning. I don't know.", "about_interview"),
        ("I'm not much use on this, I'm afraid.", "about_interview"),
        ("Is this for a manufacturer?", "about_interview"),
        ("Why does it matter why? It was the sensible choice.", "about_interview"),
        ("It's a mower. What are you after?", "about_interview"),
        ("It just made sense.", "dont_know"),
        ("It was the sensible choice because it lasts.", "answer"),
        ("Oh, I couldn't really say, dear.", "dont_know"),
        ("I feel better for it. That's as far as it goes.", "answer"),
        ("Because one less thing to think about.", "answer"),
        ("Because it's about being there for them.", "answer"),
        ("I'm done in after a night shift.", "answer"),
        (
            "I don't get much out of the app but the card is handy because I can pay anywhere.",
            "answer",
        ),
        ("We're done with the old one because it broke.", "answer"),
        ("There's nothing there for me.", "dont_know"),
        ("It's a big one for me, the battery.", "answer"),
        # one naming word is enough to be an answer
        ("The price.", "answer"),
        ("Cheap.", "answer"),
        ("Keine Ahnung.", "dont_know"),
        ("Wie gesagt, das ist alles.", "already_said"),
        ("Je ne sais pas.", "dont_know"),
        ("¿Podemos pasar a otra cosa?", "move_on"),
        # answers that share words with them
        ("It's not about the money, it's about freedom.", "answer"),
        ("I'd rather not carry a charger around all day.", "answer"),
        ("With them I can skip that crowded carriage.", "answer"),
        ("I use them just like before, on the train.", "answer"),
        ("Because more time with my kids, again.", "answer"),
        ("Moving on from one meeting to the next without fiddling with cables.", "answer"),
        (
            "Like I said, the battery, but also they fold flat so they fit in my small bag.",
            "answer",
        ),
        ("I don't know, maybe because I can finally hear the cello lines in the music.", "answer"),
        # "done", "finished" inside a sentence is tiredness or time, not a request to stop
        ("When I'm finished, I like to sit with a coffee and some music.", "answer"),
        ("After ten hours on site I'm done, I just want quiet on the train home.", "answer"),
        ("By Friday night I'm done. Completely wiped, so I need the quiet.", "answer"),
        ("Once we're done, the kids go to bed and I get my hour.", "answer"),
        ("Look, I'm done.", "move_on"),
        ("Okay, I'm finished now!", "move_on"),
        # "passer du temps" is to spend time: a value, not a request to move on
        ("Avec ça on peut passer plus de temps en famille.", "answer"),
        ("Nous passons nos week-ends en forêt, donc le confort compte beaucoup.", "answer"),
        ("Así podemos pasar más tiempo juntos en familia.", "answer"),
        ("Passons à autre chose.", "move_on"),
        ("On peut passer à la suite ?", "move_on"),
        # skipping or declining something other than the question is an answer
        ("I'd prefer to skip the queue at the branch, so the app saves me an hour.", "answer"),
        ("I'd rather not answer calls on the bike, so the earbuds stay in my bag.", "answer"),
        ("Can we skip the ads? That's why I pay for premium, the adverts drive me mad.", "answer"),
        (
            "I'd rather not say the price mattered, but it did, money's tight with two kids.",
            "answer",
        ),
        ("I'd prefer to move on now.", "move_on"),
        ("Can we skip this one please?", "move_on"),
        ("Please, stop asking me about that.", "move_on"),
        ("Can you stop asking about it?", "move_on"),
        (
            "I turned off the app so it would stop asking me about it every morning, "
            "that drove me mad.",
            "answer",
        ),
        ("I'd rather not answer that, to be honest.", "move_on"),
    ],
)
def test_answer_kind(reply: str, kind: str) -> None:
    assert answer_kind(reply) == kind


def test_the_assessment_prompt_s_examples_read_the_same_offline() -> None:
    """Each quoted example of an answer kind in the model's assessment prompt is read as that
    kind by the offline path, so both providers take the same reply the same way."""
    prompt = (PROMPTS / "signals.md").read_text("utf-8")
    section = prompt.split("\nanswer_kind:")[1].split("\n\n")[0]
    checked = 0
    for line in section.splitlines()[1:]:
        kind = line.split("=")[0].strip()
        for example in re.findall(r'"([^"]+)"', line):
            if example == "again":
                continue  # a bare "again" names nothing offline: a don't-know, still no answer
            reply = example if example.endswith((".", "?", "!")) else example + "."
            assert answer_kind(reply) == kind, (kind, example)
            checked += 1
    assert checked >= 20  # the section was found and read
