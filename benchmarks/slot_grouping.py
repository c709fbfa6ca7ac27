"""How well do canonical slots group what people said, apart from how it was read?

``benchmarks/reading.py`` measures slot sharing on the nodes the offline reader made, so its
figure mixes two things: how the reader cut the answers into labels (fragments such as "two"
or "scanner" name no idea on their own) and how slot discovery groups the labels it gets.
This benchmark measures the second alone: each rung an analyst coded in a reading corpus
(``benchmarks/reading/<set>/<topic>/``) becomes one node labelled with the respondent's own
words for it (the rung's span, what a perfect reader would keep) and the analyst's node type,
turn by turn, and the real slot path runs over them:

- within an interview: the offline ``propose_slots`` (``OfflineLLM`` through
  ``pipeline.slots.discover_slots``, one call per turn) and ``core.canonical``'s placement;
- across interviews: the content codes of ``interview report`` (``build_codebook``).

Pairs are counted as in ``reading.py``: same rung / same slot (within) or same report code
(across); mixed: of the pairs sharing a slot or code, the share coding different rungs.

    python benchmarks/slot_grouping.py [--sets dev holdout] [--json]

Held-out spans are only measured, never shown: this script prints aggregates only.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reading  # noqa: E402  (the corpus loader of the sibling benchmark)

from interview_cli.analysis.report.codes import (  # noqa: E402
    RespondentGraph,
    build_codebook,
    slot_names,
)
from interview_cli.config.schemas import Methodology  # noqa: E402
from interview_cli.core.canonical.proposals import apply_slot_proposals  # noqa: E402
from interview_cli.core.canonical.slots import CanonicalState, pending_slot_batches  # noqa: E402
from interview_cli.core.graph.knowledge import KnowledgeGraph  # noqa: E402
from interview_cli.llm.offline import OfflineLLM  # noqa: E402
from interview_cli.pipeline.slots import discover_slots  # noqa: E402


@dataclass
class Pairs:
    within: int = 0
    shared_within: int = 0
    mixed_within: int = 0
    across: int = 0
    shared_across: int = 0
    mixed_across: int = 0
    slots: int = 0
    codes: int = 0
    nodes: int = 0

    def add(self, other: Pairs) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Coded:
    graph: KnowledgeGraph
    canonical: CanonicalState
    rung: dict[str, str] = field(default_factory=dict)  # node id -> analyst's code


async def slot_interview(
    interview: reading.CorpusInterview, topic: reading.Topic, methodology: Methodology
) -> Coded:
    """The interview's rungs as nodes (span words, analyst's type), slotted turn by turn."""
    coded = Coded(KnowledgeGraph(), CanonicalState())
    llm = OfflineLLM(seed=0)
    tuning = methodology.tuning.canonical
    for number, turn in enumerate(interview.turns, start=1):
        for span in turn.rungs:
            node_type = topic.codes[span.code].type
            if coded.graph.find_by_label(span.text, node_type):
                continue  # the same words twice: one node, as the graph update would keep
            node = coded.graph.add_node(span.text, node_type, methodology=methodology, turn=number)
            coded.rung[node.id] = span.code
        batches = pending_slot_batches(coded.canonical, coded.graph, tuning=tuning)
        answered = (await discover_slots(llm, batches, seed=number)).batches if batches else []
        coded.canonical, _ = apply_slot_proposals(
            coded.canonical, answered, graph=coded.graph, turn=number, tuning=tuning
        )
    return coded


def score_topic(topic: reading.Topic, lib: Any) -> Pairs:
    concept = lib.concept(topic.concept_path or topic.concept_id).value
    methodology = lib.methodology(concept.methodology).value
    runs = [asyncio.run(slot_interview(iv, topic, methodology)) for iv in topic.interviews]
    pairs = Pairs()
    for run in runs:
        slot_of = run.canonical.slot_of()
        pairs.slots += len(run.canonical.slots)
        pairs.nodes += len(run.rung)
        for a, b in itertools.combinations(run.rung, 2):
            same = slot_of.get(a) is not None and slot_of.get(a) == slot_of.get(b)
            if run.rung[a] == run.rung[b]:
                pairs.within += 1
                pairs.shared_within += same
            else:
                pairs.mixed_within += same
    levels = {n.name: n.level for n in methodology.ontology.nodes}
    graphs = [
        RespondentGraph(str(i), r.graph, slot_names(r.canonical.to_dict()))
        for i, r in enumerate(runs)
    ]
    book = build_codebook(graphs, levels=levels)
    pairs.codes += len(book.codes)
    for (i, left), (j, right) in itertools.combinations(enumerate(runs), 2):
        for a, b in itertools.product(left.rung, right.rung):
            same = book.code_of(i, a) == book.code_of(j, b)
            if left.rung[a] == right.rung[b]:
                pairs.across += 1
                pairs.shared_across += same
            else:
                pairs.mixed_across += same
    return pairs


def figures(p: Pairs) -> dict[str, Any]:
    def ratio(part: int, whole: int) -> float | None:
        return round(part / whole, 3) if whole else None

    return {
        "same_slot_within": ratio(p.shared_within, p.within),
        "same_code_across": ratio(p.shared_across, p.across),
        "mixed_within": ratio(p.mixed_within, p.mixed_within + p.shared_within),
        "mixed_across": ratio(p.mixed_across, p.mixed_across + p.shared_across),
        "same_rung_pairs": [p.within, p.across],
        "mixed_pairs": [p.mixed_within, p.mixed_across],
        "rung_nodes": p.nodes,
        "slots": p.slots,
        "report_codes": p.codes,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--sets", nargs="+", default=list(reading.SETS), choices=reading.SETS)
    parser.add_argument("--corpus", type=Path, default=reading.CORPUS, help="the corpus root")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    args = parser.parse_args(argv)
    lib = reading._library()
    result: dict[str, Any] = {}
    for set_name in args.sets:
        total = Pairs()
        for topic in reading.load_set(set_name, args.corpus):
            total.add(score_topic(topic, lib))
        result[set_name] = figures(total)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    row = "{:<10} {:>7} {:>7} {:>10} {:>10} {:>12} {:>8}"
    print(row.format("set", "nodes", "slots", "slots w/a", "mixed w/a", "report codes", "pairs"))
    for set_name, f in result.items():
        share = "/".join(
            "-" if v is None else f"{100 * v:.0f}%"
            for v in (f["same_slot_within"], f["same_code_across"])
        )
        mixed = "/".join(
            "-" if v is None else f"{100 * v:.0f}%" for v in (f["mixed_within"], f["mixed_across"])
        )
        pairs = "/".join(str(n) for n in f["same_rung_pairs"])
        print(
            row.format(
                set_name, f["rung_nodes"], f["slots"], share, mixed, f["report_codes"], pairs
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
