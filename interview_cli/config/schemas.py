"""Pydantic schemas of the user-editable library: methodologies, concepts and personas.

Shapes follow seed 001 "YAML Configuration Structure" and "Concept-Driven Coverage", and the
foundation issue for personas. Every model forbids unknown keys so a typo is an error, not a
silently ignored setting. Checks that need more than one field (signals that exist, strategies
that phases name, node types that edges permit) live in ``config.validation``.

This module is pure: no I/O. The core imports it.
"""

from __future__ import annotations

import difflib
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from interview_cli.config.base import Identifier, LibraryDocument, StrictModel, Unit
from interview_cli.config.families import FAMILY_NAMES, StrategyFamily, legacy_family
from interview_cli.config.shapes import ConstructTruth, GridSpec, JourneySpec, Shape, StageTruth
from interview_cli.config.study import Guide, SafetySpec, Stimulus
from interview_cli.config.tuning import Tuning

# --------------------------------------------------------------------------------------------
# Methodology
# --------------------------------------------------------------------------------------------


# Links that are reasons: a rung above is why the one below matters (``gives_reasons``).
REASON_RELATIONS = frozenset({"leads_to", "matters_because"})


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
    max_label_words: int = Field(
        default=10,
        ge=1,
        description="a label longer than this is refused at extraction: a sentence, not a name "
        "(above every naming convention's own length, which the prompt asks for)",
    )

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
    def levels(self) -> dict[str, int]:
        """Each node type's level (node type -> level)."""
        return {n.name: n.level for n in self.nodes}

    @property
    def chain_relations(self) -> frozenset[str]:
        """Edge types that are rungs of a chain (``chain: true``, the default)."""
        return frozenset(e.name for e in self.edges if e.chain)

    @property
    def gives_reasons(self) -> bool:
        """A ladder of reasons: each rung is why the one below it matters (means-end
        laddering's ``leads_to``, a grid's ``matters_because``). A story's links (an incident
        that "prompted" an action) are no reasons."""
        return bool(self.chain_relations & REASON_RELATIONS)

    @property
    def terminal_types(self) -> list[str]:
        return [n.name for n in self.nodes if n.terminal]

    @property
    def types_by_level(self) -> list[str]:
        """Node type names ordered concrete → abstract (ties keep file order)."""
        return [n.name for n in sorted(self.nodes, key=lambda n: n.level)]


# Validation context of a library document read back from a session file (its recorded YAML
# snapshot): ``Methodology.model_validate(data, context=RECORDED)``. A snapshot recorded before
# strategies declared their ``family`` gets the family the tool read from the strategy's name
# then, so the replay behaves as the interview did; a library file must declare it.
RECORDED: dict[str, bool] = {"recorded": True}
_FAMILY_HELP = "docs/how-to/add-a-strategy.md says what each asks"


class StrategySpec(StrictModel):
    name: Identifier
    description: str = ""
    family: StrategyFamily = Field(
        description="what kind of question the strategy asks (config.families): how the "
        "offline interviewer words it, how the offline reader reads its answer, how a "
        "simulated respondent answers it and what counts as a repeat"
    )
    signal_weights: dict[str, float] = Field(default_factory=dict)
    node_binding: Literal["required", "none"] = "required"
    focus_mode: Literal["recent_node", "summary", "topic", "element"] = Field(
        default="recent_node",
        description="what the question is about: the focus node, a summary, the topic, or "
        "(element) a stimulus element the respondent has not mentioned, raised in the "
        "stimulus's own words (seed 004 cover_element; node_binding none)",
    )
    generates_closing_question: bool = False
    climbs: bool = Field(
        default=False,
        description="asks what the focus leads to (why it matters, what if it were missing, "
        "why someone might care); not asked on a node whose why the respondent has already "
        "answered",
    )
    breadth_check: bool = Field(
        default=False,
        description="a node-less 'what else matters to you about ...?' question, asked (and found "
        "empty) before any saturation stop or early closing",
    )
    focus_types: list[Identifier] = Field(
        default_factory=list,
        description="the node types this strategy's question is about: a node-bound strategy "
        "focuses only a node of one of them (never none), a node-less one is chosen only once "
        "the graph holds one; empty = any (a grid's rating needs a construct)",
    )

    @model_validator(mode="before")
    @classmethod
    def _family_declared(cls, data: Any, info: ValidationInfo) -> Any:
        if not isinstance(data, dict) or "family" in data:
            return data
        name, description = data.get("name"), data.get("description", "")
        if info.context and info.context.get("recorded"):
            text = description if isinstance(description, str) else ""
            return {**data, "family": legacy_family(str(name), text)}
        raise PydanticCustomError(
            "family_missing",
            "strategy {name} declares no family: add `family:` with the kind of question it "
            "asks, one of {families} ({help})",
            {"name": repr(name), "families": ", ".join(FAMILY_NAMES), "help": _FAMILY_HELP},
        )

    @field_validator("family", mode="before")
    @classmethod
    def _known_family(cls, value: Any, info: ValidationInfo) -> Any:
        if value in FAMILY_NAMES:
            return value
        guess = difflib.get_close_matches(str(value), FAMILY_NAMES, n=1)
        hint = f" (did you mean '{guess[0]}'?)" if guess else ""
        raise PydanticCustomError(
            "family_unknown",
            "strategy {name}: {value} is no family{hint}; one of {families} ({help})",
            {
                "name": repr(info.data.get("name")),
                "value": repr(value),
                "hint": hint,
                "families": ", ".join(FAMILY_NAMES),
                "help": _FAMILY_HELP,
            },
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


class Methodology(LibraryDocument):
    method: MethodInfo
    shape: Shape = Field(
        default="ladder", description="ladder (chains), journey (ordered stages) or grid"
    )
    journey: JourneySpec | None = None
    grid: GridSpec | None = None
    summary: Literal["chains", "points"] = Field(
        default="chains",
        description="how the closing summary reads the graph back: chains (a → b → c), or "
        "points, a line each (a story, whose links are steps, not reasons)",
    )
    recap_first: list[Identifier] = Field(
        default_factory=list,
        description="node types the closing check-back reads back first, the ones that say "
        "what matters (a job's pains and outcomes, not its context); empty: the most said, "
        "then the most concrete, as a ladder's attributes are",
    )
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


class Concept(LibraryDocument):
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
    stimulus: Stimulus | None = Field(
        default=None,
        description="what a concept test shows the respondent before the opening question; "
        "without it a concept with elements on a ladder methodology shows its description",
    )
    guide: Guide | None = None
    consent: str | None = Field(
        default=None, description="shown before the first question; a 'no' ends the session"
    )

    def shown_stimulus(self, shape: str) -> Stimulus | None:
        """What the respondent is shown before the opening question: the ``stimulus``, else,
        for a concept test (stimulus elements on a ladder methodology of ``shape``), the
        description. A journey's stages and a grid's elements are no stimulus."""
        if self.stimulus is not None:
            return self.stimulus
        if self.elements and shape == "ladder" and self.description.strip():
            return Stimulus(text=self.description.strip())
        return None

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
    """One rung of a belief ladder: a meaning, and the ways the person says it.

    ``code`` is the analyst's name for the meaning (the ground truth the evaluation looks
    for); ``says`` are full phrases the person would say mid-sentence, in their own words
    (they may share no word with the code); ``misspoken`` is what they might say wrongly
    first and correct later. A rung written as a plain string is its code, said as is.
    """

    code: str = Field(min_length=1)
    type: str | None = None
    says: list[str] = Field(default_factory=list)
    misspoken: str | None = Field(default=None, min_length=1)

    @field_validator("says")
    @classmethod
    def _no_empty_saying(cls, value: list[str]) -> list[str]:
        if any(not s.strip() for s in value):
            raise ValueError("an empty saying; give each one as a phrase the person would say")
        return value

    @property
    def names(self) -> tuple[str, ...]:
        """The code and every saying: what a label naming this meaning may match."""
        return (self.code, *self.says)


class Voice(StrictModel):
    """How a person talks, whatever the topic: every list optional (see personas/README.md)."""

    hedges: list[str] = Field(default_factory=list, description="softeners: 'to be honest'")
    fillers: list[str] = Field(default_factory=list, description="'like', 'you know'")
    address: list[str] = Field(default_factory=list, description="how they address you: 'love'")
    backstory: list[str] = Field(default_factory=list, description="context they drop in")
    asides: list[str] = Field(default_factory=list, description="remarks beside the point")
    jokes: list[str] = Field(default_factory=list)
    ceiling: list[str] = Field(
        default_factory=list, description="how they say they can go no further"
    )
    typo_rate: float = Field(default=0.0, ge=0.0, le=0.2, description="share of words mistyped")


# The persona keys of the format before beliefs by topic: refused with how to convert them,
# since a ladder keyed by a method says nothing of the topic it is about.
_OLD_FORMAT_KEYS = ("ladders", "aliases")
_OLD_FORMAT = (
    "the old persona format (`ladders` keyed by a methodology, `aliases`) is no longer read: "
    "put each ladder under `beliefs: {<concept id>: [...]}`, the concept the study is about, "
    "with rungs as `{code: <old label>, says: [<its aliases>]}` (personas/README.md)"
)


Ladder = list[Rung]


class Persona(LibraryDocument):
    """A simulated respondent: who they are, how they talk, and what they believe per topic.

    The format (``beliefs``, ``voice``) is documented in personas/README.md.
    """

    id: Identifier
    name: str = Field(min_length=1)
    profile: str = Field(min_length=1)
    traits: PersonaTraits = Field(default_factory=PersonaTraits)
    speech_pattern: str = ""
    deflection_patterns: list[str] = Field(default_factory=list)
    voice: Voice | None = Field(
        default=None, description="how this person talks; None: a plain voice from the traits"
    )
    beliefs: dict[str, list[Ladder]] = Field(
        default_factory=dict,
        description="concept id -> ladders; each ladder is rungs concrete -> abstract",
    )
    off_topic: list[str] = Field(
        default_factory=list, description="tangents a verbose or fixated persona drifts into"
    )
    journeys: dict[str, list[StageTruth]] = Field(
        default_factory=dict, description="journey concept id -> stages, in order"
    )
    grids: dict[str, list[ConstructTruth]] = Field(
        default_factory=dict, description="grid concept id -> constructs with ratings"
    )

    @model_validator(mode="before")
    @classmethod
    def _refuse_old_format(cls, data: Any) -> Any:
        if isinstance(data, dict) and any(key in data for key in _OLD_FORMAT_KEYS):
            raise PydanticCustomError("old_persona_format", _OLD_FORMAT)
        return data

    @field_validator("beliefs", mode="before")
    @classmethod
    def _rungs_from_strings(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for topic, ladders in value.items():
            if isinstance(ladders, list):
                out[topic] = [
                    [{"code": r} if isinstance(r, str) else r for r in ladder]
                    if isinstance(ladder, list)
                    else ladder
                    for ladder in ladders
                ]
            else:
                out[topic] = ladders
        return out

    def typed_ladders(self, concept_id: str, methodology: Methodology) -> list[Ladder]:
        """The ladders about this topic with every rung typed by the methodology.

        Untyped rungs take the methodology's node types in level order: rung 1 = level 1.
        Rungs past the last level take the most abstract type.
        """
        order = methodology.ontology.types_by_level
        return [
            [
                rung.model_copy(update={"type": rung.type or order[min(i, len(order) - 1)]})
                for i, rung in enumerate(ladder)
            ]
            for ladder in self.beliefs.get(concept_id, [])
        ]
