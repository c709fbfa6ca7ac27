"""Checks on library files that types alone cannot express (seed 001 "Validation").

pydantic already enforces shapes, enum values (``node_binding``, ``focus_mode``,
``selection``) and ranges (persona traits). What is left needs more than one field, or the
signal catalogue, or another file:

methodology
    node type names unique, at least one terminal type, edge names unique, permitted
    connections name defined node types; ``signals:`` pools and names exist in the catalogue;
    strategy names unique; ``focus_types`` name node types; an element strategy
    (``focus_mode: element``) binds no node and does not close; every ``signal_weights`` key
    resolves to a catalogue signal (with an optional qualifier, seed 001 "Compound Key
    Handling"); phase multipliers and
    bonuses and ``tuning.vetoes.knowledge_ceiling_strategies`` name defined strategies;
    phase multipliers are >= 0 (bonuses may be negative); saturation weights sum to 1;
    ``bin_low`` < ``bin_high``.
concept
    its methodology exists in the library; a ``language`` is a language code; stimulus
    element ids unique.
persona
    beliefs are keyed by a concept (a topic): typed rungs name node types of that concept's
    methodology (when the library has both), which is a ladder one; a key that is not a
    concept of the library but close to one is a typo (an error, "did you mean"); one that is
    not close is kept with a warning (beliefs about a study not written yet); no empty
    ladders.

Each check returns ``(loc, message)`` pairs; the caller adds the file name
(``loader.problem_line``). Warnings (``persona_warnings``) have the same shape but do not
make a file invalid. Nothing here reads files.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Collection, Iterable

from interview_cli.config.language import language_problem
from interview_cli.config.loader import Loc
from interview_cli.config.schemas import Concept, Methodology, Persona, Rung, StrategySpec
from interview_cli.config.shape_validation import shape_issues
from interview_cli.config.signal_catalogue import CATALOGUE, CATALOGUE_BY_NAME, resolve_weight_key

Issue = tuple[Loc, str]

SIGNAL_POOLS: frozenset[str] = frozenset(spec.pool for spec in CATALOGUE)
# How close (rapidfuzz ratio, 0-100) a persona's topic key must be to a concept id to count as
# a typo of it: "headphone_mec" scores 96 against "headphones_mec", while real other ids
# ("coffee_jtbd" against "headphones_mec") score far below.
TOPIC_TYPO_RATIO = 80.0


def _hint(word: str, choices: Iterable[str]) -> str:
    guess = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.75)
    return f" (did you mean '{guess[0]}'?)" if guess else ""


def _listing(names: Iterable[str]) -> str:
    names = list(names)
    return ", ".join(names) if names else "none"


def _duplicates(names: Iterable[str]) -> set[str]:
    return {name for name, count in Counter(names).items() if count > 1}


# --------------------------------------------------------------------------------------------
# Methodology
# --------------------------------------------------------------------------------------------


def weight_key_problem(key: str) -> str | None:
    """Why a strategy weight key names no catalogue signal, or None when it resolves."""
    if resolve_weight_key(key) is not None:
        return None
    base, _, qualifier = key.rpartition(".")
    spec = CATALOGUE_BY_NAME.get(base)
    if spec is not None:
        allowed = spec.qualifiers()
        if not allowed:
            return (
                f"signal '{base}' is a number ({spec.kind}) and takes no qualifier; "
                f"use '{base}' alone (its value multiplies the weight)"
            )
        return f"'{qualifier}' is not a qualifier of signal '{base}'; allowed: {', '.join(allowed)}"
    return f"unknown signal '{key}'{_hint(key, CATALOGUE_BY_NAME)}"


def _ontology_issues(m: Methodology) -> list[Issue]:
    issues: list[Issue] = []
    node_names = [n.name for n in m.ontology.nodes]
    for i, node in enumerate(m.ontology.nodes):
        if node.name in _duplicates(node_names) and node_names.index(node.name) != i:
            issues.append((("ontology", "nodes", i, "name"), f"duplicate node type '{node.name}'"))
    if m.shape == "ladder" and not m.ontology.terminal_types:
        issues.append(
            (
                ("ontology", "nodes"),
                "no node type is terminal; mark the most abstract level "
                "`terminal: true` so chains can complete",
            )
        )
    defined = set(node_names)
    edge_names = [e.name for e in m.ontology.edges]
    for i, edge in enumerate(m.ontology.edges):
        loc: Loc = ("ontology", "edges", i)
        if edge.name in _duplicates(edge_names) and edge_names.index(edge.name) != i:
            issues.append(((*loc, "name"), f"duplicate edge type '{edge.name}'"))
        for j, pair in enumerate(edge.permitted_connections):
            for k, node_type in enumerate(pair):
                if node_type not in defined:
                    issues.append(
                        (
                            (*loc, "permitted_connections", j, k),
                            f"edge '{edge.name}' permits undefined node type '{node_type}'"
                            f"{_hint(node_type, defined)}; defined: {_listing(node_names)}",
                        )
                    )
    return issues


def _signal_pool_issues(m: Methodology) -> list[Issue]:
    issues: list[Issue] = []
    for pool, names in m.signals.items():
        if pool not in SIGNAL_POOLS:
            issues.append(
                (
                    ("signals", pool),
                    f"unknown signal pool '{pool}'{_hint(pool, SIGNAL_POOLS)}; "
                    f"pools: {_listing(sorted(SIGNAL_POOLS))}",
                )
            )
            continue
        for i, name in enumerate(names):
            spec = CATALOGUE_BY_NAME.get(name)
            if spec is None:
                issues.append(
                    (
                        ("signals", pool, i),
                        f"unknown signal '{name}'{_hint(name, CATALOGUE_BY_NAME)}",
                    )
                )
            elif spec.pool != pool:
                issues.append(
                    (
                        ("signals", pool, i),
                        f"signal '{name}' belongs to pool '{spec.pool}', not '{pool}'",
                    )
                )
    return issues


def _strategy_issues(m: Methodology) -> list[Issue]:
    issues: list[Issue] = []
    names = [s.name for s in m.strategies]
    for i, strategy in enumerate(m.strategies):
        loc: Loc = ("strategies", i)
        if strategy.name in _duplicates(names) and names.index(strategy.name) != i:
            issues.append(((*loc, "name"), f"duplicate strategy name '{strategy.name}'"))
        if strategy.breadth_check and strategy.generates_closing_question:
            issues.append(
                (
                    (*loc, "breadth_check"),
                    f"strategy '{strategy.name}' closes the interview; a breadth check keeps it "
                    "going: mark an open 'what else?' strategy instead",
                )
            )
        if strategy.breadth_check and strategy.node_binding != "none":
            issues.append(
                (
                    (*loc, "breadth_check"),
                    f"strategy '{strategy.name}' is a breadth check, an open question about no "
                    "node: set node_binding: none",
                )
            )
        issues += _element_strategy_issues(strategy, loc)
        known = [n.name for n in m.ontology.nodes]
        for j, kind in enumerate(strategy.focus_types):
            if kind not in known:
                issues.append(
                    (
                        (*loc, "focus_types", j),
                        f"strategy '{strategy.name}' focuses node type '{kind}', which the "
                        f"ontology does not define{_hint(kind, known)}; defined: {_listing(known)}",
                    )
                )
        for key in strategy.signal_weights:
            problem = weight_key_problem(key)
            if problem is not None:
                issues.append(
                    ((*loc, "signal_weights", key), f"{problem} (strategy '{strategy.name}')")
                )
    return issues


def _element_strategy_issues(strategy: StrategySpec, loc: Loc) -> list[Issue]:
    """An element question (``focus_mode: element``) is about a stimulus element, never a
    node, and does not close the interview."""
    if strategy.focus_mode != "element":
        return []
    if strategy.node_binding != "none":
        return [
            (
                (*loc, "node_binding"),
                f"strategy '{strategy.name}' raises a stimulus element (focus_mode: element), "
                "which is no node: set node_binding: none",
            )
        ]
    if strategy.generates_closing_question:
        return [
            (
                (*loc, "generates_closing_question"),
                f"strategy '{strategy.name}' raises a stimulus element; the closing question "
                "is another strategy's",
            )
        ]
    return []


def _strategy_reference_issues(m: Methodology) -> list[Issue]:
    issues: list[Issue] = []
    defined = list(dict.fromkeys(s.name for s in m.strategies))

    def check(loc: Loc, name: str, what: str) -> None:
        if name not in defined:
            issues.append(
                (
                    loc,
                    f"{what} names undefined strategy '{name}'{_hint(name, defined)}; "
                    f"defined: {_listing(defined)}",
                )
            )

    for phase_name in ("early", "mid", "late"):
        phase = m.phases.get(phase_name)
        for field in ("signal_weights", "phase_bonuses"):
            for name in getattr(phase, field):
                check(("phases", phase_name, field, name), name, f"phase '{phase_name}'")
        for name, multiplier in phase.signal_weights.items():
            if multiplier < 0:
                # A negative multiplier flips the sign of a strategy's score, so the more its
                # signals fire the less it is chosen: never what a phase weight means.
                issues.append(
                    (
                        ("phases", phase_name, "signal_weights", name),
                        f"phase multiplier must be >= 0 (0 switches '{name}' off in phase "
                        f"'{phase_name}'), got {multiplier:g}; to push a strategy down, use "
                        "a negative phase_bonuses entry",
                    )
                )
    for i, name in enumerate(m.tuning.vetoes.knowledge_ceiling_strategies):
        check(
            ("tuning", "vetoes", "knowledge_ceiling_strategies", i),
            name,
            "the knowledge-ceiling veto",
        )
    return issues


def _tuning_issues(m: Methodology) -> list[Issue]:
    issues: list[Issue] = []
    sat = m.tuning.saturation
    total = sat.velocity_weight + sat.edge_density_weight + sat.turn_floor_weight
    if abs(total - 1.0) > 1e-6:
        # Saturation is compared with thresholds in [0, 1]; weights that do not sum to 1
        # would silently shift every saturation stop.
        issues.append(
            (
                ("tuning", "saturation"),
                "velocity_weight + edge_density_weight + "
                f"turn_floor_weight must sum to 1, got {total:g}",
            )
        )
    if m.tuning.bin_low >= m.tuning.bin_high:
        issues.append(
            (
                ("tuning", "bin_low"),
                f"bin_low ({m.tuning.bin_low:g}) must be below bin_high ({m.tuning.bin_high:g})",
            )
        )
    return issues


def methodology_issues(m: Methodology) -> list[Issue]:
    """Every cross-field problem of a methodology, in file order of the sections."""
    return [
        *_ontology_issues(m),
        *_signal_pool_issues(m),
        *_strategy_issues(m),
        *_strategy_reference_issues(m),
        *_tuning_issues(m),
        *shape_issues(m),
        *_recap_issues(m),
    ]


def _recap_issues(m: Methodology) -> list[Issue]:
    names = [n.name for n in m.ontology.nodes]
    return [
        (
            ("recap_first", i),
            f"'{name}' is not a node type of the ontology; types: {', '.join(names)}",
        )
        for i, name in enumerate(m.recap_first)
        if name not in names
    ]


# --------------------------------------------------------------------------------------------
# Concept
# --------------------------------------------------------------------------------------------


def concept_issues(
    c: Concept, methodology_names: Collection[str], available: Collection[str] | None = None
) -> list[Issue]:
    """``methodology_names``: the library's methodologies (and any validated alongside);
    ``available``: those of them that are valid, for the hint (default: all of them)."""
    issues: list[Issue] = []
    if c.methodology not in methodology_names:
        usable = methodology_names if available is None else available
        issues.append(
            (
                ("methodology",),
                f"'{c.methodology}' is not a methodology in the library"
                f"{_hint(c.methodology, usable)}; available: "
                f"{_listing(sorted(usable))}",
            )
        )
    if c.language is not None:
        problem = language_problem(c.language)
        if problem is not None:
            issues.append((("language",), f"{problem}; or remove it to follow the respondent"))
    ids = [e.id for e in c.elements]
    for i, element in enumerate(c.elements):
        if element.id in _duplicates(ids) and ids.index(element.id) != i:
            issues.append((("elements", i, "id"), f"duplicate element id '{element.id}'"))
    return issues


# --------------------------------------------------------------------------------------------
# Persona
# --------------------------------------------------------------------------------------------


def topic_typo(key: str, known: Collection[str]) -> str | None:
    """The known concept id ``key`` is a near miss of (rapidfuzz ratio), if any."""
    # Imported here: only a persona whose beliefs name an unknown concept needs it, and the
    # listing commands that validate the library should not pay for it.
    from rapidfuzz import fuzz

    scored = [(fuzz.ratio(key, name), name) for name in known if name != key]
    best = max(scored, default=None)
    return best[1] if best is not None and best[0] >= TOPIC_TYPO_RATIO else None


def persona_issues(
    p: Persona,
    methodology_of: Callable[[str], Methodology | None],
    known: Collection[str] = (),
) -> list[Issue]:
    """``methodology_of(concept_id)`` returns the methodology of the library's concept, or
    None when it has no such (valid) concept; ``known`` names every concept of the library.

    Beliefs about a concept the library does not have are not checked: a persona can carry
    ground truth for a study the user has not written yet. But a key that is a near miss of a
    known id (``headphone_mec``) is a typo whose beliefs would silently never be used, so it
    is an error.
    """
    issues: list[Issue] = []
    for section in ("beliefs", "journeys", "grids"):
        for topic in getattr(p, section):
            typo = None if topic in known else topic_typo(topic, known)
            if typo is not None:
                issues.append(
                    (
                        (section, topic),
                        f"no concept '{topic}' in the library; did you mean {typo}? (ground "
                        "truth under a misspelt topic is never used)",
                    )
                )
    for topic, ladders in p.beliefs.items():
        spec = methodology_of(topic)
        if spec is not None and spec.shape != "ladder":
            issues.append(
                (
                    ("beliefs", topic),
                    f"'{topic}' is a {spec.shape} study; its ground truth goes under "
                    f"{'journeys' if spec.shape == 'journey' else 'grids'}, not beliefs",
                )
            )
            continue
        issues += _ladder_issues(topic, ladders, spec)
    return issues


def _ladder_issues(topic: str, ladders: list[list[Rung]], spec: Methodology | None) -> list[Issue]:
    issues: list[Issue] = []
    types = [n.name for n in spec.ontology.nodes] if spec is not None else None
    for i, ladder in enumerate(ladders):
        loc: Loc = ("beliefs", topic, i)
        if not ladder:
            issues.append((loc, "empty ladder; give at least one rung"))
        for j, rung in enumerate(ladder):
            if types is not None and rung.type is not None and rung.type not in types:
                issues.append(
                    (
                        (*loc, j, "type"),
                        f"rung type '{rung.type}' is not a node type of "
                        f"'{spec.name if spec else topic}'{_hint(rung.type, types)}; "
                        f"types: {_listing(types)}",
                    )
                )
    return issues


def persona_warnings(p: Persona, known: Collection[str]) -> list[Issue]:
    """Topic keys that name no concept of the library and are not near misses of one: kept
    (they may be for a study not written yet), but worth a line in ``validate``."""
    warnings: list[Issue] = []
    for section in ("beliefs", "journeys", "grids"):
        for topic in getattr(p, section):
            if topic in known or topic_typo(topic, known) is not None:
                continue
            warnings.append(
                (
                    (section, topic),
                    f"no concept '{topic}' in the library (known: {_listing(sorted(known))}); "
                    f"its {section} are kept but not checked",
                )
            )
    return warnings
