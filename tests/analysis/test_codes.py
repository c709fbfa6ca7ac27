"""Content codes across sessions: label de-duplication, aliases, slots and analyst merges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interview_cli.analysis.report.codes import (
    CodeBook,
    RespondentGraph,
    build_codebook,
    code_links,
    load_merges,
    parse_merges,
    slot_names,
    unmatched_merges,
)
from interview_cli.config.schemas import Methodology
from interview_cli.core.graph.knowledge import KnowledgeGraph
from interview_cli.errors import ConfigError

LADDER = Methodology.model_validate(
    {
        "method": {"name": "ladder_test", "goal": "test"},
        "ontology": {
            "nodes": [
                {"name": "attribute", "level": 1},
                {"name": "consequence", "level": 2},
                {"name": "value", "level": 3, "terminal": True},
            ],
            "edges": [
                {
                    "name": "leads_to",
                    "permitted_connections": [
                        ["attribute", "consequence"],
                        ["consequence", "value"],
                        ["consequence", "consequence"],
                    ],
                }
            ],
        },
        "strategies": [{"name": "deepen"}],
    }
)
LEVELS = {"attribute": 1, "consequence": 2, "value": 3}


def graph(*ladder: tuple[str, str], aliases: dict[str, list[str]] | None = None) -> KnowledgeGraph:
    """A graph with one chain of (label, type) nodes linked by leads_to."""
    g = KnowledgeGraph()
    ids = []
    for label, kind in ladder:
        node = g.add_node(
            label,
            kind,
            methodology=LADDER,
            turn=1,
            provenance=[{"utterance_id": "u1", "quote": label, "turn": 1}],
        )
        ids.append(node.id)
        for alias in (aliases or {}).get(label, []):
            g.merge_into(node.id, label=alias)
    for a, b in zip(ids, ids[1:], strict=False):
        g.add_relation(a, b, "leads_to", methodology=LADDER, turn=1)
    return g


def names(book: CodeBook, respondent: int, g: KnowledgeGraph) -> list[str]:
    return [book.code(book.assignment[(respondent, n.id)]).name for n in g.nodes()]


def test_word_forms_share_a_code_across_sessions_but_negation_does_not() -> None:
    g1 = graph(("noise cancelling", "attribute"), ("feel in control", "consequence"))
    g2 = graph(("Noise-cancelling", "attribute"), ("feeling in control", "consequence"))
    g3 = graph(("noise cancelling", "attribute"), ("not in control", "consequence"))
    book = build_codebook(
        [RespondentGraph("a", g1), RespondentGraph("b", g2), RespondentGraph("c", g3)],
        levels=LEVELS,
    )
    assert names(book, 0, g1) == names(book, 1, g2) == ["noise cancelling", "feel in control"]
    assert names(book, 2, g3)[1] == "not in control"
    attribute = book.code(book.assignment[(0, g1.nodes()[0].id)])
    assert (attribute.respondents, attribute.level, attribute.node_type) == (3, 1, "attribute")
    assert set(attribute.variants) == {"noise cancelling", "Noise-cancelling"}
    # codes are ordered by level, then by how many respondents name them
    assert [c.level for c in book.codes] == sorted(c.level for c in book.codes)
    assert book.codes[0].id == "c1" and book.codes[0].name == "noise cancelling"


def test_an_alias_in_one_session_joins_labels_seen_in_others() -> None:
    g1 = graph(("calm", "consequence"))
    g2 = graph(("relaxed", "consequence"), aliases={"relaxed": ["calm"]})
    g3 = graph(("relaxed", "consequence"))
    book = build_codebook(
        [RespondentGraph(str(i), g) for i, g in enumerate((g1, g2, g3))], levels=LEVELS
    )
    assert len(book.codes) == 1
    assert book.codes[0].respondents == 3
    assert book.codes[0].name == "relaxed"  # the most frequent surface label


def test_merge_labels_that_match_no_node_are_listed() -> None:
    g1 = graph(("peace of mind", "value"))
    g2 = graph(("serenity", "value"))
    merges = parse_merges(
        {"inner calm": ["Peace of Mind", "serentiy"], "bliss": [], "calm": "serenity"},
        source="m.yaml",
    )
    # the same loose key as coding (case), a typo, and a code naming itself with no labels
    assert unmatched_merges([g1, g2], merges) == [("inner calm", "serentiy"), ("bliss", "bliss")]
    assert unmatched_merges([g1], None) == []


def test_analyst_merges_name_the_code() -> None:
    g1 = graph(("peace of mind", "value"))
    g2 = graph(("serenity", "value"))
    merges = parse_merges({"inner calm": ["peace of mind", "serenity"]}, source="m.yaml")
    book = build_codebook(
        [RespondentGraph("a", g1), RespondentGraph("b", g2)], levels=LEVELS, merges=merges
    )
    assert [(c.name, c.source, c.respondents) for c in book.codes] == [("inner calm", "merge", 2)]


def test_canonical_slots_code_paraphrases_together() -> None:
    g1 = graph(("sleek design", "attribute"))
    g2 = graph(("looks modern", "attribute"))
    canonical = {
        "slots": [{"id": "s1", "slot_name": "modern_look", "status": "active"}],
        "mappings": [{"surface_node_id": "n1", "slot_id": "s1"}],
    }
    book = build_codebook(
        [
            RespondentGraph("a", g1, slot_names(canonical)),
            RespondentGraph("b", g2, slot_names(canonical)),
        ],
        levels=LEVELS,
    )
    assert len(book.codes) == 1
    assert book.codes[0].source == "slot modern_look"
    # without slots the two are different codes
    plain = build_codebook([RespondentGraph("a", g1), RespondentGraph("b", g2)], levels=LEVELS)
    assert len(plain.codes) == 2


@pytest.mark.parametrize(
    "canonical",
    [
        {"slots": {"s1": {"slot_name": "speed"}}, "mappings": {"n1": "s1"}},
        {"slots": [{"id": "s1", "name": "speed"}], "mappings": {"n1": {"slot_id": "s1"}}},
        {
            "slots": [{"id": "s1", "slot_name": "speed"}],
            "mappings": [{"node_id": "n1", "slot_id": "s1"}],
        },
    ],
)
def test_slot_names_reads_the_shapes_a_canonical_state_may_take(canonical: dict[str, Any]) -> None:
    assert slot_names(canonical) == {"n1": "speed"}


def test_slot_names_of_nothing() -> None:
    assert slot_names(None) == {} and slot_names({}) == {} and slot_names({"slots": []}) == {}


def test_superseded_nodes_count_with_their_replacement() -> None:
    g = graph(("cheap", "attribute"), ("save money", "consequence"))
    fixed = g.add_node("good value", "attribute", methodology=LADDER, turn=2)
    g.supersede(g.nodes()[0].id, fixed.id)
    book = build_codebook([RespondentGraph("a", g)], levels=LEVELS)
    first, _, third = (book.assignment[(0, n.id)] for n in g.nodes())
    assert first == third
    code = book.code(first)
    assert code.name == "good value" and "cheap" in code.variants
    assert code.mentions == 0  # mentions counted once, on the surviving node (it has none)


def test_code_links_drop_self_links_and_filter_relations() -> None:
    g = graph(("calm", "consequence"), ("relaxed", "consequence"), ("wellbeing", "value"))
    merges = {"relaxed": ["calm"]}
    book = build_codebook([RespondentGraph("a", g)], levels=LEVELS, merges=merges)
    links = code_links(book, 0, g, relations={"leads_to"})
    assert [(book.code(a).name, book.code(b).name) for a, b in links] == [("relaxed", "wellbeing")]
    assert code_links(book, 0, g, relations={"contrasts_with"}) == set()


def test_merges_file_errors_name_the_file_and_the_problem(tmp_path: Path) -> None:
    good = tmp_path / "codes.yaml"
    good.write_text("merges:\n  inner calm: [peace of mind, serenity]\n  speed: fast\n", "utf-8")
    assert load_merges(good) == {"inner calm": ["peace of mind", "serenity"], "speed": ["fast"]}
    clash = tmp_path / "clash.yaml"
    clash.write_text("a: [calm]\nb: [calm]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="already merged into 'a'"):
        load_merges(clash)
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [calm\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_merges(broken)
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("- calm\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="expected a mapping"):
        load_merges(wrong)
    with pytest.raises(ConfigError, match="missing.yaml: no such file"):
        load_merges(tmp_path / "missing.yaml")


# ---- grouping by meaning across sessions (analysis.report.grouping) -----------------------


def _book(*graphs: KnowledgeGraph, **kw: Any) -> CodeBook:
    return build_codebook(
        [RespondentGraph(str(i), g) for i, g in enumerate(graphs)], levels=LEVELS, **kw
    )


def test_codes_of_one_idea_in_other_words_are_one_code_across_sessions() -> None:
    g1 = graph(("decent battery", "attribute"), ("feel calm", "consequence"))
    g2 = graph(("battery that lasts the whole week", "attribute"), ("relaxed", "consequence"))
    g3 = graph(("battery", "attribute"), ("no battery panic", "consequence"))
    book = _book(g1, g2, g3)
    battery = {book.assignment[(i, g.nodes()[0].id)] for i, g in enumerate((g1, g2, g3))}
    assert len(battery) == 1
    code = book.code(battery.pop())
    assert (code.respondents, code.source, code.node_type) == (3, "meaning", "attribute")
    assert set(code.variants) == {"decent battery", "battery that lasts the whole week", "battery"}
    calm = book.code(book.assignment[(0, g1.nodes()[1].id)])
    assert calm.respondents == 2 and set(calm.variants) == {"feel calm", "relaxed"}
    # "no battery panic" is the consequence, not the battery
    assert book.code(book.assignment[(2, g3.nodes()[1].id)]).variants == ("no battery panic",)
    # --no-group: the exact codes
    assert len(_book(g1, g2, g3, by_meaning=False).codes) == 6


def test_a_bare_word_does_not_chain_two_ideas_across_sessions() -> None:
    g1 = graph(("save money", "consequence"))
    g2 = graph(("save", "consequence"))
    g3 = graph(("save time", "consequence"))
    book = _book(g1, g2, g3)
    money, bare, time = (book.assignment[(i, g.nodes()[0].id)] for i, g in enumerate((g1, g2, g3)))
    assert money == bare != time


def test_analyst_merges_and_coding_sheets_are_never_regrouped() -> None:
    g1 = graph(("feel calm", "consequence"))
    g2 = graph(("relaxed", "consequence"))
    merges = parse_merges({"calmness": ["feel calm"]}, source="m.yaml")
    book = _book(g1, g2, merges=merges)
    assert sorted((c.name, c.source) for c in book.codes) == [
        ("calmness", "merge"),
        ("relaxed", "label"),
    ]
    sheet = build_codebook(
        [RespondentGraph("a", g1, coded=True), RespondentGraph("b", g2, coded=True)],
        levels=LEVELS,
    )
    assert len(sheet.codes) == 2


def test_the_embedding_tier_groups_what_shares_no_word_but_never_across_negation() -> None:
    class Fake:
        def similarity(self, a: str, b: str) -> float:
            return 0.7 if {a, b} <= {"can focus", "concentrate", "cannot focus"} else 0.1

    g1 = graph(("can focus", "consequence"))
    g2 = graph(("concentrate", "consequence"))
    g3 = graph(("cannot focus", "consequence"))
    words = _book(g1, g2, g3)
    assert len(words.codes) == 3  # the words cannot see it
    embedded = _book(g1, g2, g3, embedder=Fake())
    focus, concentrate, cannot = (
        embedded.assignment[(i, g.nodes()[0].id)] for i, g in enumerate((g1, g2, g3))
    )
    assert focus == concentrate != cannot
