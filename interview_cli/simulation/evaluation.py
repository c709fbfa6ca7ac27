"""Ground-truth evaluation of a simulated interview, and the summary of a batch.

A simulated respondent's beliefs about the study's topic (its concept) are the truth the
interview tried to uncover; :func:`evaluate_session` compares them with the session's
knowledge graph and transcript and returns plain JSON (stored as
``session.simulation["evaluation"]``). A graph node names a rung by meaning: it matches the
rung's code or one of the person's sayings of it (``matching``: content words, a slip of the
keys allowed), never what the person misspoke and corrected.

| field                  | meaning                                                            |
|------------------------|--------------------------------------------------------------------|
| ``ground_truth``       | True (False: the persona holds no beliefs about the topic, and    |
|                        | only the conduct figures below are given, ``--no-ground-truth``)   |
| ``rungs_total``        | rungs of the persona's ladders about this topic                    |
| ``rungs_elicited``     | rungs some graph node names (code or saying, ``matching``)         |
| ``rung_recall``        | rungs_elicited / rungs_total                                       |
| ``ladder_recall``      | mean over ladders of the share of its rungs elicited               |
| ``ladders_opened``     | ladders with at least one rung elicited                            |
| ``ladders_completed``  | ladders whose last rung was elicited                               |
| ``terminal_reached``   | the last rung of a *full* ladder (ending in a terminal node type)  |
|                        | was elicited; None when the persona has no full ladder             |
| ``terminal_reachable`` | the persona can articulate a full ladder to its end (``knowledge``)|
| ``graph_terminal_nodes``| graph nodes of a terminal type (whatever they match)              |
| ``linked_pairs`` / ``pairs_total`` | consecutive rungs both elicited and joined by an edge  |
|                        | (lower -> higher) / all consecutive pairs                          |
| ``unmatched_nodes``    | graph nodes that name no rung (noise, tangents, artefacts)         |
| ``turns``, ``termination_reason``, ``status`` | from the session                          |
| ``strategy_mix``       | strategy -> number of turns the core chose it                      |
| ``repeated_questions`` | questions at least ``question_similarity_threshold`` similar to an |
|                        | earlier question of the same interview (wording only)              |
| ``same_node_reasks``   | questions asking the same focus node with the same strategy as an  |
|                        | earlier one, no new rung said in any answer since (``reasks``)     |
| ``complaints``         | answers saying the question was asked before ("again", "like I     |
|                        | said", "already told you", "we covered that" ...)                  |
| ``ladders_unopened``   | ladders with no rung elicited when the interview stopped           |
| ``ended_early``        | the interview stopped before its turn limit                        |
| ``summary_concepts``   | distinct concepts of the closing summary "What I understood" (its  |
|                        | "a → b" chains and "also:" list); absent when it has none          |
| ``summary_true``       | of those, the ones that name a rung (code or saying, ``matching``) |
| ``summary_links`` / ``summary_links_sound`` | its "a → b" steps / the steps whose two ends  |
|                        | name rungs of one ladder, the upper higher than the lower: a       |
|                        | reason the person holds, read back the right way up                |
| ``check_back_links`` / ``check_back_links_sound`` | the same of the closing question's    |
|                        | reasons ('"X" matters to you because "Y"', "..., which in the end  |
|                        | matters because "Z""): what the respondent reads and answers       |
| ``cost_usd``, ``calls``, ``input_tokens``, ``output_tokens`` | the session's usage          |

A node is assigned to the rung it matches best (ties: earlier ladder, earlier rung), and to
every rung of the same code (two ladders that meet in one value); a rung may be named by
several nodes (two sayings the de-duplication did not merge).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from interview_cli.config.schemas import Methodology, Persona
from interview_cli.core.questions import question_similarity
from interview_cli.session.schema import SessionFile
from interview_cli.simulation.respondents.matching import PersonaBeliefs, RungRef
from interview_cli.simulation.respondents.simulator import known_rungs


def _graph_nodes(graph: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [n for n in graph.get("nodes", []) if isinstance(n, dict)]


def _edges(graph: Mapping[str, Any]) -> set[tuple[str, str]]:
    return {(str(link["source"]), str(link["target"])) for link in graph.get("links", [])}


def match_nodes(ladders: PersonaBeliefs, nodes: Iterable[Mapping[str, Any]]) -> dict[str, RungRef]:
    """Node id -> the rung it names best (nodes naming none are left out)."""
    refs = ladders.refs()
    matched: dict[str, RungRef] = {}
    for node in nodes:
        names = [str(node.get("label", "")), *[str(a) for a in node.get("aliases", [])]]
        best: tuple[RungRef, float] | None = None
        for name in names:
            found = ladders.locate(name, refs)
            if found is not None and (best is None or found[1] > best[1]):
                best = found
        if best is not None:
            matched[str(node["id"])] = best[0]
    return matched


def repeated_questions(questions: Sequence[str], threshold: float) -> list[dict[str, Any]]:
    """Each question at least ``threshold`` similar to an earlier one, with that one."""
    repeats = []
    for i, question in enumerate(questions):
        for j in range(i):
            score = question_similarity(question, questions[j])
            if score >= threshold:
                repeats.append(
                    {
                        "turn": i + 1,
                        "question": question,
                        "like_turn": j + 1,
                        "similarity": round(score, 3),
                    }
                )
                break
    return repeats


# A respondent saying it was asked that before. "again" counts as a remark of its own
# ("Because X, again.", "Again?", "that again", "asking me that again"), not inside what the
# respondent says ("he hasn't had crystals again", "he can keep up on walks again", "I'm not
# doing it again at home").
COMPLAINT = re.compile(
    r"(?:(?:^|[,;:.!?]\s*)again\b|\bagain\s*\?|\b(?:that|this|it|all) again(?=\s*(?:[,;:.!?]|$))"
    r"|\b(?:ask(?:ed|ing)?|say(?:ing)?|said|tell(?:ing)?|told|over|explain(?:ing)?) (?:me |you )?"
    r"(?:that |this |it )?again\b)"
    r"|\b(?:(?:like|as) i (?:said|told you|mentioned|say)"
    r"|already (?:told|said|mentioned|answered|asked|covered|explained)"
    r"|i (?:said|told you|mentioned) (?:that|this|so|it|before|already)"
    r"|told you (?:that|this|already|before)"
    r"|(?:we|we've|we have) (?:already )?(?:covered|been over|went over|gone over|discussed)"
    r"|been (?:over|through) (?:this|that))\b",
    re.IGNORECASE,
)


# What mentions having said something without complaining of being asked again: a denial
# ("I'm not sure I said that", asked about a word one never used) and a correction ("I said
# X earlier, I meant Y"; "when I said X, I meant Y"). Left out before looking for a complaint.
NOT_A_COMPLAINT = re.compile(
    r"\b(?:not sure|don'?t think|didn'?t|never) i (?:said|told you|mentioned) (?:that|this|it)\b"
    # what they quote back ("what do you mean by 'not doing it again at home'?")
    r"|(?<![\w'])'[^'\n]+'(?![\w'])"
    r"|(?<!like )(?<!as )\bi said\b[^.?!]{0,120}?\bi meant\b",
    re.IGNORECASE,
)


def complaints(answers: Sequence[str]) -> list[dict[str, Any]]:
    """Each answer that says the question was asked before, by turn."""
    return [
        {"turn": i + 1, "answer": text}
        for i, text in enumerate(answers)
        if COMPLAINT.search(NOT_A_COMPLAINT.sub(" ", text or ""))
    ]


@dataclass(frozen=True)
class Asked:
    """One turn for :func:`reasks`: what was asked (focus node and strategy) and which rungs
    its answer said for the first time."""

    focus: str | None
    strategy: str | None
    new_rungs: frozenset[tuple[int, int]] = frozenset()
    label: str | None = None


def reasks(turns: Sequence[Asked]) -> list[dict[str, Any]]:
    """Questions on the same focus node with the same strategy as the latest earlier such
    question, with no new rung said in any answer from that one on."""
    found = []
    for t, turn in enumerate(turns):
        if turn.focus is None or turn.strategy is None:
            continue
        for s in range(t - 1, -1, -1):
            if (turns[s].focus, turns[s].strategy) != (turn.focus, turn.strategy):
                continue
            if not any(turns[k].new_rungs for k in range(s, t)):
                found.append(
                    {
                        "turn": t + 1,
                        "like_turn": s + 1,
                        "focus": turn.label or turn.focus,
                        "strategy": turn.strategy,
                    }
                )
            break
    return found


def asked_turns(session: SessionFile, ladders: PersonaBeliefs) -> list[Asked]:
    """Per turn: its question's focus and strategy, and the rungs first named by a node its
    answer added to the graph (or merged into one)."""
    seen: set[tuple[int, int]] = set()
    out = []
    for turn in session.turns:
        delta = turn.graph_delta
        labels = [n.label for n in delta.nodes_added] + [n.label for n in delta.nodes_merged]
        rungs = set()
        for label in labels:
            hit = ladders.locate(label)
            if hit is not None:
                rungs.add((hit[0].ladder, hit[0].index))
        question = turn.question
        out.append(
            Asked(
                focus=question.focus_node_id or question.focus_label,
                strategy=question.strategy,
                new_rungs=frozenset(rungs - seen),
                label=question.focus_label,
            )
        )
        seen |= rungs
    return out


def evaluate_session(
    session: SessionFile, persona: Persona, methodology: Methodology
) -> dict[str, Any]:
    """The ground-truth evaluation of one simulated session (JSON-ready), against the
    persona's beliefs about the session's concept."""
    ladders = PersonaBeliefs(persona, session.concept.id, methodology)
    if not ladders:
        return unscored(session, methodology)
    nodes = _graph_nodes(session.graph)
    matched = match_nodes(ladders, nodes)
    by_rung: dict[tuple[int, int], list[str]] = {}
    refs = ladders.refs()
    for node_id, ref in matched.items():
        # Two ladders may meet in one meaning (the same code): a node naming it names both.
        for twin in (r for r in refs if r.code == ref.code):
            by_rung.setdefault((twin.ladder, twin.index), []).append(node_id)
    per_ladder, pairs_total, linked_pairs = _per_ladder(
        ladders, persona, by_rung, _edges(session.graph)
    )
    rungs_total = sum(len(ladder) for ladder in ladders.ladders)
    rungs_elicited = len(by_rung)
    has_full = ladders.has_full_ladder
    terminal_types = set(methodology.ontology.terminal_types)
    opened = sum(1 for ladder in per_ladder if ladder["elicited"])
    return {
        "ground_truth": True,
        "rungs_total": rungs_total,
        "rungs_elicited": rungs_elicited,
        "rung_recall": round(rungs_elicited / rungs_total, 4) if rungs_total else 0.0,
        "ladder_recall": round(sum(ladder["recall"] for ladder in per_ladder) / len(per_ladder), 4)
        if per_ladder
        else 0.0,
        "ladders_total": len(per_ladder),
        "ladders_opened": opened,
        "ladders_unopened": len(per_ladder) - opened,
        "ladders_completed": sum(1 for ladder in per_ladder if ladder["completed"]),
        "terminal_reached": any(ladder["completed"] and ladder["full"] for ladder in per_ladder)
        if has_full
        else None,
        "terminal_reachable": any(ladder["reachable"] for ladder in per_ladder),
        "graph_terminal_nodes": sum(1 for n in nodes if n.get("node_type") in terminal_types),
        "linked_pairs": linked_pairs,
        "pairs_total": pairs_total,
        "graph_nodes": len(nodes),
        "unmatched_nodes": sorted(
            str(n.get("label", "")) for n in nodes if str(n["id"]) not in matched
        ),
        **_conduct(session, ladders, methodology),
        **summary_truth(session, ladders, methodology),
        "ladders": per_ladder,
    }


def stored_summary_chains(summary: str) -> list[list[str]]:
    """The chains of a stored closing summary ("- a → b → c"), each concept of its "- also:
    x; y" line a chain of one."""
    chains: list[list[str]] = []
    for line in summary.splitlines():
        line = line.strip()
        if not line.startswith("- "):
            continue
        line = line[2:].strip()
        if line.startswith("also: "):
            chains += [[item.strip()] for item in line[len("also: ") :].split("; ") if item.strip()]
        elif line:
            chains.append([step.strip() for step in line.split(" → ") if step.strip()])
    return chains


def summary_truth(
    session: SessionFile, ladders: PersonaBeliefs, methodology: Methodology
) -> dict[str, Any]:
    """How true the closing summary is to what the person holds: its concepts that name a
    rung, and its steps that read a reason of theirs back the right way up (a lower rung to
    a higher one of the same ladder). Nothing when the interview closed with no summary, or
    its methodology summarises as points or its links give no reasons (a story, a job: not
    a ladder to read the right way up)."""
    closing = session.closing
    if (
        closing is None
        or not closing.summary.strip()
        or methodology.summary != "chains"
        or not methodology.ontology.gives_reasons
    ):
        return {}
    refs = ladders.refs()
    named: dict[str, list[RungRef]] = {}
    chains = stored_summary_chains(closing.summary)
    for label in dict.fromkeys(label for chain in chains for label in chain):
        found = ladders.locate(label, refs)
        named[label] = [r for r in refs if r.code == found[0].code] if found else []

    def sound(low: str, high: str) -> bool:
        return any(
            a.ladder == b.ladder and b.index > a.index for a in named[low] for b in named[high]
        )

    steps = [(chain[i], chain[i + 1]) for chain in chains for i in range(len(chain) - 1)]
    checked = check_back_steps(closing.question)
    for label in {label for step in checked for label in step} - named.keys():
        found = ladders.locate(label, refs)
        named[label] = [r for r in refs if r.code == found[0].code] if found else []
    said = {label for chain in chains for label in chain}
    return {
        "summary_concepts": len(said),
        "summary_true": sum(1 for label in said if named[label]),
        "summary_links": len(steps),
        "summary_links_sound": sum(1 for low, high in steps if sound(low, high)),
        "check_back_links": len(checked),
        "check_back_links_sound": sum(1 for low, high in checked if sound(low, high)),
    }


# A reason the closing question reads back: '"X" matters to you because "Y"', '"X" because of
# "Y"', and the top of its ladder after it (', which in the end matters because "Z"')
_READ_BACK = re.compile(
    r'"(?P<low>[^"]+)"(?:\s+(?:matters\s+to\s+you|bothers\s+you))?\s+because(?:\s+of|\s+it)?\s+'
    r'"(?P<high>[^"]+)"(?:,\s+which\s+in\s+the\s+end\s+matters\s+because(?:\s+of|\s+it)?\s+'
    r'"(?P<top>[^"]+)")?'
)


def check_back_steps(question: str) -> list[tuple[str, str]]:
    """The reasons a closing question reads back, as (lower, upper) steps; [] for a question
    that reads none back (a recap, a model's own words)."""
    steps: list[tuple[str, str]] = []
    for found in _READ_BACK.finditer(question):
        steps.append((found["low"], found["high"]))
        if found["top"]:
            steps.append((found["high"], found["top"]))
    return steps


def _per_ladder(
    ladders: PersonaBeliefs,
    persona: Persona,
    by_rung: Mapping[tuple[int, int], list[str]],
    edges: Container[tuple[str, str]],
) -> tuple[list[dict[str, Any]], int, int]:
    """Each hidden ladder's elicited rungs, and how many adjacent rung pairs the graph links."""
    per_ladder: list[dict[str, Any]] = []
    pairs_total = linked_pairs = 0
    for li, ladder in enumerate(ladders.ladders):
        elicited = [ri for ri in range(len(ladder)) if (li, ri) in by_rung]
        for ri in range(len(ladder) - 1):
            pairs_total += 1
            low, high = by_rung.get((li, ri), []), by_rung.get((li, ri + 1), [])
            if any((a, b) in edges for a in low for b in high):
                linked_pairs += 1
        per_ladder.append(
            {
                "rungs": [r.code for r in ladder],
                "elicited": [ladder[ri].code for ri in elicited],
                "recall": round(len(elicited) / len(ladder), 4) if ladder else 0.0,
                "completed": bool(ladder) and (len(ladder) - 1) in elicited,
                "full": ladders.is_full(ladder),
                "reachable": ladders.is_full(ladder)
                and known_rungs(len(ladder), persona.traits.knowledge) == len(ladder),
            }
        )
    return per_ladder, pairs_total, linked_pairs


def unscored(session: SessionFile, methodology: Methodology) -> dict[str, Any]:
    """The evaluation of a session whose persona holds no beliefs about its topic: how the
    interview went, and no figure that would need ground truth (none, rather than 0)."""
    return {"ground_truth": False, **conduct_figures(session, methodology, [])}


def _conduct(
    session: SessionFile, ladders: PersonaBeliefs, methodology: Methodology
) -> dict[str, Any]:
    """How the interview went: length, strategies, repeats, complaints and cost."""
    return conduct_figures(session, methodology, reasks(asked_turns(session, ladders)))


def conduct_figures(
    session: SessionFile, methodology: Methodology, same_node_reasks: list[dict[str, Any]]
) -> dict[str, Any]:
    """The figures of how an interview went that every shape reports alike."""
    threshold = methodology.tuning.vetoes.question_similarity_threshold
    questions = [t.question.text for t in session.turns]
    if session.closing is not None and session.closing.question:
        questions.append(session.closing.question)
    mix = Counter(t.decision.strategy for t in session.turns if t.decision is not None)
    return {
        "turns": session.turn_count,
        "status": session.status,
        "termination_reason": session.termination_reason,
        "strategy_mix": dict(sorted(mix.items())),
        "repeated_questions": repeated_questions(questions, threshold),
        "same_node_reasks": same_node_reasks,
        "complaints": complaints([t.answer.text for t in session.turns]),
        "ended_early": session.turn_count < session.settings.max_turns,
        "cost_usd": round(session.usage.priced_cost_usd, 6),
        "calls": session.usage.calls,
        "input_tokens": session.usage.input_tokens,
        "output_tokens": session.usage.output_tokens,
        # models called without a price: cost_usd counts the priced calls only
        **({"unpriced": list(session.usage.unpriced)} if session.usage.unpriced else {}),
    }


# --------------------------------------------------------------------------------------------
# Summary of a batch
# --------------------------------------------------------------------------------------------


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


@dataclass
class SummaryRow:
    """Aggregates over the evaluated interviews of one persona (or all of them)."""

    name: str
    interviews: int = 0
    failed: int = 0
    unscored: int = 0  # interviews of a persona with no beliefs about the topic: no recall
    rung_recall: float | None = None
    ladder_recall: float | None = None
    ladders_completed: float | None = None
    terminal_rate: float | None = None  # over interviews whose persona can reach a terminal
    terminal_eligible: int = 0
    link_rate: float | None = None
    mean_turns: float | None = None
    repeated_questions: int = 0
    same_node_reasks: int = 0  # same focus node and strategy, no new rung between
    reasks_per_interview: float | None = None
    complaints: int = 0  # answers saying "again", "like I said", "already told you" ...
    terminal_full_rate: float | None = None  # over interviews whose persona has a full ladder
    terminal_full: int = 0
    unopened_at_stop: float | None = None  # mean ladders never opened when it stopped
    early_unopened: int = 0  # interviews ended before the turn limit with a ladder unopened
    # the closing summaries ("What I understood"): concepts, those naming a rung, "a → b"
    # steps, and those reading a reason of the person's back the right way up
    summary_concepts: int = 0
    summary_true: int = 0
    summary_links: int = 0
    summary_links_sound: int = 0
    check_back_links: int = 0  # the closing question's reasons, and those read the right way up
    check_back_links_sound: int = 0
    cost_usd: float = 0.0
    unpriced: list[str] = field(default_factory=list)  # models without a price: cost unknown
    termination: dict[str, int] = field(default_factory=dict)
    strategy_mix: dict[str, int] = field(default_factory=dict)
    strategy_share: dict[str, float] = field(default_factory=dict)  # share of the turns

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def summarise(name: str, evaluations: Sequence[Mapping[str, Any]], failed: int = 0) -> SummaryRow:
    """One summary row from the evaluations of completed interviews. Interviews without
    ground truth count in how the interviews went, never in the recall figures."""
    row = SummaryRow(name=name, interviews=len(evaluations), failed=failed)
    if not evaluations:
        return row
    scored = [e for e in evaluations if e.get("ground_truth", True)]
    row.unscored = len(evaluations) - len(scored)
    if scored:
        _truth(row, scored)
    row.mean_turns = _mean([e["turns"] for e in evaluations])
    row.repeated_questions = sum(len(e["repeated_questions"]) for e in evaluations)
    _asking(row, evaluations)
    row.cost_usd = round(sum(e["cost_usd"] for e in evaluations), 6)
    row.unpriced = sorted({u for e in evaluations for u in e.get("unpriced", [])})
    reasons: Counter[str] = Counter(str(e.get("termination_reason")) for e in evaluations)
    row.termination = dict(reasons.most_common())
    mix: Counter[str] = Counter()
    for e in evaluations:
        mix.update(e.get("strategy_mix", {}))
    row.strategy_mix = dict(sorted(mix.items()))
    total = sum(mix.values())
    if total:
        row.strategy_share = {k: round(v / total, 4) for k, v in row.strategy_mix.items()}
    return row


def _truth(row: SummaryRow, scored: Sequence[Mapping[str, Any]]) -> None:
    """The figures measured against the persona's beliefs."""
    row.rung_recall = _mean([e["rung_recall"] for e in scored])
    row.ladder_recall = _mean([e["ladder_recall"] for e in scored])
    row.ladders_completed = _mean([e["ladders_completed"] for e in scored])
    eligible = [e for e in scored if e.get("terminal_reachable")]
    row.terminal_eligible = len(eligible)
    row.terminal_rate = _mean([1.0 if e["terminal_reached"] else 0.0 for e in eligible])
    pairs = sum(e["pairs_total"] for e in scored)
    row.link_rate = round(sum(e["linked_pairs"] for e in scored) / pairs, 4) if pairs else None


def _asking(row: SummaryRow, evaluations: Sequence[Mapping[str, Any]]) -> None:
    """How the interviews asked: re-asks, complaints, terminal over full ladders, ladders left
    unopened (evaluations from before these fields count as none)."""
    row.same_node_reasks = sum(len(e.get("same_node_reasks", [])) for e in evaluations)
    row.reasks_per_interview = round(row.same_node_reasks / len(evaluations), 4)
    row.complaints = sum(len(e.get("complaints", [])) for e in evaluations)
    full = [e for e in evaluations if e.get("terminal_reached") is not None]
    row.terminal_full = len(full)
    row.terminal_full_rate = _mean([1.0 if e["terminal_reached"] else 0.0 for e in full])
    scored = [e for e in evaluations if e.get("ground_truth", True)]
    if scored and all("ladders_unopened" in e for e in scored):
        row.unopened_at_stop = _mean([e["ladders_unopened"] for e in scored])
    row.early_unopened = sum(
        1 for e in evaluations if e.get("ended_early") and e.get("ladders_unopened", 0) > 0
    )
    for name in (
        "summary_concepts",
        "summary_true",
        "summary_links",
        "summary_links_sound",
        "check_back_links",
        "check_back_links_sound",
    ):
        setattr(row, name, sum(int(e.get(name, 0)) for e in evaluations))
