"""Prompts for the text tasks: opening question, follow-up question, simulated respondent.

Seed 001 "Policy-Driven Follow-Up Question Generation", read as a moderator's brief
(INTERVIEWING.md "Writing one question"): the opening prompt is conversational (methodology
name, goal, opening_bias, the objective); the follow-up prompt gives a question writer what
it can use - the technique (the strategy's YAML description), the focus with the
respondent's own words, the ladder from the first thing they named to the focus, what was
already asked on it and what came of it, the last exchanges - and the craft rules in the
system part. The scoring behind the choice (signal values, weights, the runner-up) stays
out: a writer of questions cannot use it, and a model tends to echo it. Both follow the
language rule: the study language when one is set, otherwise the respondent's.
"""

from __future__ import annotations

from interview_cli.config.schemas import Rung
from interview_cli.core.grid import POLE_SEPARATOR, grid_spec, triad
from interview_cli.llm.prompts.templates import (
    Prompt,
    bullets,
    delimit,
    escape_tags,
    fill,
    language_rule,
    topic_name,
)
from interview_cli.llm.protocol import (
    Exchange,
    OpeningRequest,
    PersonaRequest,
    QuestionRequest,
)

# The last exchange plus two before it: what the prompt shows, and so all the pipeline sends.
MAX_RECENT_EXCHANGES = 3
MAX_AVOID_SHOWN = 6  # recent questions listed not to repeat (the runner checks the whole window)
MAX_PROBES_SHOWN = 4
MAX_QUOTES_SHOWN = 2
MAX_QUOTE_CHARS = 200
MAX_COVERED_SHOWN = 12
OUTCOME_WORDS: dict[str, str] = {
    "new_rung": "they went one step further",
    "nothing_new": "nothing new came of it",
    "dont_know": "they did not know",
    "already_said": "they said they had already answered it",
    "move_on": "they asked to move on",
    "about_interview": "they talked about the interview instead",
}
PERSONA_FULL_EXCHANGES = 4
PERSONA_SUMMARY_LINES = 6
PERSONA_SUMMARY_CHARS = 90
# Sayings shown per meaning: enough to show the person's register, few enough that the model
# does not just read them out.
PERSONA_EXAMPLE_SAYINGS = 2
# A voice that types this sloppily is told so.
PERSONA_TYPO_NOTE = 0.02
DISLIKE_NOTE = (
    "They spoke of it as a dislike. Keep that in whatever this technique asks: about the "
    "trouble it is to them (what it costs them, spoils or gets in the way of), never about "
    "what it gives them."
)
CLOSING_TASK = (
    "This is the closing turn. Here, and only here, you may say more than one sentence: "
    "sum up what you heard in at most three short sentences, in the respondent's own words "
    "(from <summary>), then ask one question: whether anything important is missing or "
    "wrong in it. Thank them in a few words."
)


def short_quote(text: str, limit: int = MAX_QUOTE_CHARS) -> str:
    """One line of at most ``limit`` characters, cut at a word boundary."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip(" ,;") + " ..."


def render_conversation(exchanges: list[Exchange]) -> str:
    parts = []
    for exchange in exchanges:
        parts.append(
            f"<interviewer_question>{escape_tags(exchange.question.strip())}</interviewer_question>\n"
            f"<respondent_answer>{escape_tags(exchange.answer.strip())}</respondent_answer>"
        )
    return "<conversation>\n" + "\n".join(parts) + "\n</conversation>"


def _focus_section(request: QuestionRequest, topic: str) -> str:
    """What to ask about: the focus in the respondent's words, or the topic, or the summary."""
    if request.is_closing or request.strategy.focus_mode == "summary":
        chains = [" -> ".join(c) for c in request.summary_chains] or request.summary_labels
        heard = "## What you heard (their words, concrete to abstract)\n" + delimit(
            "summary", bullets(chains)
        )
        if request.leaving:
            # (round 261: "pressed for more while I was leaving")
            heard += (
                "\nThey said they are tired or have to go: thank them, let them go, restate the "
                "main points in one short sentence, and ask for nothing more than whether that "
                "is right."
            )
        if not request.asked_chains:
            return heard
        # (the ladders they gave when asked why: the surest, read back first)
        asked = [" -> ".join(c) for c in request.asked_chains]
        return (
            "## What they answered when asked why (each the reason they gave for the one "
            "before it; restate these first)\n"
            + delimit("asked_ladders", bullets(asked))
            + "\n\n"
            + heard
        )
    element = next((e for e in request.concept.elements if e.id == request.element_id), None)
    if element is not None:
        return (
            "## Element of the concept to raise\n"
            + delimit("element", element.label)
            + "\nThey were shown the concept and have not mentioned this element. Name it in "
            "the concept's own words and ask what they make of it: open and neutral, no "
            "suggested reaction, no praise of it, nothing else in the same question."
        )
    if request.focus_label and request.strategy.focus_mode != "topic":
        kind = f" ({request.focus_type.replace('_', ' ')})" if request.focus_type else ""
        lines = [f"## Focus{kind}", delimit("focus", request.focus_label)]
        lines += _focus_notes(request)
        quotes = [short_quote(q) for q in request.focus_quotes[-MAX_QUOTES_SHOWN:] if q.strip()]
        if quotes:
            lines.append("The respondent's own words about it:")
            lines.append(delimit("respondent_quotes", bullets([f'"{q}"' for q in quotes])))
        lines += grid_lines(request)
        return "\n".join(lines)
    section = f"## Focus\n{topic} as a whole: no single concept."
    if request.covered_labels:
        covered = request.covered_labels[:MAX_COVERED_SHOWN]
        section += (
            "\nAlready discussed (do not offer these, or anything else, as examples: let the "
            "respondent name what comes next; they may of course come back to one of "
            "them):\n" + delimit("summary", bullets(covered))
        )
    return "\n".join([section, *grid_lines(request)])


def _focus_notes(request: QuestionRequest) -> list[str]:
    """What the writer must know about the focus beyond its words: said as a dislike (for a
    technique that climbs from it), asked for by the respondent (``asked_back``, or what they
    went back to say: ``went_back_to``), else said before the last answer (a return)."""
    notes: list[str] = []
    if request.focus_stance < 0 and request.strategy.climbs:
        notes.append(DISLIKE_NOTE)
    if request.went_back_to:
        notes.append(
            f'In their last answer they went back to "{escape_tags(request.went_back_to)}" and '
            "said this is what it leads to: ask about this, in their words, not about what they "
            "went back to."
        )
        return notes
    if request.asked_back:
        notes.append(
            "They asked to go back to this in their last answer: open by saying you will (a few "
            "of their words), then ask what they wanted to say about it, presuming nothing."
        )
        return notes
    last_answer = request.turn_number - 1
    if 0 < request.focus_said_turn < last_answer:
        ago = last_answer - request.focus_said_turn
        notes.append(
            f"This goes back to something they said {ago} answer{'s' if ago > 1 else ''} "
            "ago, not to their last answer: open with a few words that take them back to it "
            '(for example "Going back to what you said about ...").'
        )
    return notes


def _reached_note(request: QuestionRequest) -> str:
    """A value their last answer came to, which the question moves on from (``reached``)."""
    if request.is_closing or not request.reached:
        return ""
    return (
        "\nTheir last answer came to something that matters to them: "
        f'"{escape_tags(request.reached)}". Before the question, say it back in one short '
        "sentence, in a few of their words, so they hear it was heard; then ask your question, "
        "not about that."
    )


def grid_lines(request: QuestionRequest) -> list[str]:
    """A repertory grid's facts the question needs: for a construct, the scale with its
    poles and the elements (rated or still to rate); for a new construct, the next triad."""
    spec = grid_spec(request.methodology)
    elements = [e.label for e in request.concept.elements]
    if spec is None or not elements:
        return []
    if request.focus_label and request.focus_type == spec.construct_type:
        low, high = spec.rating_scale
        first, _, second = request.focus_label.partition(POLE_SEPARATOR)
        second = second or f"not {first}"
        rated = {label.lower() for label in request.rated_elements}
        pending = [label for label in elements if label.lower() not in rated]
        lines = [
            f"The grid's scale: {low} = {escape_tags(first.strip())}, {high} = "
            f"{escape_tags(second.strip())}.",
            "The elements: " + ", ".join(elements) + ".",
        ]
        if request.rated_elements:
            lines.append(
                "Already rated on it: "
                + ", ".join(request.rated_elements)
                + "; still to rate: "
                + (", ".join(pending) or "none")
                + "."
            )
        return lines
    if request.strategy.focus_mode == "topic" and len(elements) >= 3:
        shown = triad(len(request.covered_labels), len(elements))
        return ["The next three elements to show: " + ", ".join(elements[i] for i in shown) + "."]
    return []


def _ladder_section(request: QuestionRequest) -> str:
    if len(request.chain) < 2 or request.strategy.focus_mode != "recent_node":
        return ""
    steps = " -> ".join(node.label for node in request.chain)
    return "## How they got here (from the first thing they named to the focus)\n" + delimit(
        "ladder_so_far", steps
    )


def _asked_section(request: QuestionRequest) -> str:
    if not request.probes or request.strategy.focus_mode != "recent_node":
        return ""
    lines = []
    for probe in request.probes[-MAX_PROBES_SHOWN:]:
        outcome = OUTCOME_WORDS.get(probe.outcome, probe.outcome.replace("_", " "))
        asked = f'"{probe.question.strip()}"' if probe.question.strip() else "a question"
        lines.append(f"{asked} ({probe.strategy}): {outcome}")
    return "## Already asked about this focus\n" + delimit("asked_on_focus", bullets(lines))


def _conversation_section(request: QuestionRequest) -> str:
    if not request.recent:
        return ""
    *earlier, last = request.recent[-MAX_RECENT_EXCHANGES:]
    parts = []
    if earlier:
        parts.append("## Just before (oldest first)\n" + render_conversation(earlier))
    parts.append("## Last question and answer\n" + render_conversation([last]))
    return "\n\n".join(parts)


def _task_line(request: QuestionRequest) -> str:
    if request.is_closing:
        return CLOSING_TASK
    if request.element_id is not None:
        return (
            "Write the next question: raise this element of the concept and ask for their reaction."
        )
    if request.strategy.focus_mode == "topic" or not request.focus_label:
        return "Write the next question with this technique, about the topic as a whole."
    return "Write the next question with this technique, about the focus, in their words."


def guide_section(*, tone: str, remaining: list[str], avoid: list[str]) -> str:
    """The study guide's brief: tone, topics still to cover, topics never to raise."""
    parts: list[str] = []
    if tone.strip():
        parts.append(f"Tone: {' '.join(tone.split())}")
    if remaining:
        parts.append(
            "The study must still cover these topics; when the technique allows, lead toward "
            "one of them in the respondent's words:\n" + bullets(remaining)
        )
    if avoid:
        parts.append("Never raise these topics:\n" + bullets(avoid))
    return "## Study guide\n" + "\n".join(parts) if parts else ""


def render_question(request: QuestionRequest) -> Prompt:
    """The follow-up question prompt (streamed free text): a brief for a question writer.

    The system part (craft rules, method goal, topic, language) is the same every turn of a
    session; the user part is the brief: technique, focus with the respondent's words, the
    ladder so far, what was already asked on it, and the last exchanges. No scores: a writer
    of questions cannot use them."""
    methodology, concept = request.methodology, request.concept
    topic = topic_name(concept.name)
    system = fill(
        "question.system",
        method_name=methodology.name,
        method_goal=" ".join(methodology.method.goal.split()),
        topic=topic,
        language_rule=language_rule(request.language or concept.language),
    )
    avoid = ""
    shown = request.avoid_questions[-MAX_AVOID_SHOWN:]
    if shown:
        # The runner checks the whole question window; the latest ones are the likely repeats.
        avoid = "## Asked recently (do not repeat)\n" + delimit("asked_recently", bullets(shown))
    guide = guide_section(
        tone=request.guide_tone,
        remaining=[] if request.closing else request.guide_remaining,
        avoid=request.guide_avoid,
    )
    avoid = "\n\n".join(part for part in (guide, avoid) if part)
    # The closing task says how to close (one summary, one question); the closing strategy's
    # own description would add a second version of it, and an interview cut short (turn
    # limit, the respondent's request) may carry a strategy that does not close at all.
    closing = request.is_closing
    forced = request.closing and not request.strategy.generates_closing_question
    user = fill(
        "question.user",
        strategy_name="closing" if forced else request.strategy.name,
        strategy_description="Close the interview (see the task below)."
        if closing
        else " ".join(request.strategy.description.split()),
        focus=_focus_section(request, topic) + _reached_note(request),
        ladder=_ladder_section(request),
        asked_on_focus=_asked_section(request),
        conversation=_conversation_section(request),
        avoid=avoid,
        task=_task_line(request),
    )
    return Prompt(system, user, None, None, True)


def render_opening(request: OpeningRequest) -> Prompt:
    """The opening question prompt: conversational, low-constraint (seed 001)."""
    methodology, concept = request.methodology, request.concept
    topic = topic_name(concept.name)
    system = fill(
        "opening.system",
        method_name=methodology.name,
        method_goal=methodology.method.goal,
        opening_bias=methodology.method.opening_bias.strip()
        or "Start from the respondent's own concrete experience.",
        topic=topic,
        objective=concept.objective,
        language_rule=language_rule(request.language or concept.language),
    )
    description = ""
    if concept.description:
        # What the whole interview covers, not a list for the first question to ask at once.
        description = (
            "What the study covers over the whole interview (not in this first question): "
            f"{' '.join(concept.description.split())}\n"
        )
    elements = ""
    if concept.elements:
        elements = "The concept shown to the respondent has these elements:\n" + bullets(
            [e.label for e in concept.elements]
        )
    stimulus = concept.shown_stimulus(methodology.shape)
    if stimulus is not None:
        elements = (
            "The respondent has just been shown the concept and read it:\n"
            + delimit("stimulus", stimulus.text.strip())
            + "\nAsk for their first reaction to it in their own words; do not name any of its "
            "elements (let them say what strikes them).\n\n" + elements
        )
    guide = concept.guide
    if guide is not None:  # the tone and the topics to avoid hold from the first question on
        brief = guide_section(tone=guide.tone, remaining=[], avoid=guide.avoid)
        elements = "\n\n".join(part for part in (elements, brief) if part)
    user = fill("opening.user", topic=topic, description=description, elements=elements)
    return Prompt(system, user, None, None, True)


def _describe_traits(request: PersonaRequest) -> str:
    traits = request.persona.traits
    length = (
        "a few words to one sentence"
        if traits.verbosity < 0.3
        else "two or three sentences"
        if traits.verbosity < 0.7
        else "several sentences, sometimes drifting into tangents"
    )
    lines = [
        # One length rule: the persona's usual length, shortened by fatigue.
        f"- Answer length: {length}; after about {traits.patience} questions you get tired "
        "and answer shorter than that.",
        "- You open up easily when asked why something matters."
        if traits.openness >= 0.6
        else "- You are guarded: you reveal deeper reasons only when asked more than once.",
        "- When you reach the limit of what you know or care about, say so plainly."
        if traits.knowledge < 1.0
        else "- You can explain your reasons all the way to what matters to you in life.",
    ]
    if traits.skepticism >= 0.3:
        lines.append("- You sometimes question the point of a question before answering it.")
    if traits.repetition_tolerance < 0.3:
        lines.append(
            "- Asked something you already answered, you say so, irritated, and add nothing."
        )
    return "\n".join(lines)


def _describe_topic(request: PersonaRequest) -> str:
    """The study's topic as the respondent is told it: the concept's name and objective."""
    concept = request.concept
    if concept is None:
        return "(not named: answer about whatever the interviewer asks)"
    return f"{concept.name}: {' '.join(concept.objective.split())}"


def _describe_voice(request: PersonaRequest) -> str:
    """The person's voice: the touches they use, each list as a few examples."""
    voice = request.persona.voice
    if voice is None:
        return "- Plain everyday speech, as your profile and speech pattern suggest."
    parts = [
        ("Softeners you use", voice.hedges),
        ("Filler words", voice.fillers),
        ("How you address the interviewer", voice.address),
        ("Things from your life you mention in passing", voice.backstory),
        ("Asides", voice.asides),
        ("Jokes you make", voice.jokes),
        ("How you say you can go no further", voice.ceiling),
    ]
    lines = [f"- {name}: {'; '.join(items)}" for name, items in parts if items]
    if voice.typo_rate >= PERSONA_TYPO_NOTE:
        lines.append("- You type quickly and leave the odd typo.")
    return "\n".join(lines) or "- Plain everyday speech."


def _describe_beliefs(request: PersonaRequest) -> str:
    """The meanings the persona holds about the topic: each rung's code with one or two of
    its sayings as examples (the code alone when it has none)."""
    persona, topic = request.persona, request.concept.id if request.concept else ""
    if request.methodology is not None:
        ladders = persona.typed_ladders(topic, request.methodology)
    else:
        ladders = persona.beliefs.get(topic, [])
    if not ladders:
        return "(nothing specific about this topic: answer from your profile)"
    return "\n".join("- " + " -> ".join(_meaning(rung) for rung in ladder) for ladder in ladders)


def _meaning(rung: Rung) -> str:
    examples = rung.says[:PERSONA_EXAMPLE_SAYINGS]
    if not examples:
        return f"[{rung.code}]"
    quoted = " / ".join('"' + saying + '"' for saying in examples)
    return f"[{rung.code}] (e.g. {quoted})"


def _persona_history(history: list[Exchange]) -> str:
    """The last exchanges in full, the ones before as a short summary of what the persona
    said: the prompt stays about the same size however long the interview runs."""
    if not history:
        return ""
    older, latest = history[:-PERSONA_FULL_EXCHANGES], history[-PERSONA_FULL_EXCHANGES:]
    parts = []
    if older:
        shown = older[-PERSONA_SUMMARY_LINES:]
        lines = [short_quote(x.answer, PERSONA_SUMMARY_CHARS) for x in shown if x.answer.strip()]
        skipped = len(older) - len(shown)
        head = "Earlier, you said (oldest first, shortened"
        head += f"; {skipped} earlier answers not shown):" if skipped else "):"
        parts.append(head + "\n" + delimit("earlier_summary", bullets(lines)))
    parts.append("The interview so far:\n" + render_conversation(latest))
    return "\n\n".join(parts)


def render_persona(request: PersonaRequest) -> Prompt:
    """The simulated respondent's prompt: the topic, the person and its voice, the meanings it
    holds about the topic (with a saying or two each, to be said its own way), and the
    conversation; never the interviewer's decision."""
    persona = request.persona
    speech = f"Speech pattern: {persona.speech_pattern.strip()}\n" if persona.speech_pattern else ""
    deflections = ""
    if persona.deflection_patterns:
        deflections = "When you don't want to go deeper, you say things like:\n" + bullets(
            persona.deflection_patterns
        )
    system = fill(
        "persona.system",
        name=persona.name,
        profile=persona.profile.strip(),
        speech_pattern=speech,
        topic=_describe_topic(request),
        voice=_describe_voice(request),
        traits=_describe_traits(request),
        beliefs=_describe_beliefs(request),
        deflections=deflections,
    )
    history = _persona_history(request.history)
    if request.stimulus.strip():
        shown = "Before the first question you were shown this concept:\n"
        history = shown + delimit("stimulus", request.stimulus.strip()) + "\n\n" + history
    user = fill(
        "persona.user",
        history=history,
        question=escape_tags(request.question.strip()),
        name=persona.name,
    )
    return Prompt(system, user, None, None, False)
