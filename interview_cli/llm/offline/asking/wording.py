"""The offline interviewer's question templates, one family per kind of strategy (English).

Kept apart from the code that picks among them (``questions``) so a researcher can reword
or add questions without reading the algorithm. INTERVIEWING.md "Writing one question": every
template asks one thing (one question mark, no "and what..." second question), is short
(about twenty words or fewer besides what it quotes) and uses no method jargon.

A family's wordings come in the forms a focus can take (``phrases``):

- ``noun``: about a noun phrase of the respondent's, ``{np}`` ("the battery", "being able to
  sleep"), with ``{does}``, ``{is}`` and ``{was}`` agreeing with it;
- ``that``: about "that", after a lead that says what ("You said you can sleep on the
  bus.", ``LEADS``), or alone right after the answer it points at;
- ``thing`` and ``plain``: about the topic, in the respondent's own word for it (``{thing}``:
  "your headphones") or without naming it. The concept's name is never spliced into a
  follow-up question: only the opening names the topic (``{topic}``).

A family has several wordings so that a run of the same strategy does not ask the same
sentence with another label: the picker never uses one template twice in a row.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Wordings:
    noun: tuple[str, ...] = ()
    that: tuple[str, ...] = ()
    thing: tuple[str, ...] = ()
    plain: tuple[str, ...] = ()


# A "why" asked of a node that is not a rung of a ladder asks what that kind of node is for
# (INTERVIEWING.md "Jobs-to-be-Done": move across the job's circumstances, push, pull and
# progress rather than dig one forever). Read from the words of the focus's node type, first
# match wins; a type no angle fits (attribute, consequence, value) keeps the plain why.
TYPE_ANGLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("emotion", ("emotion", "feeling")),
    ("social", ("social",)),
    ("dislike", ("pain", "problem", "obstacle", "frustrat", "anxiet")),
    ("circumstance", ("context", "situation", "circumstance")),
    ("trigger", ("trigger",)),
    ("choice", ("solution", "approach", "workaround", "alternative")),
    ("progress", ("job", "gain", "outcome", "goal", "benefit")),
)

# What a question about "that" says first, by the form of the focus.
LEADS: dict[str, tuple[str, ...]] = {
    "noun": ("You mentioned {np}.", "You talked about {np}."),
    "clause": ("You said {clause}.", "You mentioned that {clause}."),
    "quote": ("You said {clause}.", "You mentioned {clause}."),
    "mention": ("You talked about {mention}.", "You mentioned {mention}."),
    # the focus the respondent asked for ("can we go back to the codes thing?")
    # ("You asked about the boot thing": he had asked to go back to it, round 29)
    # ("Sure, back to": "Sure, Bev." read as if it called the respondent Bev, round 135)
    "steer": ("Back to {mention}.", "Sure, back to {mention}."),
}

# (round 39: "Could you tell me more about your experience with the car?" - "what do you
# mean by my experience with it?", asked three times)
_THING_GENERIC = (
    "What matters most to you about {thing}?",
    "What else comes to mind when you think about {thing}?",
)
# (round 28: "Could you tell me more about your own experience?" was marked vague in two of
# three interviews: of what? The last answer is what it is about.)
# (round 35: "Could you tell me a bit more about that?" of a focus six answers back read as
# about the last thing said, and the vape shop she told of was filed under it: "any of that"
# points at no one thing)
_PLAIN_GENERIC = (
    "Is there more you'd like to say about any of that?",
    "What else comes to mind when you think about it?",
    # (round 38 heard the second again word for word two questions later)
    "What other thoughts do you have on all this?",
)

# A question of theirs about the thing that the interviewer cannot answer ("is there palm oil
# in it?"): said plainly, then why what they asked about matters to them
CANNOT_SAY = (
    "I'm afraid I can't answer that, I don't have the details.",
    "Sorry, I can't tell you that here.",
)
ASKED_US = (
    "Why does {mention} matter to you?",
    "What makes {mention} important to you?",
)

WORDINGS: dict[str, Wordings] = {
    # a focus the respondent asked to go back to: they have something to say about it, and the
    # question lets them say it (round 36: "Back to the packaging thing. What does that do for
    # you, in the end?" - "It doesnt do anything for me, it annoys me")
    "steer": Wordings(
        # ("that", not "it": round 123 went back to "the lad Kieran" and was asked what they
        # wanted to say "about it")
        that=(
            "What did you want to say about that?",
            "What would you like to say about that?",
        ),
    ),
    "deepen": Wordings(
        noun=(
            "Why {does} {np} matter to you?",
            "What {does} {np} do for you?",
            "What do you get out of {np}?",
            "How {does} {np} help you?",
            "What is it about {np} that counts for you?",
            "What difference {does} {np} make for you?",
        ),
        # (rounds 35-37 marked "What does that make possible for you?", "What does that do
        # for you, in the end?" and "What does that lead to for you?" robotic or jargon:
        # "Make possible? Ha, you do talk fancy pet")
        that=(
            "What does that give you?",
            "Why is that important to you?",
            "What does that let you do?",
            "How does that help you?",
            "And why does that matter to you?",
            "What's good about that, for you?",
        ),
    ),
    # a "why" of something they did not say they like or mind: no presumption either way
    "open_why": Wordings(
        noun=(
            "Why {does} {np} matter to you?",
            "What is it about {np} that counts for you?",
            "What difference {does} {np} make for you?",
        ),
        that=(
            "Why is that important to you?",
            "And why does that matter to you?",
            "What difference does that make for you?",
        ),
    ),
    # the focus is a dislike ("price annoys me"): what it costs them, not what it gives them
    # (not "What does that get in the way of for you?": testers of rounds 194 and 196 found it
    # awkward, asked of "whether its leaking" and of "30 odd years on the post"; nor "What does
    # that make harder for you?": round 257's testers answered it "Harder? I don't know that it
    # makes anything harder exactly" of hating waste, and "Harder? I mean, descents mostly")
    "dislike": Wordings(
        noun=(
            "Why {does} {np} bother you?",
            "What is the problem with {np} for you?",
            "Why {does} {np} matter to you?",
        ),
        that=(
            "Why does that bother you?",
            "What is the problem with that for you?",
            "And why does that matter to you?",
        ),
    ),
    # a bad feeling said in a word ("stressful", "mortified"): what makes it so, and what not
    # feeling it would mean (round 190 asked "What is the problem with "stressful" for you?")
    "bad_feeling": Wordings(
        that=(
            "What is it that makes you feel that way?",
            "What would it mean for you not to feel like that?",
        ),
    ),
    # ... whose reason was said with it, or just asked: what not feeling it would mean
    "bad_feeling_said": Wordings(
        that=(
            "What would it mean for you not to feel like that?",
            "What would take that feeling away for you?",
        )
    ),
    # the focus's type is a problem but the respondent did not say they mind it ("I signed up
    # for the beans by post"): how it affects them, neither "bother" nor "get out of"
    "concern": Wordings(
        noun=(
            "What {does} {np} mean for you?",
            "How {does} {np} affect you?",
            "What {is} {np} like for you?",
        ),
        that=(
            "What does that mean for you?",
            "How does that affect you?",
            "What is that like for you?",
        ),
    ),
    # the focus is what they need or must have ("they must not cost a fortune", "it has to be
    # light"): why it matters, not what it "gives" or how it "helps"
    "requirement": Wordings(
        noun=(
            "Why {does} {np} matter to you?",
            "What is it about {np} that counts for you?",
        ),
        that=(
            "Why does that matter to you?",
            "Why is that important to you?",
            "What would happen if it wasn't like that?",
        ),
    ),
    "negative_ladder": Wordings(
        noun=(
            "What would you miss if you didn't have {np}?",
            "Imagine {np} {was} gone. What would be different for you?",
            "What would happen if {np} {was}n't there?",
            "Without {np}, what would you do instead?",
        ),
        that=(
            "What would you miss if you didn't have that?",
            "Imagine that was gone. What would be different for you?",
            "What would happen if that wasn't there?",
            "Without that, what would you do instead?",
        ),
        thing=(
            "What would you miss if you had to do without {thing}?",
            "Imagine {thing} disappeared tomorrow. What would be different for you?",
        ),
        plain=(
            "What would you miss if you had to do without it?",
            "Imagine it disappeared tomorrow. What would be different for you?",
        ),
    ),
    "third_person": Wordings(
        noun=(
            "Why might someone like you care about {np}?",
            "What do you think {np} {does} for people like you?",
            "Why would a friend of yours want {np}?",
            "What would someone in your shoes get from {np}?",
        ),
        that=(
            "Why might someone like you care about that?",
            "What do you think that does for people like you?",
            "Some people care about that, some don't. Why might someone care?",
            "What would someone in your shoes get from that?",
        ),
        thing=(
            "Why might someone like you care about {thing}?",
            "What do you think {thing} does for people like you?",
        ),
        plain=(
            "Why might someone like you care about it?",
            "What do you think it does for people like you?",
        ),
    ),
    "situational": Wordings(
        noun=(
            "Think of the last time {np} mattered to you. What was going on?",
            "When did {np} last make a real difference for you?",
            "Picture the last time you noticed {np}. Where were you?",
            "Where were you the last time {np} really mattered?",
        ),
        that=(
            "Think of the last time that mattered to you. What was going on?",
            "When did that last make a real difference for you?",
            "Tell me about a recent moment when that counted. What was happening?",
            "Where were you the last time that really mattered?",
        ),
        thing=(
            "Think of the last time {thing} mattered to you. What was going on?",
            "When did {thing} last make a real difference for you?",
        ),
        plain=(
            "Think of the last time it mattered to you. What was going on?",
            "When did it last make a real difference for you?",
        ),
    ),
    "breadth_check": Wordings(
        thing=(
            "What else matters to you about {thing}?",
            "Is there anything else about {thing} that is important to you?",
            "Before we move on: anything else about {thing} you care about?",
            "Anything else you notice or care about when it comes to {thing}?",
        ),
        plain=(
            "What else matters to you?",
            "Is there anything else that is important to you?",
            "Before we move on: anything else you care about?",
            "Apart from what we've covered, what else counts for you?",
            "What haven't we talked about yet that matters to you?",
        ),
    ),
    "clarify": Wordings(
        noun=(
            "What exactly do you mean by {np}?",
            "Could you give me an example of {np}?",
            "What {does} {np} look like in practice for you?",
        ),
        that=(
            "What exactly do you mean by that?",
            "Could you give me an example of that?",
            "What does that look like in practice for you?",
            # (not "How would you describe that to someone who has never tried it?": of a
            # feeling, "feel more like a person", it got "describe what? its not a thing you
            # try", a developer's typed interview)
            "What do you mean by that, in your own words?",
            "Can you walk me through a moment when that really showed?",
        ),
    ),
    "explore": Wordings(
        thing=(
            "Apart from what we've talked about, what else matters to you about {thing}?",
            "What else do you pay attention to when it comes to {thing}?",
            "Is there anything else about {thing} that is important to you?",
            "If you were choosing {thing} again, what else would you look at?",
        ),
        plain=(
            "Apart from what we've talked about, what else matters to you?",
            "What else do you pay attention to?",
            "Is there anything else that is important to you here?",
            # (round 73: "Other options? Sorry love, do you mean other phone companies?", and
            # "Features? I dont know really love" of "What other features or qualities do you
            # notice?")
            "If you were choosing again, what else would you look at?",
            "What else comes to mind that matters to you?",
            # (a sixth "what else" had only five wordings: round 127 heard the second question
            # again word for word, "ye asked me that already hen")
            # (not "anything we haven't touched on": the closing question's words, from the
            # review)
            "What else matters to you that we haven't mentioned yet?",
            "What else would you look for, if anything?",
        ),
    ),
    "revitalize": Wordings(
        thing=(
            "Let's try another angle: what was your best or worst moment with {thing}?",
            "What is one small thing about {thing} you'd change if you could?",
            "If a friend asked you about {thing}, what would you tell them first?",
        ),
        plain=(
            # (with what it was a moment of: round 198 answered "With the food you mean?"; the
            # wording said of the thing, said of "it", so that it is asked once)
            "Let's try another angle: what was your best or worst moment with it?",
            "If a friend asked you about it, what would you tell them first?",
            "Tell me about a typical day with it. What happens first?",
            "What would you miss first if you had to do without it for a week?",
        ),
    ),
    # an incident study's respondent going flat: an easier way into what they told, or
    # another kind of time (INTERVIEWING.md: after a bad one, a pleasant surprise)
    "revitalize_story": Wordings(
        plain=(
            "Let's try another angle: which moment of it stays with you most?",
            "Looking back now, what is the one thing you'd want anyone involved to hear?",
            # (two were asked word for word again in round 180: "you asked me that already")
            "What surprised you most about how it went?",
            "If you told a friend about it, which part would you tell them first?",
        ),
    ),
    "incident": Wordings(
        plain=(
            "Think of another specific time that stood out, good or bad. What happened?",
            "Tell me about another occasion that stood out for you. What happened?",
        ),
    ),
    "narrative": Wordings(
        noun=(
            "What happened next, after {np}?",
            "Tell me more about {np}: what exactly happened?",
        ),
        that=(
            "What happened next?",
            "Could you walk me through that step by step?",
            "Tell me more about that: what exactly happened?",
            "How did it end?",
        ),
        # nothing of the story to name: still the story, not "What other thoughts do you have
        # on all this?" (round 49, right after the incident was told)
        plain=(
            "What happened next?",
            "And then what happened?",
            "How did it end?",
        ),
    ),
    "emotion": Wordings(
        that=(
            "How did that feel at the time?",
            "How did you feel about it afterwards?",
            "What was it about that moment that made you feel the way you did?",
        ),
    ),
    "attribution": Wordings(
        that=(
            "Why do you think that happened the way it did?",
            "Who or what do you think was behind that?",
            "What do you think it would have taken for it to go differently?",
        ),
    ),
    # an attribution of a feeling: what made them feel it
    "feeling_cause": Wordings(
        that=(
            "What made you feel that way?",
            "What was it that made you feel like that?",
            "Where do you think that feeling came from?",
        ),
    ),
    # a feeling whose cause is said or was just asked: the story goes on from it
    "after_feeling": Wordings(
        that=(
            "What happened next?",
            "What did you do then?",
            "How did it end?",
        ),
    ),
    "insight": Wordings(
        that=(
            "Looking back, what did you take away from that?",
            "Do you do anything differently since then?",
            "What did that teach you?",
        ),
    ),
    "obstacle": Wordings(
        noun=(
            "What gets in the way when it comes to {np}?",
            # (not "When did {np} last go wrong for you?": round 84 was asked it of the price)
            "What has got in the way for you with {np}?",
        ),
        that=(
            "What gets in the way there?",
            # (a price does not go wrong: round 84 was asked "When did the price last go
            # wrong for you?")
            "When did that last cause you trouble?",
            "What makes that harder than it should be?",
        ),
    ),
    # a switch the respondent told of, one force at a time (about "that" switch, never
    # naming the focus, which may be the old way or the new one)
    "switch": Wordings(
        that=(
            "What was going on when you decided to change?",
            "What did you hope the new way would do for you?",
            "What, if anything, made you hesitate before changing?",
            "What, if anything, do you miss about the old way?",
        ),
    ),
    # a switch they thought about and did not make ("I nearly went for a bean-to-cup")
    "near_switch": Wordings(
        that=(
            # (not "What stopped you in the end?": they say why as they tell it, "but £400+,
            # no chance", from the review)
            "What made you look at that in the first place?",
            "What would it take for you to go for it now?",
        ),
    ),
    # a worry or a habit that held the respondent back
    "anxiety": Wordings(
        that=(
            "What did you think might go wrong?",
            # (not "What made you hesitate there?": "I didn't really hesitate", rounds 283 and
            # 285; the worry is theirs, a hesitation is not)
            "What was the worry there, if any?",
            # (not "How did you get past that in the end?": round 199 answered "I haven't really
            # got past it", the worry still with them)
            "What, if anything, helped you past that?",
            "How did that weigh on your decision at the time?",
        ),
    ),
    "alternative": Wordings(
        noun=(
            "Before {np}, what did you use?",
            "What do you do when {np} {is}n't an option?",
        ),
        that=(
            "Before that, what did you use?",
            "What do you do when that isn't an option?",
            "What else have you tried for that?",
        ),
    ),
    "bridge": Wordings(
        that=(
            "Is there something related to that we haven't talked about yet?",
            "What else comes to mind when you think about that?",
            # (two were asked four times and twice in round 199's Critical Incident: "You keep
            # asking me that")
            "What else should I know about that?",
            "Was there more to that part?",
        ),
    ),
    "contrast": Wordings(
        noun=("How {does} {np} compare with other options you know?",),
        that=(
            "How does that compare with other options you know?",
            "What would be the opposite of that for you?",
        ),
    ),
    "circumstance": Wordings(
        that=(
            "What were you trying to get done at that point?",
            "What was going on around you at the time?",
            "How often does that come up for you?",
        ),
    ),
    # what they do in life, said as what the job is done around ("I work nights")
    "life_context": Wordings(
        that=(
            "How does that shape the way you go about it?",
            "What does that mean for how you do it?",
        ),
    ),
    "trigger": Wordings(
        that=(
            "What made that the moment to do something about it?",
            "What happened just before that?",
            "How did you know it was time to act?",
        ),
    ),
    "choice": Wordings(
        noun=("What made you go for {np} rather than something else?",),
        that=(
            "What made you go for that rather than something else?",
            "What were you hoping that would do for you?",
            "What else did you consider before that?",
        ),
    ),
    "progress": Wordings(
        # (not "What does that make possible for you?": round 44 heard it as the same question
        # as "What does that help you get done?", asked four times)
        that=(
            # (not "What did that let you do?": of a habit the wrong tense, rounds 196 and 197)
            "What does that let you do?",
            "What were you trying to get done there?",
            "What does that help you get done?",
        ),
    ),
    "social": Wordings(
        that=(
            "Who else notices that?",
            "What do the people around you make of that?",
        ),
    ),
    "generic": Wordings(
        noun=("Could you tell me more about {np}?",),
        that=(
            "Could you tell me more about that?",
            "What more can you tell me about that?",
        ),
        thing=_THING_GENERIC,
        plain=_PLAIN_GENERIC,
    ),
}

# The closing: a recap of the clean ladders ({summary}: '"quiet" matters to you because of
# "family time"'), a plain recap of clean single phrases ({recap}), or no recap at all.
SUMMARY_TEMPLATES: tuple[str, ...] = (
    "Let me check I've understood: {summary}. Is that right?",
    "So far I've heard that {summary}. Did I get that right?",
    "Here is what I heard: {summary}. Is that a fair summary?",
)
RECAP_TEMPLATES: tuple[str, ...] = (
    "We talked about {recap}. Did I miss anything that matters to you?",
    "Thank you. We covered {recap}. Is there anything important I missed?",
)
# ... to a respondent who said they have to go or are tired: thanked and let go, the check-back
# short, and no asking for more ("did I miss anything?" after "Sorry I have to go now, Zosia is
# awake", round 261: "pressed for more while I was leaving")
LEAVING_SUMMARY_TEMPLATES: tuple[str, ...] = (
    "Thank you, I'll let you go. Just to check I've got it: {summary}. Is that right?",
    "Thanks for your time, I won't keep you. So, {summary}. Have I got that right?",
)
LEAVING_RECAP_TEMPLATES: tuple[str, ...] = (
    "Thank you, I'll let you go. We talked about {recap}. If I've got any of that wrong, just say.",
    "Thanks for your time, I won't keep you. We covered {recap}; say if I've missed the point.",
)
LEAVING_CLOSING_TEMPLATES: tuple[str, ...] = (
    "Thank you for your time, I'll let you go. If there's anything you'd like to add, just say.",
)
CLOSING_TEMPLATES: tuple[str, ...] = (
    "Before we finish, is there anything else that matters to you that we haven't touched on?",
    "Thank you, this has been very helpful. Is there anything you'd like to add before we wrap up?",
)

# Topic-level questions that bring in one of the guide's must-cover topics not yet covered.
GUIDE_TEMPLATES: tuple[str, ...] = (
    "How does {item} come into it for you?",
    "Where does {item} fit in for you?",
    "What part does {item} play for you?",
)

# An element question (``focus_mode: element``, seed 004 ``cover_element``) raises a stimulus
# element the respondent has not mentioned, in the stimulus's own words (``{element}``: "the
# physical key as a back-up", or a claim in quotation marks: '"no added sugar"'), and asks for
# their reaction without suggesting one.
ELEMENT_TEMPLATES: tuple[str, ...] = (
    "What do you make of {element}?",
    "How do you feel about {element}?",
    "What is your reaction to {element}?",
    "What are your thoughts on {element}?",
)

OPENING_TEMPLATES: dict[str, tuple[str, ...]] = {
    # after the stimulus was shown (a concept test): the first reaction to what they read
    "stimulus": (
        "You have just read the concept. What is your first reaction to it?",
        "Having read the concept, what are your first thoughts?",
        "What is your first reaction to the concept you have just read?",
    ),
    # (the topic is a noun phrase of any shape: "with bike shop and repair experiences" read
    # as a label pasted in, round 27)
    "incident": (
        "Thinking about {topic}, tell me about one specific time that went really well or "
        "really badly for you. What happened?",
        "When it comes to {topic}, think of one particular time that stood out, good or bad. "
        "What happened?",
    ),
    "occasion": (
        "Think of the last time {topic} was part of your day. How did it start?",
        "Let's start with a recent time when {topic} was part of your day. What happened first?",
    ),
    "attribute": (
        "When you think about {topic}, what comes to mind first?",
        "When you think about {topic}, what do you notice or pay attention to?",
        "What matters most to you when it comes to {topic}?",
    ),
}
