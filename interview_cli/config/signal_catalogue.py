"""The signal catalogue: every signal the core can detect, with its pool, type and dependencies.

Names follow seed 001 "Signal Namespacing" exactly. Detection walks this catalogue in
dependency order; methodology validation uses it to reject weights that name unknown signals.
Adding a signal = one detector + one entry here.

| pool       | scope  | namespace          |
|------------|--------|--------------------|
| graph      | global | ``graph.*``        |
| graph      | node   | ``graph.node.*``   |
| llm        | global | ``llm.*``          |
| temporal   | global | ``temporal.*``     |
| meta       | global | ``meta.*``         |
| meta       | node   | ``meta.node.*``    |
| technique  | node   | ``technique.node.*`` |
| coverage   | global | ``coverage.*`` (concepts with stimulus elements, seed 000) |
| coverage   | node   | ``coverage.node.*`` (the same, per node mapped to an element) |
| journey    | both   | ``journey.*``, ``journey.node.*`` (``shape: journey`` methodologies) |
| grid       | both   | ``grid.*``, ``grid.node.*`` (``shape: grid`` methodologies) |

Weight keys in a methodology may add a qualifier to a signal name (seed 001 "Compound Key
Handling"): ``.low``/``.mid``/``.high`` for floats, ``.true``/``.false`` for booleans, or one of
a categorical signal's values. A plain key multiplies the weight by the value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from interview_cli.config.study import REACTIONS

SignalKind = Literal["bool", "float", "int", "categorical"]
Scope = Literal["global", "node"]

NODE_SIGNAL_PREFIXES: tuple[str, ...] = (
    "graph.node.",
    "technique.node.",
    "meta.node.",
    "coverage.node.",
    "journey.node.",
    "grid.node.",
)
FLOAT_QUALIFIERS: tuple[str, ...] = ("low", "mid", "high")
BOOL_QUALIFIERS: tuple[str, ...] = ("true", "false")

RESPONSE_DEPTHS: tuple[str, ...] = ("surface", "shallow", "moderate", "deep")
STREAK_LEVELS: tuple[str, ...] = ("none", "low", "medium", "high")


@dataclass(frozen=True)
class SignalSpec:
    name: str
    pool: str
    kind: SignalKind
    description: str
    values: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    scope: Scope = field(default="global")

    def __post_init__(self) -> None:
        if self.scope == "global" and self.name.startswith(NODE_SIGNAL_PREFIXES):
            object.__setattr__(self, "scope", "node")

    def qualifiers(self) -> tuple[str, ...]:
        if self.kind == "float":
            return FLOAT_QUALIFIERS
        if self.kind == "bool":
            return BOOL_QUALIFIERS
        if self.kind == "categorical":
            return self.values
        return ()


def _s(
    name: str,
    pool: str,
    kind: SignalKind,
    description: str,
    values: tuple[str, ...] = (),
    depends_on: tuple[str, ...] = (),
) -> SignalSpec:
    return SignalSpec(name, pool, kind, description, values, depends_on)


CATALOGUE: tuple[SignalSpec, ...] = (
    # ---- graph (global) ----------------------------------------------------------------
    _s("graph.node_count", "graph", "int", "Number of surface nodes in the graph."),
    _s("graph.edge_count", "graph", "int", "Number of surface edges in the graph."),
    _s("graph.orphan_count", "graph", "int", "Nodes with no edges."),
    _s("graph.max_depth", "graph", "int", "Length (in edges) of the longest reasoning chain."),
    _s(
        "graph.depth_ratio",
        "graph",
        "float",
        "max_depth relative to the ontology's level span: 0 = flat, 1 = a chain spans all levels.",
    ),
    _s("graph.avg_depth", "graph", "float", "Average chain depth reaching each node."),
    _s(
        "graph.chain_completion.ratio",
        "graph",
        "float",
        "Share of level-1 nodes from which a terminal node is reachable.",
    ),
    _s(
        "graph.chain_completion.has_complete",
        "graph",
        "bool",
        "Whether any chain runs from a level-1 node to a terminal node.",
    ),
    _s(
        "graph.edge_density",
        "graph",
        "float",
        "Edges per node, normalised so that 2.0 edges per node = 1.0.",
    ),
    _s(
        "graph.new_info_rate",
        "graph",
        "float",
        "Share of the recent turns that added at least one node or edge.",
    ),
    _s(
        "graph.canonical_concept_count",
        "graph",
        "int",
        "Active canonical slots (dual graph; 0 when canonical slots are off).",
    ),
    _s(
        "graph.canonical_edge_density",
        "graph",
        "float",
        "Canonical edges per active slot, normalised like graph.edge_density.",
    ),
    _s(
        "graph.canonical_exhaustion_score",
        "graph",
        "float",
        "Mean exhaustion score of the active canonical slots.",
    ),
    # ---- graph (node) --------------------------------------------------------------------
    _s(
        "graph.node.exhausted",
        "graph",
        "bool",
        "Node is exhausted: no yield for 3+ turns, focused 2+ turns running, mostly shallow "
        "answers.",
    ),
    _s(
        "graph.node.exhaustion_score",
        "graph",
        "float",
        "0 (fresh) to 1 (exhausted): 0.4 yield stagnation + 0.3 focus streak + 0.3 shallow ratio.",
    ),
    _s("graph.node.yield_stagnation", "graph", "bool", "3+ turns since the node last yielded."),
    _s(
        "graph.node.focus_streak",
        "graph",
        "categorical",
        "Consecutive turns focused on this node: none (0), low (1), medium (2-3), high (4+).",
        STREAK_LEVELS,
    ),
    _s("graph.node.is_current_focus", "graph", "bool", "The node the last question focused on."),
    _s(
        "graph.node.recency_score",
        "graph",
        "float",
        "1.0 = focused or created this turn, falling to 0.0 at 20+ turns ago.",
    ),
    _s("graph.node.is_orphan", "graph", "bool", "The node has no edges."),
    _s("graph.node.edge_count", "graph", "int", "Edges in and out of the node."),
    _s("graph.node.has_outgoing", "graph", "bool", "The node has at least one outgoing edge."),
    _s("graph.node.is_terminal", "graph", "bool", "The node's type is terminal in the ontology."),
    _s(
        "graph.node.rival",
        "graph",
        "categorical",
        "Alternatives set side by side (a switch from one to the other): another node of its "
        "type said in the same answer, or joined to it by a relation that is no rung "
        "(competes_with, contrasts_with). none; fresh (no question has asked about any of "
        "them yet); asked (one of them has been asked about).",
        ("none", "fresh", "asked"),
    ),
    _s(
        "graph.node.stance",
        "graph",
        "categorical",
        "How the respondent spoke of the node: negative (disliked, avoided, went wrong), "
        "positive (liked, wanted) or neutral.",
        ("negative", "neutral", "positive"),
    ),
    _s(
        "graph.node.level_ratio",
        "graph",
        "float",
        "The node type's level relative to the ontology: 0 = most concrete, 1 = most abstract.",
    ),
    # ---- llm ---------------------------------------------------------------------------
    _s(
        "llm.response_depth",
        "llm",
        "categorical",
        "Elaboration of the last answer: rubric 1 surface, 2 shallow, 3 moderate, 4-5 deep.",
        RESPONSE_DEPTHS,
    ),
    _s("llm.specificity", "llm", "float", "Concreteness of the last answer, (score-1)/4."),
    _s("llm.certainty", "llm", "float", "Confidence of the last answer, (score-1)/4."),
    _s("llm.valence", "llm", "float", "Emotional tone of the last answer, 0 negative, 1 positive."),
    _s("llm.engagement", "llm", "float", "Willingness to engage in the last answer, (score-1)/4."),
    _s(
        "llm.intellectual_engagement",
        "llm",
        "float",
        "Causal reasoning and value expression in the last answer, (score-1)/4.",
    ),
    _s(
        "llm.hedging_language",
        "llm",
        "categorical",
        "Amount of hedging (maybe, I guess, sort of) in the last answer.",
        STREAK_LEVELS,
    ),
    _s(
        "llm.knowledge_ceiling",
        "llm",
        "categorical",
        "A don't-know in the last answer: none, exploratory (curious, open) or terminal "
        "(nothing more).",
        ("none", "exploratory", "terminal"),
    ),
    _s(
        "llm.answer_kind",
        "llm",
        "categorical",
        "The last reply: an answer, a don't-know, 'already said', 'move on', a remark "
        "about the interview, or a question the respondent declined (/pass).",
        ("answer", "dont_know", "already_said", "move_on", "about_interview", "declined"),
    ),
    _s(
        "llm.safety",
        "llm",
        "categorical",
        "The last reply read for safety: none, distress, abuse, off-topic talk, a request "
        "to stop, or unchecked (no reading could be had: the careful path) (the "
        "methodology's safety section says what the interview does about each).",
        ("none", "distress", "abuse", "off_topic", "stop", "unchecked"),
    ),
    _s(
        "llm.global_response_trend",
        "llm",
        "categorical",
        "Trend of answer quality across the interview (smoothed engagement and depth).",
        ("deepening", "stable", "shallowing", "fatigued"),
        ("llm.response_depth", "llm.engagement"),
    ),
    # ---- temporal ----------------------------------------------------------------------
    _s(
        "temporal.strategy_repetition_count",
        "temporal",
        "int",
        "How many of the last 5 turns used the most recent strategy.",
    ),
    _s(
        "temporal.turns_since_strategy_change",
        "temporal",
        "int",
        "Turns the current strategy has run without a change.",
    ),
    # ---- meta --------------------------------------------------------------------------
    _s(
        "meta.interview.phase",
        "meta",
        "categorical",
        "early / mid / late, from the turn number and proportional boundaries of max_turns.",
        ("early", "mid", "late"),
    ),
    _s("meta.interview.progress", "meta", "float", "turn_number / max_turns, capped at 1."),
    _s(
        "meta.interview.ladder_ended_since_breadth",
        "meta",
        "bool",
        "Since a breadth check last came back empty (or since the start), a ladder reached "
        "its top: the respondent named an end state (a node of a terminal type), said they "
        "could go no further on the focus (a terminal don't-know that brought nothing new) or "
        "left a node after its empty answers.",
    ),
    _s(
        "meta.interview.list_closed",
        "meta",
        "bool",
        "A breadth check was answered by closing the list: a terminal ceiling ('thats about "
        "it'), a don't-know or 'I already said'. The respondent has named all there is.",
    ),
    _s(
        "meta.conversation.saturation",
        "meta",
        "float",
        "Information-velocity saturation: 0.60 velocity decay + 0.25 edge density + 0.15 turn "
        "floor.",
        depends_on=("graph.edge_density",),
    ),
    _s(
        "meta.canonical.saturation",
        "meta",
        "float",
        "1 - new canonical slots / new surface nodes this turn (0 when canonical slots are off).",
    ),
    _s(
        "meta.node.opportunity",
        "meta",
        "categorical",
        "What to do with a node: exhausted (backtrack), probe_deeper (deep but no yield), fresh.",
        ("exhausted", "probe_deeper", "fresh"),
        ("graph.node.exhausted", "graph.node.focus_streak", "llm.response_depth"),
    ),
    _s(
        "meta.node.ladder_start",
        "meta",
        "categorical",
        "The node as the start of a ladder: none (not of the lowest level, or an end state), "
        "opened (asked about), waiting (never asked about while another ladder goes on) or "
        "due (never asked about, and a ladder has ended since it was said).",
        ("none", "opened", "waiting", "due"),
    ),
    # ---- technique ---------------------------------------------------------------------
    _s(
        "technique.node.strategy_repetition",
        "technique",
        "categorical",
        "The same strategy used on this node consecutively: none (0-1), low (2), medium (3), "
        "high (4+).",
        STREAK_LEVELS,
    ),
    _s(
        "technique.node.probe_history",
        "technique",
        "categorical",
        "What questions on this node brought: unprobed, productive (a new rung), fruitless "
        "(nothing new) or exhausted (twice fruitless, or left at the respondent's wish).",
        ("unprobed", "productive", "fruitless", "exhausted", "returnable"),
    ),
    _s(
        "technique.node.last_answer",
        "technique",
        "categorical",
        "What the last question on this node brought: none (never asked), new_rung, bare (a "
        "few words that added nothing: a verdict, 'just is'), nothing_new (an answer that "
        "added nothing though it said more: the same again, or a question back), dont_know "
        "(hesitant or final), about_interview (a remark on the question), closed (already "
        "said, move on, passed, skipped).",
        ("none", "new_rung", "bare", "nothing_new", "dont_know", "about_interview", "closed"),
    ),
    # ---- coverage (concepts with stimulus elements, seed 000) --------------------------
    _s("coverage.ratio", "coverage", "float", "Share of stimulus elements mentioned so far."),
    _s(
        "coverage.has_gaps",
        "coverage",
        "bool",
        "Any element unmentioned, without reaction, not understood, or unconnected.",
    ),
    _s("coverage.unmentioned_count", "coverage", "int", "Stimulus elements not yet mentioned."),
    # The other three gap types of seed 000, each weightable on its own.
    _s(
        "coverage.no_reaction_count",
        "coverage",
        "int",
        "Elements mentioned but without any reaction recorded yet.",
    ),
    _s(
        "coverage.no_comprehension_count",
        "coverage",
        "int",
        "Elements whose latest reaction is confusion (not understood).",
    ),
    _s(
        "coverage.unconnected_count",
        "coverage",
        "int",
        "Elements mentioned but none of whose nodes has an edge yet.",
    ),
    # The concept's guide (``guide.must_cover``): absent when the concept has no guide.
    _s(
        "coverage.guide_ratio",
        "coverage",
        "float",
        "Share of the guide's must-cover topics the respondent's words have covered so far.",
    ),
    _s(
        "coverage.guide_remaining",
        "coverage",
        "int",
        "The guide's must-cover topics not covered yet.",
    ),
    _s(
        "coverage.raise_pressure",
        "coverage",
        "float",
        "How pressing it is to raise the stimulus elements the respondent has not mentioned: "
        "those an element question may still raise over the turns left (1 = one every turn "
        "from now on, or more; 0 = none left).",
    ),
    _s(
        "coverage.node.reaction",
        "coverage",
        "categorical",
        "How the respondent received the stimulus element the node is about (its latest "
        "reaction): what appeals is worth laddering.",
        REACTIONS,
    ),
    _s(
        "coverage.node.has_gap",
        "coverage",
        "bool",
        "The node is mapped to a stimulus element that still has a gap (no reaction, not "
        "understood, or unconnected): worth a probe.",
    ),
    # ---- journey (shape: journey; absent for other shapes) -----------------------------
    _s(
        "journey.stage_coverage",
        "journey",
        "float",
        "Share of the journey's stages told so far (the concept's stages, in order; with no "
        "stages in the concept, 1.0 once any stage was told).",
    ),
    _s(
        "journey.stages_pending",
        "journey",
        "bool",
        "Stages of the concept not told yet (always true when the stages are elicited).",
    ),
    _s(
        "journey.gap_count",
        "journey",
        "int",
        "Stages told without a touchpoint or action or without an emotion, plus pain points "
        "not followed up.",
    ),
    _s(
        "journey.node.missing_emotion",
        "journey",
        "bool",
        "A stage whose feelings were never told (nothing it or its steps evoked).",
    ),
    _s(
        "journey.node.missing_steps",
        "journey",
        "bool",
        "A stage with no touchpoint and no action told.",
    ),
    _s(
        "journey.node.unexplored_pain",
        "journey",
        "bool",
        "A pain point nobody asked about yet (nothing linked from it: no cause, no fix).",
    ),
    _s(
        "journey.node.stage_position",
        "journey",
        "float",
        "Where the node's stage sits in the journey: 0 = first stage, 1 = last.",
    ),
    # ---- grid (shape: grid; absent for other shapes) -----------------------------------
    _s("grid.construct_count", "grid", "int", "Bipolar constructs elicited so far."),
    _s(
        "grid.rating_completion",
        "grid",
        "float",
        "Share of element x construct cells rated (1.0 before the first construct).",
    ),
    _s(
        "grid.ratings_pending",
        "grid",
        "bool",
        "Some construct still lacks a rating of some element.",
    ),
    _s(
        "grid.node.missing_ratings",
        "grid",
        "bool",
        "A construct not yet rated on every element.",
    ),
    _s(
        "grid.node.laddered",
        "grid",
        "bool",
        "A construct already laddered up (linked to why it matters).",
    ),
)

CATALOGUE_BY_NAME: dict[str, SignalSpec] = {spec.name: spec for spec in CATALOGUE}


def is_node_signal(name: str) -> bool:
    return name.startswith(NODE_SIGNAL_PREFIXES)


def resolve_weight_key(key: str) -> tuple[SignalSpec, str | None] | None:
    """Split a weight key into (signal, qualifier); None when the key names no known signal.

    ``llm.response_depth.deep`` -> (llm.response_depth, "deep");
    ``graph.max_depth`` -> (graph.max_depth, None).
    """
    if key in CATALOGUE_BY_NAME:
        return CATALOGUE_BY_NAME[key], None
    base, _, qualifier = key.rpartition(".")
    spec = CATALOGUE_BY_NAME.get(base)
    if spec is not None and qualifier in spec.qualifiers():
        return spec, qualifier
    return None
