"""Graph state, saturation and information velocity: derived values, recomputed every turn.

Implements seed 001 "Graph State Metrics" (GraphState, DepthMetrics, SaturationMetrics) and
"Continuation and Termination Conditions" (the counters the stop rules read), and seed 002
Path 16 (information-velocity saturation: EWMA of new nodes per turn). State is derived, not
stored (seed 000 "State Management"): ``compute_graph_state`` reads the graph afresh; the
two running values (``SaturationMetrics``, ``VelocityState``) are updated by pure functions
from the previous value and this turn's facts, and saved in the session file.

All values are frozen pydantic models, so they dump to JSON for the session file as they are.
Constants come from ``Methodology.tuning.saturation``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from interview_cli.config.schemas import Methodology
from interview_cli.config.tuning import Habit, SaturationTuning
from interview_cli.core.graph.knowledge import KnowledgeGraph

ResponseDepth = Literal["surface", "shallow", "moderate", "deep"]
SHALLOW_RESPONSES: frozenset[str] = frozenset({"surface", "shallow"})


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------------------------
# Graph state
# --------------------------------------------------------------------------------------------


class GraphState(_Frozen):
    """A snapshot of the graph's shape after a turn."""

    node_count: int = 0
    edge_count: int = 0
    nodes_by_type: dict[str, int] = Field(default_factory=dict)
    edges_by_type: dict[str, int] = Field(default_factory=dict)
    orphan_count: int = 0
    max_depth: int = 0
    avg_depth: float = 0.0
    longest_chain_path: list[str] = Field(default_factory=list)
    depth_ratio: float = 0.0
    chain_completion_ratio: float = 0.0
    has_complete_chain: bool = False
    edge_density: float = 0.0
    turn_count: int = 0


def _chain_completion(graph: KnowledgeGraph, methodology: Methodology) -> tuple[float, bool]:
    """Share of level-1 nodes from which a terminal node is reachable, and whether any is.

    Terminal types are those the ontology flags ``terminal``; an ontology that flags none uses
    its most abstract level. Only chain relations are followed (a contrast leads nowhere). One
    reverse search from all terminal nodes: linear in the graph.
    """
    ontology = methodology.ontology
    terminal_types = set(ontology.terminal_types) or {
        n.name for n in ontology.nodes if n.level == ontology.max_level
    }
    min_level = min(n.level for n in ontology.nodes)
    base_types = {n.name for n in ontology.nodes if n.level == min_level}
    types = graph.node_types()
    reaching = {n for n, kind in types.items() if kind in terminal_types}
    frontier = list(reaching)
    while frontier:
        current = frontier.pop()
        for pred in graph.predecessors(current, ontology.chain_relations):
            if pred not in reaching:
                reaching.add(pred)
                frontier.append(pred)
    base = [n for n, kind in types.items() if kind in base_types]
    if not base:
        return 0.0, False
    complete = sum(1 for n in base if n in reaching)
    return complete / len(base), complete > 0


def compute_graph_state(
    graph: KnowledgeGraph, methodology: Methodology, turn_count: int
) -> GraphState:
    """Counts, depth and chain metrics of ``graph``. Linear in nodes + edges, cycles included."""
    ontology = methodology.ontology
    nodes_by_type = {spec.name: 0 for spec in ontology.nodes}
    for kind in graph.node_types().values():
        nodes_by_type[kind] = nodes_by_type.get(kind, 0) + 1
    edges_by_type = {spec.name: 0 for spec in ontology.edges}
    for relation, count in graph.relation_counts().items():
        edges_by_type[relation] = edges_by_type.get(relation, 0) + count
    chain = ontology.chain_relations
    depths = graph.node_depths(chain)
    max_depth = max(depths.values(), default=0)
    span = ontology.max_level - 1
    node_count, edge_count = graph.node_count, graph.edge_count
    ratio, complete = _chain_completion(graph, methodology)
    norm = methodology.tuning.saturation.edge_density_norm
    return GraphState(
        node_count=node_count,
        edge_count=edge_count,
        nodes_by_type=nodes_by_type,
        edges_by_type=edges_by_type,
        orphan_count=sum(1 for n in graph.node_ids() if graph.is_orphan(n)),
        max_depth=max_depth,
        avg_depth=sum(depths.values()) / len(depths) if depths else 0.0,
        longest_chain_path=graph.longest_chain(chain),
        # A single-level ontology has no chain to climb: any edge is "all the way".
        depth_ratio=min(max_depth / span, 1.0) if span > 0 else float(max_depth > 0),
        chain_completion_ratio=ratio,
        has_complete_chain=complete,
        edge_density=min(edge_count / node_count / norm, 1.0) if node_count else 0.0,
        turn_count=turn_count,
    )


# --------------------------------------------------------------------------------------------
# Saturation counters (seed 001 SaturationMetrics, Continuation)
# --------------------------------------------------------------------------------------------


class SaturationMetrics(_Frozen):
    """Running counters behind the saturation stops and ``graph.new_info_rate``."""

    consecutive_low_info: int = 0
    consecutive_shallow: int = 0
    consecutive_depth_plateau: int = 0
    prev_max_depth: int = 0
    new_info_rate: float = 0.0
    chao1_ratio: float = 0.0
    is_saturated: bool = False
    recent_yields: list[bool] = Field(
        default_factory=list, description="whether each recent turn added a node or edge"
    )
    recent_answers: list[str] = Field(
        default_factory=list,
        description="each recent answer as 'empty' (not an answer: don't-know, already said, "
        "move on..., or a few words that added nothing), 'short' (surface or shallow) or "
        "'full', for the last "
        "tuning.saturation.little_to_say_window answers (none kept when that is 0)",
    )
    list_closed: bool = Field(
        default=False,
        description="a breadth check was answered by closing the list: a terminal ceiling "
        "('thats about it'), a don't-know or 'I already said' (the respondent named all there is)",
    )
    empty_answers: int = Field(
        default=0,
        ge=0,
        description="answers so far that were 'empty' (see recent_answers), a complaint of "
        "being asked again aside: that says the question was spent, not the respondent",
    )
    no_answers_running: int = Field(
        default=0,
        ge=0,
        description="answers running, the last included, that had nothing in them: a "
        "don't-know that goes no further or a /pass, whatever the question (a breadth "
        "check's 'nothing else' too); not a hesitation, 'I already said' or a question back",
    )


def chao1_ratio(mention_counts: Iterable[int]) -> float:
    """Observed / Chao1-estimated number of concepts, in [0, 1] (1 = nothing left unseen).

    Chao1 = S_obs + f1^2 / (2 f2), with the bias-corrected S_obs + f1 (f1 - 1) / 2 when no
    concept was mentioned exactly twice; f1, f2 = concepts mentioned once, twice.
    """
    counts = [c for c in mention_counts if c > 0]
    if not counts:
        return 0.0
    observed = len(counts)
    f1 = sum(1 for c in counts if c == 1)
    f2 = sum(1 for c in counts if c == 2)
    estimate = observed + (f1 * f1 / (2 * f2) if f2 else f1 * (f1 - 1) / 2)
    return observed / estimate if estimate else 0.0


# The answers with nothing in them that ``no_answers_running`` counts: what the respondent
# cannot or will not say, not what the question did wrong ("I already said", "what do you mean").
NO_ANSWER_KINDS: frozenset[str] = frozenset({"dont_know", "declined"})


def _answer_class(
    response_depth: str, answer_kind: str | None, zero_yield: bool, hesitation_short: bool
) -> str:
    if hesitation_short and answer_kind == "dont_know":
        return "short"
    if answer_kind is not None and answer_kind != "answer":
        return "empty"
    if response_depth not in SHALLOW_RESPONSES:
        return "full"
    return "empty" if zero_yield else "short"


def update_saturation(
    prev: SaturationMetrics,
    *,
    nodes_added: int,
    edges_added: int,
    response_depth: str | None,
    max_depth: int,
    mention_counts: Iterable[int] | Mapping[str, int],
    tuning: SaturationTuning,
    answer_kind: str | None = None,
    knowledge_ceiling: str | None = None,
    breadth_answer: bool = False,
    ran_without: frozenset[Habit] = frozenset(),
    disowned: bool = False,
) -> SaturationMetrics:
    """Advance the counters by one turn.

    - zero-yield turn = no new node and no new edge (merges do not count);
    - shallow = the answer's depth is surface or shallow (unknown depth leaves the count as is);
    - depth plateau: +1 on a zero-yield turn whose max_depth did not grow; reset when the
      depth grows; left unchanged by a turn that added material without deepening (seed 001:
      "only during zero-yield turns", so breadth does not reset it).
    - recent answers (``little_to_say_window`` of them): each 'empty' when ``answer_kind`` says
      it was not an answer or it was a few words that added nothing, else 'short' or 'full'
      by its depth; a hesitant don't-know (``knowledge_ceiling`` exploratory) is 'short'
      (the respondent is thinking); ``empty_answers`` counts the 'empty' ones of the whole
      interview but "I already said that" (the question was spent, not the respondent); the
      reply to a breadth check (``breadth_answer``) is never 'empty': "nothing else" spends
      the question too, and so does an answer that ``disowned`` what was asked about
      ("what do you mean by 'grab it'?") where ``little_to_say_disowned_spent`` is on;
      ``no_answers_running`` counts the answers running that had nothing in them
      (``NO_ANSWER_KINDS``, not a hesitation, and nothing new read from them), breadth
      checks' included.
      ``ran_without``: the habits a recorded session did not follow;
    - saturated: graph_saturated_turns zero-yield turns or depth_plateau_turns plateau turns
      running. Minimum-turn gating belongs to continuation, not here.
    - list closed (for good): a reply to a breadth check (``breadth_answer``) said there is no
      more (``_closes_the_list``) and, with ``list_closed_needs_nothing_new``, added nothing.
    """
    zero_yield = nodes_added == 0 and edges_added == 0
    low_info = prev.consecutive_low_info + 1 if zero_yield else 0
    empty = prev.empty_answers
    running = prev.no_answers_running
    if response_depth is None:
        shallow = prev.consecutive_shallow
        answers = prev.recent_answers
    else:
        nothing = answer_kind in NO_ANSWER_KINDS and knowledge_ceiling != "exploratory"
        running = running + 1 if nothing and zero_yield else 0
        shallow = prev.consecutive_shallow + 1 if response_depth in SHALLOW_RESPONSES else 0
        hesitation = (
            Habit.HESITATION_IS_AN_ANSWER not in ran_without and knowledge_ceiling == "exploratory"
        )
        kind = _answer_class(response_depth, answer_kind, zero_yield, hesitation)
        spent = Habit.LITTLE_TO_SAY_BREADTH_SPENT not in ran_without
        if kind == "empty" and breadth_answer and spent:
            kind = "short"
        if kind == "empty" and disowned and tuning.little_to_say_disowned_spent:
            kind = "short"
        answers = [*prev.recent_answers, kind]
        empty += kind == "empty" and answer_kind != "already_said"
    window = tuning.little_to_say_window
    answers = answers[-window:] if window else []
    if max_depth > prev.prev_max_depth:
        plateau = 0
    elif zero_yield:
        plateau = prev.consecutive_depth_plateau + 1
    else:
        plateau = prev.consecutive_depth_plateau
    window = tuning.new_info_window
    recent = [*prev.recent_yields, not zero_yield][-window:]
    counts = mention_counts.values() if isinstance(mention_counts, Mapping) else mention_counts
    return SaturationMetrics(
        consecutive_low_info=low_info,
        consecutive_shallow=shallow,
        consecutive_depth_plateau=plateau,
        prev_max_depth=max_depth,
        new_info_rate=sum(recent) / len(recent),
        chao1_ratio=chao1_ratio(counts),
        is_saturated=low_info >= tuning.graph_saturated_turns
        or plateau >= tuning.depth_plateau_turns,
        recent_yields=recent,
        recent_answers=answers,
        empty_answers=empty,
        no_answers_running=running,
        list_closed=prev.list_closed
        or (
            breadth_answer
            and (zero_yield or not tuning.list_closed_needs_nothing_new)
            and _closes_the_list(answer_kind, knowledge_ceiling)
        ),
    )


def _closes_the_list(answer_kind: str | None, knowledge_ceiling: str | None) -> bool:
    """A reply to a breadth check that says there is no more: "thats about it", "no idea, I
    told you the main ones", "nothing else, you asked me that already"."""
    if knowledge_ceiling == "exploratory":
        return False  # "not sure, let me think": the respondent is thinking, not done
    return knowledge_ceiling == "terminal" or answer_kind in ("dont_know", "already_said")


# --------------------------------------------------------------------------------------------
# Information velocity (seed 002 Path 16)
# --------------------------------------------------------------------------------------------


class VelocityState(_Frozen):
    """EWMA of new (surface / canonical) nodes per turn, its peak, and last turn's counts."""

    surface_velocity_ewma: float = 0.0
    surface_velocity_peak: float = 0.0
    prev_surface_node_count: int = 0
    canonical_velocity_ewma: float = 0.0
    canonical_velocity_peak: float = 0.0
    prev_canonical_node_count: int = 0


def _ewma(previous: float, delta: int, alpha: float) -> float:
    return alpha * delta + (1 - alpha) * previous


def update_velocity(
    prev: VelocityState, *, surface_node_count: int, canonical_node_count: int, alpha: float
) -> VelocityState:
    """End-of-turn update: delta = max(count - prev_count, 0); ewma = a*delta + (1-a)*ewma."""
    surface_delta = max(surface_node_count - prev.prev_surface_node_count, 0)
    canonical_delta = max(canonical_node_count - prev.prev_canonical_node_count, 0)
    return VelocityState(
        surface_velocity_ewma=_ewma(prev.surface_velocity_ewma, surface_delta, alpha),
        surface_velocity_peak=max(prev.surface_velocity_peak, float(surface_delta)),
        prev_surface_node_count=surface_node_count,
        canonical_velocity_ewma=_ewma(prev.canonical_velocity_ewma, canonical_delta, alpha),
        canonical_velocity_peak=max(prev.canonical_velocity_peak, float(canonical_delta)),
        prev_canonical_node_count=canonical_node_count,
    )


def velocity_decay(ewma: float, peak: float) -> float:
    """1 - ewma / max(peak, 1): 0 while discovering at peak speed, 1 when discovery stalled.

    Before anything was discovered (peak 0) there is no velocity to decay from: 0, not the
    formula's 1, so that an empty first turn does not look 60% saturated.
    """
    if peak <= 0:
        return 0.0
    return min(max(1.0 - ewma / max(peak, 1.0), 0.0), 1.0)


def conversation_saturation(
    velocity: VelocityState, *, edge_density: float, turn_number: int, tuning: SaturationTuning
) -> float:
    """meta.conversation.saturation = 0.60 decay + 0.25 edge density + 0.15 turn floor.

    ``edge_density`` is the normalised density (``GraphState.edge_density``, already capped
    at 1); the turn floor is min(turn_number / 15, 1). Weights from tuning.saturation.
    """
    decay = velocity_decay(velocity.surface_velocity_ewma, velocity.surface_velocity_peak)
    turn_floor = min(turn_number / tuning.turn_floor_turns, 1.0)
    score = (
        tuning.velocity_weight * decay
        + tuning.edge_density_weight * min(max(edge_density, 0.0), 1.0)
        + tuning.turn_floor_weight * turn_floor
    )
    return min(max(score, 0.0), 1.0)
