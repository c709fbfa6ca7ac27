"""The numbers and switches the pure core reads (``methodology.tuning``): de-duplication,
saturation and stopping, exhaustion, vetoes, canonical slots, focus tie-breaks. Defaults are
the seeds' values; a new rule is a switch that is off by default, so older methodology
snapshots in session files replay as they were decided."""

from __future__ import annotations

from pydantic import Field

from interview_cli.config.base import StrictModel, Unit


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
        "trend (a terse respondent whose whys get answers is not tiring); 0 = off",
    )
    breadth_check_before_stop: bool = Field(
        default=False,
        description="a saturation stop or an early closing waits until a breadth-check "
        "strategy was asked and its answer brought nothing new",
    )
    ask_the_last_turn: bool = Field(
        default=False,
        description="a closing question chosen with one turn left waits: that turn is asked, "
        "and the turn limit closes the interview with the same closing summary (not when the "
        "respondent is tiring)",
    )
    probe_attributes_before_stop: bool = Field(
        default=False,
        description="no saturation stop or early closing while a node of the lowest level was "
        "never asked about and turns remain, unless the respondent is fatigued",
    )
    closing_needs_a_reason_before: int = Field(
        default=0,
        ge=0,
        description="before this turn, a closing question that nothing spoke for (it scored 0 "
        "or less: every other move was vetoed) waits unless the respondent is tiring: an open "
        "question of another kind, set aside only because an open question came back empty, "
        "is asked instead (another angle after 'nothing else'); 0 = off",
    )
    little_to_say_window: int = Field(
        default=0,
        ge=0,
        description="a respondent with little to say: when, among the last this many answers, "
        "at most little_to_say_max_full went beyond a few words and at least "
        "little_to_say_min_empty were not answers (don't-know, already said, a few words that "
        "added nothing...), the interview "
        "closes (little_to_say) and no stop is deferred; 0 = off",
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
        "not shown where they stop",
    )
    little_to_say_breadth_spent: bool = Field(
        default=False,
        description="'nothing else' to a breadth check ('what else matters ...?') says the "
        "question is spent, not that the respondent has little to say: recorded as a short "
        "answer, never an empty one",
    )
    little_to_say_hesitation_empty: bool = Field(
        default=True,
        description="a hesitant don't-know ('not sure, let me think': knowledge_ceiling "
        "exploratory) counts as no answer; false = as a short answer: the respondent is "
        "thinking, and a change of technique often gets past it",
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
    """Tier-1 vetoes (seed 004)."""

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
        "is exhausted",
    )
    fruitless_probe_limit: int = Field(default=2, ge=1)
    open_question_memory: bool = Field(
        default=False,
        description="a node-less question (what else, revitalize...) that came back empty is "
        "not asked again until the interview learns something new, however long ago it was",
    )
    open_questions_spent_together: bool = Field(
        default=False,
        description="with open_question_memory: an empty open question spends every node-less "
        "strategy, not only its own (after 'nothing else', no 'another angle' either)",
    )
    return_to_stalled_after: int = Field(
        default=0,
        ge=0,
        description="turns after which a node left after fruitless_probe_limit empty answers "
        "(not a 'move on', not a terminal don't-know) may be asked once more, with a technique "
        "not yet tried on it ('return later'); 0 = never",
    )
    return_respects_ceiling: bool = Field(
        default=False,
        description="with return_to_stalled_after: a node whose last answer was a terminal "
        "don't-know ('nothing more to it') is not returned to",
    )
    return_signal: bool = Field(
        default=False,
        description="with return_to_stalled_after: technique.node.probe_history reads "
        "'returnable' instead of 'exhausted' on a node that may be returned to this turn, so "
        "the strategies' weights can prefer coming back to an unfinished ladder",
    )
    answered_why: bool = Field(
        default=False,
        description="a climbing strategy (climbs: true) is not asked on a node that already "
        "leads somewhere: its why was answered, and asking again is what respondents "
        "complain about",
    )
    ladder_elicited: bool = Field(
        default=False,
        description="right after a node-less question brought up something new, the next "
        "question asks about it: not a second node-less question, nor one about a node said "
        "before",
    )
    doubtful_focus: bool = Field(
        default=False,
        description="a node whose reading is doubtful (its confidence is below "
        "min_focus_confidence) is not the focus of a question: asking about what may have been "
        "misheard costs more rapport than leaving it until it is said again more clearly",
    )
    min_focus_confidence: Unit = Field(
        default=0.55,
        description="with doubtful_focus: the least confidence (the extraction's, the best one "
        "a node was read with) a node needs to be asked about",
    )


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
        "(0 = off, and fatigue keeps the seed's 60 %)",
    )
    max_raises: int = Field(
        default=1,
        ge=1,
        description="how often an element strategy (focus_mode: element) may raise the same "
        "unmentioned element: once asked and still not taken up, it is not pressed again",
    )


class Tuning(StrictModel):
    """Numbers the pure core uses; defaults are the seeds' values."""

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
        "the least probed, then the most recently productive (0 = off)",
    )
    focus_tie_just_said: bool = Field(
        default=False,
        description="in a tie, a node the last answer brought up wins first: the interviewer "
        "follows what was just said before going back to an older node",
    )
    focus_tie_led_with: bool = Field(
        default=False,
        description="in a tie between nodes the last answer brought up, what the respondent "
        "led with wins: a thing they like or dislike before a neutral mention, then the one "
        "said first",
    )
    focus_tie_said_last: bool = Field(
        default=False,
        description="with focus_tie_led_with: of two things the last answer brought up alike "
        "(a thing liked before one disliked, before a neutral mention), the one said last "
        "wins instead of the one said first: what the respondent came to, often the top of a "
        "climb said in one breath ('the cheap sack, so thirty pence a day'), whose why is "
        "not answered yet",
    )
