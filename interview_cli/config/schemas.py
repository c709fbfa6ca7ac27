"""Pydantic schemas of the user-editable library: methodologies, concepts and personas.

Shapes follow seed 001 "YAML Configuration Structure" and "Concept-Driven Coverage", and the
foundation issue for personas. Every model forbids unknown keys so a typo is an error, not a
silently ignored setting. Checks that need more than one field (signals that exist, strategies
that phases name, node types that edges permit) live in ``config.validation``.

This module is pure: no I/O. The core imports it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from interview_cli.config.shapes import ConstructTruth, GridSpec, JourneySpec, Shape, StageTruth
from interview_cli.config.study import Guide, SafetySpec

Identifier = Annotated[str, Field(min_length=1, pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$")]
Unit = Annotated[float, Field(ge=0.0, le=1.0)]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------------------------
# Methodology
# --------------------------------------------------------------------------------------------


class MethodInfo(StrictModel):
    name: Identifier
    version: str = "1.0"
    goal: str
    opening_bias: str = ""
    description: str = ""

    @field_validator("version", mode="before")
    @classmethod
    def _version_as_text(cls, value: Any) -> Any:
        # `version: 3.0` in YAML is a float; the version is a label, keep it as text.
        return str(value) if isinstance(value, int | float) else value


class NodeTypeSpec(StrictModel):
    name: Identifier
    level: int = Field(ge=1, description="1 = most concrete; higher = more abstract")
    terminal: bool = False
    description: str = ""
    examples: list[str] = Field(default_factory=list)


class EdgeTypeSpec(StrictModel):
    name: Identifier
    description: str = ""
    permitted_connections: list[tuple[str, str]] = Field(default_factory=list)
    chain: bool = Field(
        default=True,
        description="the relation is a rung of a reasoning chain (counts for depth and chain "
        "completion); false for relations such as contrasts or revisions",
    )


class OntologySpec(StrictModel):
    nodes: list[NodeTypeSpec] = Field(min_length=1)
    edges: list[EdgeTypeSpec] = Field(min_length=1)
    extraction_guidelines: list[str] = Field(default_factory=list)
    relationship_examples: dict[str, Any] = Field(default_factory=dict)
    extractability_criteria: dict[str, Any] = Field(default_factory=dict)
    concept_naming_convention: str = ""

    def node_type(self, name: str) -> NodeTypeSpec | None:
        return next((n for n in self.nodes if n.name == name), None)

    def edge_type(self, name: str) -> EdgeTypeSpec | None:
        return next((e for e in self.edges if e.name == name), None)

    def is_edge_permitted(self, relation: str, source_type: str, target_type: str) -> bool:
        edge = self.edge_type(relation)
        return edge is not None and (source_type, target_type) in {
            tuple(pair) for pair in edge.permitted_connections
        }

    @property
    def max_level(self) -> int:
        return max(n.level for n in self.nodes)

    @property
    def chain_relations(self) -> frozenset[str]:
        """Edge types that are rungs of a chain (``chain: true``, the default)."""
        return frozenset(e.name for e in self.edges if e.chain)

    @property
    def terminal_types(self) -> list[str]:
        return [n.name for n in self.nodes if n.terminal]

    @property
    def types_by_level(self) -> list[str]:
        """Node type names ordered concrete → abstract (ties keep file order)."""
        return [n.name for n in sorted(self.nodes, key=lambda n: n.level)]


class StrategySpec(StrictModel):
    name: Identifier
    description: str = ""
    signal_weights: dict[str, float] = Field(default_factory=dict)
    node_binding: Literal["required", "none"] = "required"
    focus_mode: Literal["recent_node", "summary", "topic"] = "recent_node"
    generates_closing_question: bool = False
    climbs: bool = Field(
        default=False,
        description="asks what the focus leads to (why it matters, what if it were missing, "
        "why someone might care); with tuning.vetoes.answered_why, not asked on a node whose "
        "why the respondent has already answered",
    )
    breadth_check: bool = Field(
        default=False,
        description="a node-less 'what else matters to you about ...?' question; with "
        "tuning.saturation.breadth_check_before_stop, asked (and found empty) before any "
        "saturation stop or early closing",
    )
    focus_types: list[Identifier] = Field(
        default_factory=list,
        description="the node types this strategy's question is about: a node-bound strategy "
        "focuses only a node of one of them (never none), a node-less one is chosen only once "
        "the graph holds one; empty = any (a grid's rating needs a construct)",
    )


class PhaseSpec(StrictModel):
    description: str = ""
    signal_weights: dict[str, float] = Field(
        default_factory=dict, description="strategy name -> multiplier"
    )
    phase_bonuses: dict[str, float] = Field(
        default_factory=dict, description="strategy name -> additive bonus"
    )


class PhaseBoundaries(StrictModel):
    """How phase boundaries derive from max_turns (seed 001 "Interview Phase Signal").

    early: turn <= max(early_min_turns, round(max_turns * early_fraction))
    late:  turn >  max_turns - late_turns
    mid:   everything between.
    """

    early_fraction: Unit = 0.10
    early_min_turns: int = Field(default=2, ge=0)
    late_turns: int = Field(default=2, ge=0)


class PhasesSpec(StrictModel):
    early: PhaseSpec = Field(default_factory=PhaseSpec)
    mid: PhaseSpec = Field(default_factory=PhaseSpec)
    late: PhaseSpec = Field(default_factory=PhaseSpec)
    boundaries: PhaseBoundaries = Field(default_factory=PhaseBoundaries)

    def get(self, phase: str) -> PhaseSpec:
        return {"early": self.early, "mid": self.mid, "late": self.late}[phase]


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
    breadth_check_before_stop: bool = Field(
        default=False,
        description="a saturation stop or an early closing waits until a breadth-check "
        "strategy was asked and its answer brought nothing new",
    )
    probe_attributes_before_stop: bool = Field(
        default=False,
        description="no saturation stop or early closing while a node of the lowest level was "
        "never asked about and turns remain, unless the respondent is fatigued",
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


class CanonicalTuning(StrictModel):
    """Canonical slots of the dual graph (seed 001 "Dual-Graph Architecture", seed 002 Path 10).

    ``similarity_threshold`` is the seed's embedding cosine for merging a proposed slot into an
    existing one; without the embedding tier ``fuzzy_threshold`` applies to the synonym-aware
    word overlap of ``core.canonical.label_similarity`` (calibrated on paraphrase pairs, see
    that module).
    """

    similarity_threshold: Unit = 0.60
    fuzzy_threshold: Unit = 0.75
    min_support_nodes: int = Field(default=2, ge=1, description="support to promote a slot")
    batch_size: int = Field(default=8, ge=1, le=8, description="labels per propose_slots call")


class Tuning(StrictModel):
    """Numbers the pure core uses; defaults are the seeds' values."""

    dedup: DedupTuning = Field(default_factory=DedupTuning)
    saturation: SaturationTuning = Field(default_factory=SaturationTuning)
    exhaustion: ExhaustionTuning = Field(default_factory=ExhaustionTuning)
    vetoes: VetoTuning = Field(default_factory=VetoTuning)
    canonical: CanonicalTuning = Field(default_factory=CanonicalTuning)
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


class Methodology(StrictModel):
    method: MethodInfo
    shape: Shape = Field(
        default="ladder", description="ladder (chains), journey (ordered stages) or grid"
    )
    journey: JourneySpec | None = None
    grid: GridSpec | None = None
    ontology: OntologySpec
    signals: dict[str, list[str]] = Field(
        default_factory=dict, description="pool name -> signal names detected for this method"
    )
    strategies: list[StrategySpec] = Field(min_length=1)
    phases: PhasesSpec = Field(default_factory=PhasesSpec)
    selection: Literal["joint", "two_stage"] = "joint"
    tuning: Tuning = Field(default_factory=Tuning)
    safety: SafetySpec = Field(default_factory=SafetySpec)

    @property
    def name(self) -> str:
        return self.method.name

    def strategy(self, name: str) -> StrategySpec | None:
        return next((s for s in self.strategies if s.name == name), None)


# --------------------------------------------------------------------------------------------
# Concept
# --------------------------------------------------------------------------------------------


class ConceptElement(StrictModel):
    """A stimulus element of an evaluative concept test (seed 000 "Coverage")."""

    id: Identifier
    label: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)


class Concept(StrictModel):
    id: Identifier
    name: str = Field(min_length=1)
    methodology: Identifier
    objective: str = Field(min_length=1)
    description: str = ""
    language: str | None = Field(
        default=None, description="study language (e.g. 'en', 'de'); None = the respondent's"
    )
    elements: list[ConceptElement] = Field(
        default_factory=list,
        description="stimulus elements; a journey's stages in the order they happen; a grid's "
        "elements to compare",
    )
    guide: Guide | None = None
    consent: str | None = Field(
        default=None, description="shown before the first question; a 'no' ends the session"
    )

    @model_validator(mode="before")
    @classmethod
    def _objective_under_context(cls, data: Any) -> Any:
        # Seed 001: "The objective field can be at root level or nested under context".
        if isinstance(data, dict) and "context" in data and "objective" not in data:
            context = data.get("context")
            if isinstance(context, dict) and set(context) <= {"objective"}:
                data = {k: v for k, v in data.items() if k != "context"}
                data["objective"] = context.get("objective")
        return data


# --------------------------------------------------------------------------------------------
# Persona
# --------------------------------------------------------------------------------------------


class PersonaTraits(StrictModel):
    """How a simulated respondent behaves. Defaults describe an ordinary, cooperative person.

    - verbosity 0..1: answer length (0 = a few words, 1 = long and tangential)
    - openness 0..1: chance to reveal the next rung of a ladder when probed on it
    - knowledge 0..1: how much of each ladder the persona can articulate (share of rungs)
    - patience >= 1: turns before answers shorten and tire
    - skepticism 0..1: how often answers push back or doubt the question
    - repetition_tolerance 0..1: how calmly the same question asked again is taken (0 = each
      re-ask irritates and tires, 1 = a polite "as I said" and no harm done)
    """

    verbosity: Unit = 0.5
    openness: Unit = 0.7
    knowledge: Unit = 1.0
    patience: int = Field(default=15, ge=1, le=1000)
    skepticism: Unit = 0.1
    repetition_tolerance: Unit = 0.7


class Rung(StrictModel):
    label: str = Field(min_length=1)
    type: str | None = None


class Persona(StrictModel):
    id: Identifier
    name: str = Field(min_length=1)
    profile: str = Field(min_length=1)
    traits: PersonaTraits = Field(default_factory=PersonaTraits)
    speech_pattern: str = ""
    deflection_patterns: list[str] = Field(default_factory=list)
    ladders: dict[str, list[list[Rung]]] = Field(
        default_factory=dict,
        description="methodology name -> ladders; each ladder is rungs concrete -> abstract",
    )
    aliases: dict[str, list[str]] = Field(
        default_factory=dict, description="rung label -> other phrasings the persona uses"
    )
    off_topic: list[str] = Field(
        default_factory=list, description="tangents a verbose or fixated persona drifts into"
    )
    journeys: dict[str, list[StageTruth]] = Field(
        default_factory=dict, description="journey methodology name -> stages, in order"
    )
    grids: dict[str, list[ConstructTruth]] = Field(
        default_factory=dict, description="grid methodology name -> constructs with ratings"
    )

    @field_validator("ladders", mode="before")
    @classmethod
    def _rungs_from_strings(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for method, ladders in value.items():
            if isinstance(ladders, list):
                out[method] = [
                    [{"label": r} if isinstance(r, str) else r for r in ladder]
                    if isinstance(ladder, list)
                    else ladder
                    for ladder in ladders
                ]
            else:
                out[method] = ladders
        return out

    def typed_ladders(self, methodology: Methodology) -> list[list[Rung]]:
        """This methodology's ladders with every rung typed.

        Untyped rungs take the methodology's node types in level order: rung 1 = level 1.
        Rungs past the last level take the most abstract type.
        """
        order = methodology.ontology.types_by_level
        result: list[list[Rung]] = []
        for ladder in self.ladders.get(methodology.name, []):
            typed = []
            for i, rung in enumerate(ladder):
                kind = rung.type or order[min(i, len(order) - 1)]
                typed.append(Rung(label=rung.label, type=kind))
            result.append(typed)
        return result
