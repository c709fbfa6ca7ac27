"""The laddering methodology, a few study topics and one offline extraction, validated as
a provider's would be: shared by the offline hygiene and placement tests."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from interview_cli.config.schemas import Concept, Methodology, StrategySpec
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.reading.extraction import extract_offline
from interview_cli.llm.protocol import ExtractRequest, NodeContext
from interview_cli.llm.validation import validate_extraction

ROOT = Path(__file__).resolve().parents[2]
A, F, P, T = ("attribute", "functional_consequence", "psychosocial_consequence", "terminal_value")
TOPICS = {
    "headphones": "Wireless headphones",
    "cooking": "Cooking at home",
    "cycling": "Road cycling",
    "banking": "Banking apps",
    "commuting": "Commuting by bike or e-bike",
}


@cache
def shipped_mec() -> Methodology:
    data = load_yaml((ROOT / "methodologies" / "means_end_chain.yaml").read_text("utf-8"))
    return Methodology.model_validate(data)


def concept(domain: str) -> Concept:
    return Concept(
        id=f"{domain}_mec",
        name=TOPICS[domain],
        methodology="means_end_chain",
        objective=f"What matters to people about {TOPICS[domain].lower()}.",
    )


def extract(
    mec: Methodology,
    domain: str,
    answer: str,
    focus: tuple[str, str] | None,
    strategy: str = "deepen",
    question: str = "",
    existing: list[tuple[str, str, str]] | None = None,
) -> Any:
    """The offline extraction of ``answer``, checked by the model path's validation;
    ``existing``: earlier concepts as (label, node type, the respondent's words)."""
    kw: dict[str, Any] = {}
    if focus is not None:
        kw = {"strategy": strategy, "focus_label": focus[0], "focus_type": focus[1]}
    earlier = [NodeContext(label=lab, node_type=kind, quote=q) for lab, kind, q in existing or []]
    request = ExtractRequest(
        methodology=mec,
        concept=concept(domain),
        answer=answer,
        utterance_id="u1",
        question=question,
        existing_labels=[n.label for n in reversed(earlier)],
        existing_nodes=earlier,
        **kw,
    )
    result = extract_offline(request)
    validated = validate_extraction(result.model_dump(), request)
    assert validated.model_dump() == result.model_dump(exclude={"rejected"}) | {"rejected": []}
    return result


def shipped_strategy(methodology: Methodology, name: str) -> StrategySpec:
    """The shipped methodology's strategy of that name."""
    return next(s for s in methodology.strategies if s.name == name)
