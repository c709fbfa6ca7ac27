"""The three shipped methodologies, a concept for each, and the laddering answer the offline
provider tests share (extraction in test_offline.py, the other tasks in
test_offline_provider.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
METHODS = ("means_end_chain", "jobs_to_be_done", "critical_incident")
CONCEPTS = {
    "means_end_chain": "headphones_mec",
    "jobs_to_be_done": "coffee_jtbd",
    "critical_incident": "customer_support_ci",
}


def load(kind: str, name: str) -> Any:
    """A shipped YAML file: ``kind`` is its folder (methodologies, concepts, personas)."""
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


def shipped_methods() -> dict[str, Methodology]:
    return {name: Methodology.model_validate(load("methodologies", name)) for name in METHODS}


def shipped_concepts() -> dict[str, Concept]:
    return {m: Concept.model_validate(load("concepts", c)) for m, c in CONCEPTS.items()}


MEC_ANSWER = (
    "I like the noise cancelling because it lets me focus on the train, which makes me feel in "
    "control of my day"
)
