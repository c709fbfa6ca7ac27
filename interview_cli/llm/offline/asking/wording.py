"""The offline interviewer's question templates, one family per kind of strategy (English).

Kept apart from the code that picks among them (``questions``) so a researcher can reword
or add questions without reading the algorithm. Every template is short (about twenty words
or fewer besides what it quotes), asks one thing, uses no method jargon (no "attribute",
"consequence", "value", "ladder") and quotes the respondent's own words as ``"{focus}"``.
Placeholders: ``{focus}`` (the node's label), ``{topic}`` (the concept), ``{summary}`` (a
few labels, for a recap). A family has several wordings so that a run of the same strategy
does not ask the same sentence with another label: the picker never uses one template twice
in a row within an interview.
"""

from __future__ import annotations

# Checked in order: the first family any of whose words appears in the strategy's name wins;
# then the same over its description. The four redirection families come first so that a
# strategy called "situational" or "negative_ladder" is not read as explore or deepen.
FAMILY_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("negative_ladder", ("negative ladder", "negative laddering", "absence")),
    ("third_person", ("third person", "third-person", "someone like you")),
    ("situational", ("situational", "last time")),
    ("breadth_check", ("breadth check", "breadth-check")),
    ("summary", ("reflect", "validate", "summar", "synthes", "recap", "playback")),
    ("attribution", ("attribution", "cause", "blame", "responsib")),
    ("insight", ("insight", "learning", "lesson", "takeaway", "conclu")),
    ("obstacle", ("obstacle", "pain", "struggle", "barrier", "problem", "friction")),
    ("alternative", ("alternative", "compet", "switch", "substitut")),
    ("emotion", ("emotion", "feeling")),
    ("narrative", ("narrative", "story", "sequence", "timeline")),
    ("incident", ("incident", "episode", "elicit")),
    ("clarify", ("clarif", "assumption", "specif", "example", "concret")),
    ("revitalize", ("revitali", "ease", "rapport", "energi", "re-engage")),
    ("bridge", ("bridge", "lateral", "connect")),
    ("contrast", ("contrast", "compar", "versus")),
    ("explore", ("explore", "broaden", "breadth", "new ", "another", "situation")),
    ("deepen", ("deepen", "ladder", "dig", "motivation", "why", "deeper", "climb")),
)

TEMPLATES: dict[str, tuple[str, ...]] = {
    "deepen": (
        'Why does "{focus}" matter to you?',
        'What does "{focus}" do for you?',
        'What do you get out of "{focus}"?',
        'How does "{focus}" help you?',
        'You said "{focus}". What does that give you?',
        'What is it about "{focus}" that counts for you?',
        'And what does "{focus}" lead to, for you?',
        'Why is "{focus}" important to you?',
    ),
    "deepen_anchored": (
        'Thinking about {topic}, why does "{focus}" matter to you?',
        'When it comes to {topic}, what does "{focus}" mean for you?',
        'With {topic}, what does "{focus}" make possible for you?',
        'And "{focus}": what does that give you, in the end?',
        'What difference does "{focus}" make to you with {topic}?',
    ),
    # the focus is a dislike ("price annoys me"): what it costs them, not what it gives them
    "dislike": (
        'Why does "{focus}" bother you?',
        'What is the problem with "{focus}" for you?',
        'What does "{focus}" get in the way of for you?',
    ),
    "negative_ladder": (
        'What would you miss if you didn\'t have "{focus}"?',
        'Imagine "{focus}" was gone. What would be different for you?',
        'What would happen if "{focus}" wasn\'t there?',
        'Without "{focus}", what would you do instead?',
        'Picture {topic} without "{focus}". What changes for you?',
        'If "{focus}" stopped, what would bother you most?',
    ),
    "third_person": (
        'Why might someone like you care about "{focus}"?',
        'What do you think "{focus}" does for people like you?',
        'Why would a friend of yours want "{focus}"?',
        'Some people care about "{focus}", some don\'t. Why might someone care?',
        'What would someone in your shoes get from "{focus}"?',
    ),
    "situational": (
        'Think of the last time "{focus}" mattered to you. What was going on?',
        'When did "{focus}" last make a real difference for you?',
        'Picture the last time you noticed "{focus}". Where were you?',
        'Tell me about a recent moment when "{focus}" counted. What was happening?',
        'Where were you the last time "{focus}" really mattered?',
    ),
    "breadth_check": (
        "What else matters to you about {topic}?",
        "Is there anything else about {topic} that is important to you?",
        "Before we move on: anything else about {topic} you care about?",
        "Apart from what we've covered, what else counts for you with {topic}?",
        "What haven't we talked about yet that matters to you with {topic}?",
        "Anything else you notice or care about when it comes to {topic}?",
    ),
    "clarify": (
        'When you say "{focus}", what exactly do you mean?',
        'Could you give me an example of "{focus}" with {topic}?',
        'What does "{focus}" look like in practice for you?',
        'How would you describe "{focus}" to someone who has never tried {topic}?',
        'Can you walk me through a moment when "{focus}" really showed?',
    ),
    "explore": (
        "Apart from what we've talked about, what else matters to you about {topic}?",
        "What else do you pay attention to when it comes to {topic}?",
        "Is there anything else about {topic} that is important to you?",
        "Can you think of another occasion with {topic} that was different? What happened?",
        "Which other features or qualities of {topic} do you notice?",
        # (no "different {topic}": it breaks on a topic like "commuting by bike")
        "Thinking of the other options you know, what else makes a difference with {topic}?",
    ),
    "revitalize": (
        "Let's try another angle: picture the last time you dealt with {topic}. What stands out?",
        "What was the best or the worst moment you've had with {topic} recently?",
        "What is one small thing about {topic} you'd change if you could?",
        "If a friend asked you about {topic}, what would you tell them first?",
        "Tell me about a typical day with {topic}: where are you, and what happens?",
        "What would you miss first if you had to do without {topic} for a week?",
    ),
    "incident": (
        "Can you think of a specific time when {topic} went really well or really badly? What "
        "happened?",
        "Tell me about another occasion with {topic} that stood out for you. What happened?",
    ),
    "narrative": (
        'What happened next, after "{focus}"?',
        'Could you walk me through "{focus}" step by step: who did what, and how did it end?',
        'Tell me more about "{focus}": what exactly happened?',
    ),
    "emotion": (
        'You mentioned "{focus}". How did that feel in the moment, and afterwards?',
        'What was it about "{focus}" that made you feel the way you did?',
    ),
    "attribution": (
        'Why do you think "{focus}" happened the way it did?',
        'Who or what do you think was behind "{focus}"?',
    ),
    "insight": (
        'Looking back, what did you take away from "{focus}"?',
        'Do you do anything differently since "{focus}"?',
    ),
    "obstacle": (
        'What gets in the way when it comes to "{focus}"?',
        'When did "{focus}" last go wrong, and what did you do about it?',
    ),
    "alternative": (
        'Before "{focus}", what did you use, and what else have you tried?',
        'What do you do when "{focus}" isn\'t an option?',
    ),
    "bridge": (
        'You mentioned "{focus}". Is there something related to that we haven\'t talked about yet?',
        'Building on "{focus}", what else comes to mind about {topic}?',
    ),
    "contrast": (
        'How does "{focus}" compare with other options you know?',
        'What would be the opposite of "{focus}" for you, and how would that feel?',
    ),
    "generic": (
        'You mentioned "{focus}". Could you tell me more about that?',
        'I\'d like to understand "{focus}" better. What more can you tell me about it?',
    ),
    "generic_topic": (
        "Could you tell me more about your experience with {topic}?",
        "What else comes to mind when you think about {topic}?",
    ),
    "summary": (
        "So far I've heard about {summary}. Did I get that right, and is there anything important "
        "we haven't covered?",
        "Let me check I understood: you talked about {summary}. Is that accurate, and is anything "
        "missing?",
    ),
    "closing": (
        "Before we finish, is there anything else about {topic} that matters to you that we "
        "haven't touched on?",
        "Thank you, this has been very helpful. Is there anything about {topic} you'd like to add "
        "before we wrap up?",
    ),
}

# A node-bound family asked without a node: the same idea about the topic.
TOPIC_TEMPLATES: dict[str, tuple[str, ...]] = {
    "negative_ladder": (
        "What would you miss if you had to do without {topic}?",
        "Imagine {topic} disappeared tomorrow. What would be different for you?",
    ),
    "third_person": (
        "Why might someone like you care about {topic}?",
        "What do you think {topic} does for people like you?",
    ),
    "situational": (
        "Think of the last time {topic} mattered to you. What was going on?",
        "When did {topic} last make a real difference for you?",
    ),
}

OPENING_TEMPLATES: dict[str, tuple[str, ...]] = {
    "incident": (
        "Think of one specific time when {topic} went really well or really badly for you. What "
        "happened?",
        "Could you tell me about a particular occasion with {topic} that stood out, good or bad? "
        "What happened?",
    ),
    "occasion": (
        "Think about the last time {topic} was part of your day. Walk me through it from the "
        "beginning: when was it, and what set it off?",
        "Let's start with your most recent {topic}. Where were you, and how did it begin?",
    ),
    "attribute": (
        "To start, think about the last time you chose or used {topic}. What mattered most to you "
        "about it?",
        "What comes to mind first when you think about {topic}? What do you like, and what "
        "annoys you?",
        "When you think about {topic}, what are the things you notice or pay attention to?",
    ),
}
