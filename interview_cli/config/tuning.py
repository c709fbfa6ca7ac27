"""The numbers the pure core reads (``methodology.tuning``): de-duplication, saturation and
stopping, exhaustion, vetoes, canonical slots, focus tie-breaks; and the interviewer's habits.

A field here is a *method choice*: something a methodology legitimately sets differently (a
window, a level, a margin, a turn, a rule only laddering needs). Defaults are the seeds' values.

A *habit* (``Habit``) is how the tool interviews whatever the method: ask before a stop what
else matters, do not ask a why the respondent has answered, follow what was just said. A habit
has no field: the core always follows it, except in a session recorded before the habit
existed, whose snapshot lists it in ``Tuning.ran_without`` (stamped by the session file's
migration, never set by a methodology YAML), so that the old session replays as it was
decided. A methodology YAML that still sets a retired switch is refused with the field named
(``RETIRED``): a silent "ignored" would hide that ``false`` no longer turns the habit off.

New rules: a new behaviour may sit behind a preview switch (a field, off by default) for one
release; then it becomes a habit, its field is deleted and it joins ``RETIRED``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field, ValidationInfo, field_serializer, model_validator
from pydantic_core import PydanticCustomError

from interview_cli.config.base import StrictModel, Unit


class Habit(StrEnum):
    """What the interviewer always does (see the module docstring). A value is the name of
    the switch it once was (``RETIRED``), but for a switch that turned the habit off. Values
    are written in session files (``ran_without``): never rename one."""

    # Stopping: before a saturation stop or an early closing, the methodology's breadth
    # check ('what else matters ...?') was asked and brought nothing new (only where a
    # strategy has breadth_check: true).
    BREADTH_CHECK_BEFORE_STOP = "breadth_check_before_stop"
    # A closing question chosen with one turn left waits: the turn is asked, and the turn
    # limit closes with the same summary (not when the respondent is tiring).
    ASK_THE_LAST_TURN = "ask_the_last_turn"
    # 'Nothing else' to a breadth check spends the question, not the respondent: recorded as
    # a short answer in the little-to-say window, never an empty one.
    LITTLE_TO_SAY_BREADTH_SPENT = "little_to_say_breadth_spent"
    # A hesitant don't-know ('not sure, let me think') counts as a short answer in the
    # little-to-say reading, not as no answer: the respondent is thinking.
    HESITATION_IS_AN_ANSWER = "hesitation_is_an_answer"
    # A node-less question that came back empty is not asked again until something new is
    # learned, however long ago it was asked.
    OPEN_QUESTION_MEMORY = "open_question_memory"
    # A stalled node whose last answer was a terminal don't-know is not returned to.
    RETURN_RESPECTS_CEILING = "return_respects_ceiling"
    # technique.node.probe_history reads 'returnable' on a node that may be returned to.
    RETURN_SIGNAL = "return_signal"
    # A climbing strategy (climbs: true) is not asked on a node whose why was answered.
    ANSWERED_WHY = "answered_why"
    # A node read with doubt (confidence below vetoes.min_focus_confidence) is not asked about.
    DOUBTFUL_FOCUS = "doubtful_focus"


# Where each habit's switch sat in a methodology's ``tuning`` (section, name) and the value
# that turned the habit on: the session migration reads old snapshots with it, the loader
# refuses it.
RETIRED: dict[Habit, tuple[str, str, bool]] = {
    Habit.BREADTH_CHECK_BEFORE_STOP: ("saturation", "breadth_check_before_stop", True),
    Habit.ASK_THE_LAST_TURN: ("saturation", "ask_the_last_turn", True),
    Habit.LITTLE_TO_SAY_BREADTH_SPENT: ("saturation", "little_to_say_breadth_spent", True),
    Habit.HESITATION_IS_AN_ANSWER: ("saturation", "little_to_say_hesitation_empty", False),
    Habit.OPEN_QUESTION_MEMORY: ("vetoes", "open_question_memory", True),
    Habit.RETURN_RESPECTS_CEILING: ("vetoes", "return_respects_ceiling", True),
    Habit.RETURN_SIGNAL: ("vetoes", "return_signal", True),
    Habit.ANSWERED_WHY: ("vetoes", "answered_why", True),
    Habit.DOUBTFUL_FOCUS: ("vetoes", "doubtful_focus", True),
}


def habits_off_in(tuning: Any) -> frozenset[Habit]:
    """The habits a methodology's raw ``tuning`` mapping (as a YAML written before they were
    habits held it) did not turn on: what a session recorded with it ran without."""
    tuning = tuning if isinstance(tuning, dict) else {}
    off: set[Habit] = set()
    for habit, (section, switch, on) in RETIRED.items():
        where = tuning.get(section)
        value = where.get(switch) if isinstance(where, dict) else None
        if value is None or _as_bool(value) is not on:
            off.add(habit)
    return frozenset(off)


def _as_bool(value: Any) -> bool:
    """A YAML switch's value as pydantic read it (``1``, ``"yes"``, ``"on"`` are true)."""
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on", "t", "y"}
    return bool(value)


def _without_retired(data: Any, recorded: bool) -> Any:
    """``data`` (a raw ``tuning`` mapping) without the retired switches: dropped from a
    recorded snapshot (its session's ``ran_without`` says what it did), refused in a
    methodology file. ``ran_without`` is accepted only from a recorded snapshot."""
    if not isinstance(data, dict):
        return data
    if data.get("ran_without") and not recorded:
        raise PydanticCustomError(
            "recorded_only",
            "ran_without is recorded by the tool in old session files; a methodology "
            "cannot set it: delete the line",
        )
    out = dict(data)
    for section, switch, _ in RETIRED.values():
        where = out.get(section)
        if not isinstance(where, dict) or switch not in where:
            continue
        if not recorded:
            raise PydanticCustomError(
                "retired_switch",
                "{name} is no longer a setting: it is a habit the interviewer always keeps "
                "(docs/how-to/add-a-strategy.md, 'Habits'); delete the line",
                {"name": f"{section}.{switch}"},
            )
        out[section] = {k: v for k, v in where.items() if k != switch}
    return out


class DedupTuning(StrictModel):
    """Surface de-duplication (seed 000 "Node De-duplication", seed 002 Path 12)."""

    fuzzy_threshold: Unit = 0.80
    jaccard_threshold: Unit = 0.75
    embedding_threshold: Unit = 0.80


class SaturationTuning(StrictModel):
    """Information-velocity saturation (seed 002 Path 16) and saturation stops (seed 001)."""

    ewma_alpha: Unit = 0.4
    velocity_weight: Unit = 0.60
    edge_density_weight: Unit = 0.25
    turn_floor_weight: Unit = 0.15
    edge_density_norm: float = Field(default=2.0, gt=0)
    turn_floor_turns: int = Field(default=15, ge=1)
    min_turn_for_saturation: int = Field(default=5, ge=0)
    graph_saturated_turns: int = Field(default=5, ge=1)
    quality_degraded_turns: int = Field(default=6, ge=1)
    depth_plateau_turns: int = Field(default=6, ge=1)
    exhausted_yield_turns: int = Field(default=3, ge=1)
    new_info_window: int = Field(
        default=5, ge=1, description="recent turns behind graph.new_info_rate"
    )
    saturation_threshold: Unit = 0.85
    fatigue_threshold: Unit = 0.25
    fatigue_alpha: Unit = 0.5
    productive_answer_quality: Unit = Field(
        default=0.0,
        description="an answer that added a node counts at least this quality in the response "
        "trend (a terse respondent whose whys get answers is not tiring); 0 = off. A method "
        "choice: how short an answer may be and still be an answer depends on what is asked",
    )
    probe_attributes_before_stop: bool = Field(
        default=False,
        description="no saturation stop or early closing while a node of the lowest level was "
        "never asked about and turns remain, unless the respondent is fatigued. A method "
        "choice: laddering asks about every attribute named; a journey walks its stages with "
        "a node-less question, so a stage answered is never 'asked about' and the rule would "
        "ask each one again, step by step, for what was said",
    )
    closing_needs_a_reason_before: int = Field(
        default=0,
        ge=0,
        description="before this turn, a closing question that nothing spoke for (it scored 0 "
        "or less: every other move was vetoed) waits unless the respondent is tiring: an open "
        "question of another kind, set aside only because an open question came back empty, "
        "is asked instead (another angle after 'nothing else'); 0 = off. A method choice: "
        "how long an interview of the method runs before 'nothing else' may end it",
    )
    little_to_say_window: int = Field(
        default=0,
        ge=0,
        description="a respondent with little to say: when, among the last this many answers, "
        "at most little_to_say_max_full went beyond a few words and at least "
        "little_to_say_min_empty were not answers (don't-know, already said, a few words that "
        "added nothing...), the interview "
        "closes (little_to_say) and no stop is deferred; 0 = off. The little_to_say_* "
        "numbers are method choices: how many answers show it depends on how much the "
        "method's questions ask, and the value level exists only on a ladder",
    )
    little_to_say_max_full: int = Field(default=1, ge=0)
    little_to_say_min_empty: int = Field(default=4, ge=0)
    little_to_say_late_turn: int = Field(
        default=0,
        ge=0,
        description="from this turn on, little_to_say_late_min_empty empty answers are enough "
        "(a long interview is a burden on a respondent with little to say); 0 = never",
    )
    little_to_say_late_min_empty: int = Field(default=4, ge=0)
    little_to_say_no_value_turn: int = Field(
        default=0,
        ge=0,
        description="from this turn on, a respondent who has said nothing at "
        "little_to_say_value_level or above, gave little_to_say_no_value_min_empty answers "
        "that were no answer over the interview and at most little_to_say_no_value_max_full "
        "long ones among the last little_to_say_window has little to say: their ladders stop "
        "short of a value however they are asked; 0 = never",
    )
    little_to_say_value_level: int = Field(default=0, ge=0)
    little_to_say_no_value_min_empty: int = Field(default=2, ge=0)
    little_to_say_no_value_max_full: int = Field(default=2, ge=0)
    little_to_say_no_value_ceiling: bool = Field(
        default=False,
        description="the no-value reading also needs a ladder seen to stop short: a terminal "
        "don't-know ('that's all there is to it') on a node below little_to_say_value_level. "
        "A respondent whose ladders were opened one after another and not yet climbed has "
        "not shown where they stop (laddering's choice, with the value level)",
    )
    little_to_say_disowned_spent: bool = Field(
        default=False,
        description="an answer that disowns what the question was about ('what do you mean "
        "by \"grab it\"?', 'I never said that': the reading took a node back) spends the "
        "question, not the respondent: a short answer in the little-to-say window, never an "
        "empty one (a preview switch; off replays sessions recorded before it)",
    )
    list_closed_needs_nothing_new: bool = Field(
        default=False,
        description="a reply to a breadth check closes the list only when it adds nothing "
        "(no node, no link): 'No cow was milked for it, and Aoife showed me a video ... "
        "they'd never let me hear the end of it' named two things, so the list is still open "
        "whatever ceiling it seemed to say (off replays sessions recorded before it)",
    )
    little_to_say_in_a_row: int = Field(
        default=0,
        ge=0,
        description="this many answers running that had nothing in them (a don't-know that "
        "goes no further, 'that's all', a /pass; not a hesitation, an 'I already said' or "
        "a question back) close the interview as little_to_say, whatever went before: "
        "'Nope, that's me done', 'No honestly that's everything', 'nope' is a respondent who "
        "cannot go on (INTERVIEWING.md 'Ending'); 0 = off, as in sessions recorded before it",
    )


# How many of a node's latest answers its shallow/deep ratios look at; a node tracked before
# the methodology was known (and an old session's tracker) uses this default.
RECENT_DEPTHS_WINDOW = 3


class ExhaustionTuning(StrictModel):
    """Node exhaustion (seed 003)."""

    min_turns_since_yield: int = Field(default=3, ge=0)
    min_focus_streak: int = Field(default=2, ge=0)
    shallow_ratio: Unit = 0.66
    recent_depths_window: int = Field(default=RECENT_DEPTHS_WINDOW, ge=1)
    recency_horizon_turns: int = Field(default=20, ge=1)


# How many of the latest questions (this turn's included) the repeat checks look at: the
# decision's recorded window (``core.turn.recent_questions``) and the default of
# ``tuning.vetoes.question_history`` for the generated question's similarity check.
QUESTION_HISTORY = 6


class VetoTuning(StrictModel):
    """Tier-1 vetoes (seed 004). ``knowledge_ceiling``, ``recent_redundancy`` and
    ``element_exhausted`` are the seed's vetoes, on unless a methodology switches one off (the
    seed makes each a methodology's choice); the habits among the vetoes are ``Habit``s."""

    knowledge_ceiling: bool = True
    knowledge_ceiling_strategies: list[str] = Field(
        default_factory=list,
        description="strategies vetoed on a node where the respondent hit a terminal don't-know; "
        "empty = every strategy with node_binding required",
    )
    recent_redundancy: bool = True
    redundancy_window_turns: int = Field(default=3, ge=1)
    element_exhausted: bool = True
    element_max_focus: int = Field(default=3, ge=1)
    question_similarity_threshold: Unit = 0.85
    question_history: int = Field(default=QUESTION_HISTORY, ge=1)
    fruitless_probe: bool = Field(
        default=False,
        description="the memory of asking: a strategy already asked on a node is not asked "
        "there again unless the node came up anew; after fruitless_probe_limit questions that "
        "brought nothing new (or a don't-know), or one 'move on' / 'already said', the node "
        "is exhausted. A method choice: a repertory grid asks the same rating question on a "
        "construct again for the elements an answer left out",
    )
    fruitless_probe_limit: int = Field(default=2, ge=1)
    open_questions_spent_together: bool = Field(
        default=False,
        description="an empty open question spends every node-less strategy, not only its own "
        "(after 'nothing else', no 'another angle' either). A method choice: laddering's open "
        "questions all ask 'what else matters'; a timeline method's (a switch, an anxiety, "
        "another incident) ask different things, and one coming back empty spends only itself",
    )
    ladder_elicited: bool = Field(
        default=False,
        description="right after a node-less question brought up something new, the next "
        "question asks about it: not a second node-less question, nor one about a node said "
        "before. A method choice of the methods that ladder what is offered; a journey's "
        "node-less question walks the next stage, and pinning it to the last pain point closes "
        "the walk before every stage is told",
    )
    follow_the_answer: bool = Field(
        default=False,
        description="right after a question on a node whose answer brought up something new, "
        "the next question follows what was just said: not the same node again in another "
        "technique, which reads as not listening ('doctor said the caffeine' asked twice in a "
        "row, a JTBD tester's round 119). Off in sessions recorded before it was a choice",
    )
    node_question_limit: int = Field(
        default=0,
        ge=0,
        description="questions asked on one node after which no node-bound question is asked "
        "on it again, whatever the technique, unless the respondent asks to go back to it or "
        "brings it up again by themselves (then one more, each time); 0 = no limit. A method "
        "choice: a job or a story asked about one phrase three times reads as not listening "
        "('You mentioned that it's "
        "saved you a fortune on bus fares' led three questions of round 178's JTBD interview)",
    )
    return_to_stalled_after: int = Field(
        default=0,
        ge=0,
        description="turns after which a node left after fruitless_probe_limit empty answers "
        "(not a 'move on', not a terminal don't-know) may be asked once more, with a technique "
        "not yet tried on it ('return later'); 0 = never. A method choice: how soon to come "
        "back depends on how long the method's threads run",
    )
    list_closed_by_respondent: bool = Field(
        default=False,
        description="once the respondent answered a breadth check by closing the list ('thats "
        "about it', 'nothing else', 'I told you the main ones'), no node-less question but the "
        "closing one is asked again: what was named is laddered, then the interview closes (a "
        "method choice: laddering's open questions all ask 'what else'; off replays sessions "
        "recorded before it)",
    )
    revised_inherits_links: bool = Field(
        default=False,
        description="a node that revises another (a correction, the focus said again in "
        "clearer words: 'I mean feeling connected to her') counts the revised one's links "
        "as its own, so the why the respondent answered of the old wording is not asked of "
        "the new (a preview switch; off replays sessions recorded before it)",
    )
    steer_to_what_holds_it: bool = Field(
        default=False,
        description="a request to go back to a node no question can be asked on goes to a "
        "node that holds it, one with a link into it: 'Can we go back to the slot booking?' "
        "named a step of a journey, and its stage is asked about (a method choice: a "
        "journey's questions are on its stages; off replays sessions recorded before it)",
    )
    steer_follows_what_was_said: bool = Field(
        default=False,
        description="a request to go back that goes on to say what the node leads to ('Going "
        "back to the cheap thing, it means more money left for the kids') is asked on the "
        "newest node of what it said: asked why of the node it went back to, the respondent is "
        "asked what they just answered. Followed only up the method's levels: a link to a "
        "node no higher is a cause, not what it leads to (a method choice, on in the methods "
        "that ladder, a job or a story; off replays sessions recorded before it)",
    )
    steer_leaves_focus: bool = Field(
        default=False,
        description="a request to go back to another node said before, made in answer to a "
        "question on a node ('Not really no. Can we go back to the printer firm?'), leaves the "
        "node asked about as a 'move on' does: it is not asked about again (round 209 asked "
        "'phone them through to the council' again after it: 'You asked me that already!'). "
        "Off replays sessions recorded before it",
    )
    min_focus_confidence: Unit = Field(
        default=0.55,
        description="the least confidence (the extraction's, the best one "
        "a node was read with) a node needs to be asked about",
    )

    def doubts(self, confidence: float | None) -> bool:
        """A node read with this confidence is too doubtful to ask about, or to read back."""
        return confidence is not None and confidence < self.min_focus_confidence


class CanonicalTuning(StrictModel):
    """Canonical slots of the dual graph (seed 001 "Dual-Graph Architecture", seed 002 Path 10).

    ``similarity_threshold`` is the seed's embedding cosine for merging a proposed slot into an
    existing one; without the embedding tier ``fuzzy_threshold`` applies to the synonym-aware
    word overlap of ``core.canonical.slots.label_similarity`` (calibrated on paraphrase pairs, see
    that module).
    """

    similarity_threshold: Unit = 0.60
    fuzzy_threshold: Unit = 0.75
    min_support_nodes: int = Field(default=2, ge=1, description="support to promote a slot")
    batch_size: int = Field(default=8, ge=1, le=8, description="labels per propose_slots call")


class CoverageTuning(StrictModel):
    """Coverage of a concept test's stimulus elements (seed 000 "Coverage", seed 004
    ``cover_element``)."""

    min_ratio_before_stop: Unit = Field(
        default=0.0,
        description="no saturation, little-to-say or early closing stop while the share of "
        "stimulus elements mentioned is below this, turns remain and an element is left to "
        "raise, unless the respondent is tiring; also the coverage a fatigue close needs "
        "(0 = off, and fatigue keeps the seed's 60 %). A method choice: only a concept test "
        "shows elements",
    )
    max_raises: int = Field(
        default=1,
        ge=1,
        description="how often an element strategy (focus_mode: element) may raise the same "
        "unmentioned element: once asked and still not taken up, it is not pressed again",
    )


class Tuning(StrictModel):
    """Numbers the pure core uses; defaults are the seeds' values. ``follows`` says whether
    a habit applies (always, but in a session recorded before it was one)."""

    dedup: DedupTuning = Field(default_factory=DedupTuning)
    saturation: SaturationTuning = Field(default_factory=SaturationTuning)
    exhaustion: ExhaustionTuning = Field(default_factory=ExhaustionTuning)
    vetoes: VetoTuning = Field(default_factory=VetoTuning)
    canonical: CanonicalTuning = Field(default_factory=CanonicalTuning)
    coverage: CoverageTuning = Field(default_factory=CoverageTuning)
    bin_low: Unit = 0.25
    bin_high: Unit = 0.75
    focus_tie_margin: float = Field(
        default=0.0,
        ge=0.0,
        description="node-bound candidates of the winning strategy within this score of the "
        "winner are tied; the tie goes to the node with the most depth left to gain, then "
        "the least probed, then the most recently productive (0 = off). A method choice: "
        "how close a call is depends on the method's weights",
    )
    focus_tie_just_said: bool = Field(
        default=False,
        description="in a tie, a node the last answer brought up wins first: the interviewer "
        "follows what was just said before going back to an older node. A method choice: "
        "laddering climbs what was just said; a story told in order (JTBD's timeline) went "
        "worse with it in the benchmarks (fewer ladders ended, more complaints)",
    )
    focus_tie_led_with: bool = Field(
        default=False,
        description="with focus_tie_just_said, in a tie between nodes the last answer brought "
        "up, what the respondent led with wins: a thing they like or dislike before a neutral "
        "mention, then the one said first",
    )
    focus_tie_said_last: bool = Field(
        default=False,
        description="a method choice of laddering: of two things the last answer brought up "
        "alike (a thing liked before one disliked, before a neutral mention), the one said "
        "last wins instead of the one said first: what the respondent came to, often the top "
        "of a climb said in one breath ('the cheap sack, so thirty pence a day'), whose why is "
        "not answered yet. A story (critical incident) goes on with what was told first: the "
        "second incident mentioned in passing waits until the first is reconstructed",
    )
    focus_tie_types: tuple[str, ...] = Field(
        default=(),
        description="in a tie, a node of these types wins over the rest, the first type "
        "first; after what was just said and led with, before depth left. A method choice: "
        "a story goes on with what went wrong (critical incident's incident) before the "
        "scene said first ('the airline ... they cancelled the flight at the gate')",
    )
    ran_without: frozenset[Habit] = Field(
        default=frozenset(),
        description="habits a session recorded before they were habits ran without (set only "
        "from a recorded snapshot, by the session file's migration)",
    )

    @model_validator(mode="before")
    @classmethod
    def _no_retired_switches(cls, data: Any, info: ValidationInfo) -> Any:
        return _without_retired(data, bool(info.context and info.context.get("recorded")))

    @field_serializer("ran_without")
    def _sorted(self, value: frozenset[Habit]) -> list[str]:
        return sorted(value)  # a set's order changes from one process to the next

    def follows(self, habit: Habit) -> bool:
        return habit not in self.ran_without


def tuning_before_habits(raw: Any) -> Tuning:
    """The tuning a session recorded before the habits existed ran with: ``raw`` (the
    ``tuning`` mapping of the methodology YAML it recorded) with today's defaults, without the
    habits that YAML did not turn on (``habits_off_in``)."""
    data = dict(raw) if isinstance(raw, dict) else {}
    data["ran_without"] = habits_off_in(raw)
    return Tuning.model_validate(data, context={"recorded": True})
