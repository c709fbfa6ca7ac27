"""Prompt parts that depend only on the methodology are rendered once per methodology object:
the same text as a fresh render, and a different methodology never gets another's text."""

from __future__ import annotations

from pathlib import Path

import pytest

from interview_cli.config.schemas import Concept, Methodology
from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.prompts import analysis, render_extract, templates
from interview_cli.llm.protocol import ExtractRequest

ROOT = Path(__file__).resolve().parents[2]


def _load(kind: str, name: str) -> dict[str, object]:
    return load_yaml((ROOT / kind / f"{name}.yaml").read_text(encoding="utf-8"))


def request(methodology: Methodology, answer: str) -> ExtractRequest:
    concept = Concept.model_validate(_load("concepts", "headphones_mec"))
    return ExtractRequest(
        methodology=methodology,
        concept=concept,
        answer=answer,
        utterance_id="u1",
        question="Why?",
        strategy="deepen",
    )


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the methodologies whose extraction system prompt was actually rendered."""
    seen: list[str] = []
    real = analysis._extract_system

    def counting(methodology: Methodology) -> str:
        seen.append(methodology.name)
        return real(methodology)

    monkeypatch.setattr(templates, "_PARTS", {})
    monkeypatch.setattr(analysis, "_extract_system", counting)
    return seen


def test_the_extraction_system_prompt_is_rendered_once_per_methodology(
    renders: list[str],
) -> None:
    mec = Methodology.model_validate(_load("methodologies", "means_end_chain"))
    first = render_extract(request(mec, "I like the sound."))
    second = render_extract(request(mec, "It lets me focus."))
    assert renders == [mec.name]
    assert first.system == second.system == analysis._extract_system(mec)
    assert "It lets me focus." in second.user  # the per-answer part is still per answer


def test_another_methodology_gets_its_own_text(renders: list[str]) -> None:
    mec = Methodology.model_validate(_load("methodologies", "means_end_chain"))
    other = mec.model_copy(update={"method": mec.method.model_copy(update={"name": "mec_variant"})})
    jtbd = Methodology.model_validate(_load("methodologies", "jobs_to_be_done"))
    texts = [render_extract(request(m, "Fine.")).system for m in (mec, other, jtbd, mec)]
    assert renders == [mec.name, "mec_variant", jtbd.name]
    assert "mec_variant" in texts[1] and "mec_variant" not in texts[0]
    assert texts[0] == texts[3] and len(set(texts[:3])) == 3


def test_the_cache_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(templates, "_PARTS", {})
    for i in range(templates._PARTS_MAX + 10):
        assert templates.rendered_once("p", object(), lambda _m, i=i: str(i)) == str(i)
    assert len(templates._PARTS) == templates._PARTS_MAX
