"""How well does the offline interviewer hear people who talk like people?

Feeds the answers of a reading corpus (``benchmarks/reading/<set>/<topic>/*.yaml``, format in
``benchmarks/reading/README.md``), in order, to the real interviewer (``pipeline.runner.
Interview``, offline provider, the same turn a user runs), then compares what it made of them
with what an analyst coded in each answer:

- rung capture: coded rungs that some node drawn from that answer names (the node's content
  words lie in the rung's span, or in the code's label when the answer said them all);
- right level: captured rungs whose node has the code's type;
- node precision: nodes that name a coded rung / all nodes made from the answers;
- junk, mangled: nodes made of a phrase the analyst marked as not content (backstory, hedge,
  joke, correction, talk about the interview...), or of nothing coded at all;
- junk focus /100q: questions (per 100, the opening aside) whose focus node names no rung;
- corrections: answers correcting an earlier rung whose earlier node was superseded;
- steers: "can we go back to X" answers whose next question took X as its focus;
- same slot (within / across): pairs of nodes coding the same rung that share a canonical
  slot in one interview, and that share a content code of ``interview report`` across the
  topic's interviews (the report is where interviews meet: slot names are one session's
  identifiers, and the report groups them across sessions; the bare slot-name figure is in
  ``--json`` as ``same_slot_name_across``);
- mixed (within / across): of the pairs that share a slot (within) or a report code (across),
  the share whose nodes code different rungs: two meanings lumped into one code;
- read: answers the interviewer read before it closed (an early close leaves the rest
  unread, and their rungs count as missed);
- questions: the question report card of the interviews (``analysis.report.question_card``,
  the one `interview report` shows), per 100 questions asked: clean, quotes not in the
  respondent's words, topic-name splices, double-barrelled, jargon, repeats, set aside.

The scorer is deliberately simple and shares no code with the reader: words are lower-cased,
stop words dropped, a few endings trimmed, and a typo is forgiven by fuzzy ratio. A node names
a rung when at least 60% of its label's content words are among the span's.

Sets are the folders under ``benchmarks/reading/``. A ``dev*`` set is read while tuning (each
written by another writer, so a rule fitted to one writer's style shows on the others); a
``holdout*`` set was written by someone who never read the reader and is only measured:
``--show`` refuses it unless ``--read-holdout`` is given.

``--embeddings`` runs the interviews and the report's grouping with the optional embedding
tier (``llm.embeddings``, loaded as ``interview run --embeddings`` loads it); the extra
missing is an error here, not the tool's fuzzy fallback, since the figures would not be the
tier's.

    python benchmarks/reading.py [--sets dev dev2 holdout ...] [--topic ID] [--show] [--json]
                                 [--embeddings]

Not a test: it runs every corpus interview through the real turn (a few seconds each here).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from rapidfuzz import fuzz

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "benchmarks" / "reading"
MATCH_SHARE = 0.6
JUNK_SHARE = 0.5
TYPO_RATIO = 85
SETS = tuple(sorted(p.name for p in CORPUS.iterdir() if p.is_dir())) if CORPUS.is_dir() else ()

STOP = frozenset(
    """a an the and or but so because if then than that this these those it its it's i i'm
    i've i'd i'll me my mine we us our you your he him his she her they them their there here
    is are was were be been being am do does did doing done have has had having will would
    shall should can could may might must to of in on at by for with from up down out about
    into over under again just really very quite pretty bit lot lots much many more most some
    any all no not nor too also even still as what which who whom when where why how all
    'cause cos coz yeah yes oh ah um uh er well like you know kind sort thing things stuff
    get got gets getting go goes going went make makes made one ones way actually basically
    honestly literally probably maybe guess suppose mean means""".split()
)


class CorpusError(Exception):
    """A corpus file that breaks the format: the message names the file and the field."""


@dataclass(frozen=True)
class Code:
    id: str
    type: str
    label: str


@dataclass(frozen=True)
class Span:
    text: str
    code: str = ""  # a rung's code
    kind: str = ""  # a not-node's kind


@dataclass(frozen=True)
class CorpusTurn:
    question: str
    answer: str
    rungs: tuple[Span, ...]
    not_nodes: tuple[Span, ...]
    corrects: str | None = None
    steer: str | None = None
    meta: bool = False


@dataclass(frozen=True)
class CorpusInterview:
    path: Path
    voice: str
    turns: tuple[CorpusTurn, ...]


@dataclass
class Topic:
    name: str
    path: Path
    concept_id: str
    concept_path: Path | None
    codes: dict[str, Code]
    interviews: list[CorpusInterview] = field(default_factory=list)


# -- loading ----------------------------------------------------------------------------------


def _require(value: Any, where: str, kind: type, what: str) -> Any:
    if not isinstance(value, kind):
        raise CorpusError(f"{where}: {what} must be a {kind.__name__}")
    return value


def _spans(raw: Any, where: str, answer: str, key: str) -> tuple[Span, ...]:
    out = []
    for i, item in enumerate(_require(raw or [], where, list, key)):
        here = f"{where}.{key}[{i}]"
        _require(item, here, dict, "an entry")
        text = str(item.get("span", ""))
        if not text or text not in answer:
            raise CorpusError(f"{here}.span: {text!r} is not a substring of the answer")
        out.append(Span(text=text, code=str(item.get("code", "")), kind=str(item.get("kind", ""))))
    return tuple(out)


def load_interview(path: Path, codes: dict[str, Code]) -> CorpusInterview:
    data = _require(yaml.safe_load(path.read_text(encoding="utf-8")), str(path), dict, "the file")
    turns = []
    for i, raw in enumerate(_require(data.get("turns"), f"{path}: turns", list, "turns")):
        where = f"{path}: turns[{i}]"
        _require(raw, where, dict, "a turn")
        answer = str(raw.get("answer", "")).strip()
        rungs = _spans(raw.get("rungs"), where, answer, "rungs")
        for span in rungs:
            if span.code not in codes:
                raise CorpusError(f"{where}.rungs: code {span.code!r} is not in the codebook")
        for key in ("corrects", "steer"):
            if raw.get(key) is not None and raw[key] not in codes:
                raise CorpusError(f"{where}.{key}: code {raw[key]!r} is not in the codebook")
        turns.append(
            CorpusTurn(
                question=str(raw.get("question", "")),
                answer=answer,
                rungs=rungs,
                not_nodes=_spans(raw.get("not_nodes"), where, answer, "not_nodes"),
                corrects=raw.get("corrects"),
                steer=raw.get("steer"),
                meta=bool(raw.get("meta", False)),
            )
        )
    return CorpusInterview(path=path, voice=str(data.get("voice", "")), turns=tuple(turns))


def load_topic(path: Path) -> Topic:
    book_path = path / "codebook.yaml"
    if not book_path.is_file():
        raise CorpusError(f"{path}: no codebook.yaml")
    book = _require(
        yaml.safe_load(book_path.read_text(encoding="utf-8")), str(book_path), dict, "it"
    )
    codes: dict[str, Code] = {}
    for i, raw in enumerate(_require(book.get("codes"), f"{book_path}: codes", list, "codes")):
        code = Code(
            id=str(raw["id"]), type=str(raw["type"]), label=str(raw.get("label", raw["id"]))
        )
        if code.id in codes:
            raise CorpusError(f"{book_path}: codes[{i}]: id {code.id!r} is used twice")
        codes[code.id] = code
    concept_file = path / "concept.yaml"
    topic = Topic(
        name=path.name,
        path=path,
        concept_id=str(book.get("concept", "")),
        concept_path=concept_file if concept_file.is_file() else None,
        codes=codes,
    )
    for file in sorted(path.glob("*.yaml")):
        if file.name not in ("codebook.yaml", "concept.yaml"):
            topic.interviews.append(load_interview(file, codes))
    return topic


def load_set(name: str, root: Path = CORPUS) -> list[Topic]:
    base = root / name
    if not base.is_dir():
        return []
    return [load_topic(p) for p in sorted(base.iterdir()) if p.is_dir()]


# -- matching ----------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def stem(word: str) -> str:
    for end, keep in (("ies", 4), ("ing", 5), ("ed", 5), ("es", 5), ("s", 4)):
        if word.endswith(end) and len(word) >= keep:
            return word[: -len(end)] + ("y" if end == "ies" else "")
    return word


def content_words(text: str) -> list[str]:
    words = _WORD.findall(text.lower().replace("’", "'"))
    return [stem(w) for w in words if len(w) > 1 and w not in STOP]


def _word_in(word: str, pool: Sequence[str]) -> bool:
    if word in pool:
        return True
    return len(word) >= 5 and any(fuzz.ratio(word, other) >= TYPO_RATIO for other in pool)


def share_in(label: str, span: str) -> float:
    """Share of the label's content words that the span holds. A label of nothing but
    function words ("being there for them") is compared word for word: it names the span
    only when the span says it whole (0 when it has no words at all)."""
    words = content_words(label)
    if not words:
        said = [stem(w) for w in _WORD.findall(label.lower().replace("’", "'")) if len(w) > 1]
        pool = " ".join(stem(w) for w in _WORD.findall(span.lower().replace("’", "'")))
        return float(bool(said) and f" {' '.join(said)} " in f" {pool} ")
    pool = content_words(span)
    return sum(_word_in(w, pool) for w in words) / len(words)


def rung_share(label: str, span: Span, turn: CorpusTurn, topic: Topic) -> float:
    """How well a node label names a coded rung of this answer: by the rung's span, or by the
    analyst's label for the code when every word the node uses was said in the answer (the
    respondent's "the battery" before "it goes the whole week" names that rung too)."""
    by_span = share_in(label, span.text)
    code = topic.codes[span.code]
    if share_in(label, turn.answer) < 1.0:
        return by_span
    return max(by_span, share_in(label, code.label))


# -- running -----------------------------------------------------------------------------------


@dataclass
class Asked:
    turn: int  # the answer (1-based) this question was asked before
    strategy: str | None
    focus_id: str | None
    focus_label: str | None
    text: str


@dataclass
class Run:
    topic: Topic
    interview: CorpusInterview
    session: dict[str, Any]
    asked: list[Asked]
    read: int


def _library() -> Any:
    from interview_cli.config.library import Library

    return Library.discover(cwd=ROOT)


def corpus_runner(
    topic: Topic, interview: CorpusInterview, lib: Any, *, max_turns: int, embedder: Any = None
) -> Any:
    """The real interviewer (``pipeline.runner.Interview``, offline provider, no store) set up
    for one corpus interview, as ``interview run`` sets one up."""
    from interview_cli.llm.offline import OfflineLLM
    from interview_cli.llm.settings import offline_settings
    from interview_cli.pipeline.runner import Interview
    from interview_cli.pipeline.setup import new_session

    concept = lib.concept(topic.concept_path or topic.concept_id)
    methodology = lib.methodology(concept.value.methodology)
    session = new_session(
        session_id=f"corpus-{topic.name}-{interview.path.stem}",
        concept=concept,
        methodology=methodology,
        settings=offline_settings(),
        max_turns=max_turns,
        ask_rating=False,
        timestamps=False,
        embeddings=embedder is not None,
    )
    return Interview(session, store=None, llm=OfflineLLM(seed=0), embedder=embedder)


async def run_interview(
    topic: Topic, interview: CorpusInterview, lib: Any, embedder: Any = None
) -> Run:
    runner = corpus_runner(
        topic, interview, lib, max_turns=len(interview.turns) + 2, embedder=embedder
    )
    asked: list[Asked] = []
    read = 0
    for number, turn in enumerate(interview.turns, start=1):
        question = await runner.ensure_question()
        if question is None or runner.finished:
            break
        asked.append(
            Asked(
                number,
                question.strategy,
                question.focus_node_id,
                question.focus_label,
                question.text,
            )
        )
        result = await runner.submit(turn.answer)
        read = number
        if result.finished:
            break
    else:
        question = await runner.ensure_question()
        if question is not None and not runner.finished:
            asked.append(
                Asked(
                    len(interview.turns) + 1,
                    question.strategy,
                    question.focus_node_id,
                    question.focus_label,
                    question.text,
                )
            )
    return Run(topic, interview, runner.session.model_dump(mode="json"), asked, read)


# -- scoring -----------------------------------------------------------------------------------


@dataclass
class NodeView:
    id: str
    label: str
    type: str
    turn: int
    superseded: bool
    kind: str = "mangled"  # rung | junk | mangled
    code: str | None = None
    confidence: float | None = None


def classify_nodes(run: Run) -> dict[str, NodeView]:
    views: dict[str, NodeView] = {}
    for node in run.session["graph"].get("nodes", []):
        turns = [p.get("turn") for p in node.get("provenance", []) if p.get("turn")]
        turn = int(node.get("created_turn") or (min(turns) if turns else 0))
        view = NodeView(
            id=str(node["id"]),
            label=str(node.get("label", "")),
            type=str(node.get("node_type", "")),
            turn=turn,
            superseded=bool(node.get("superseded_by")),
            confidence=node.get("confidence"),
        )
        if 1 <= turn <= len(run.interview.turns):
            answer = run.interview.turns[turn - 1]
            best = max(
                ((rung_share(view.label, s, answer, run.topic), s.code) for s in answer.rungs),
                default=(0.0, ""),
            )
            if best[0] >= MATCH_SHARE:
                view.kind, view.code = "rung", best[1]
            elif not content_words(view.label) or any(
                share_in(view.label, s.text) >= JUNK_SHARE for s in answer.not_nodes
            ):
                view.kind = "junk"
        views[view.id] = view
    return views


@dataclass
class Score:
    rungs: int = 0
    captured: int = 0
    right_level: int = 0
    nodes: int = 0
    rung_nodes: int = 0
    junk_nodes: int = 0
    questions: int = 0
    junk_focus: int = 0
    corrections: int = 0
    corrected: int = 0
    steers: int = 0
    steered: int = 0
    answers: int = 0
    read: int = 0
    pairs_within: int = 0
    shared_within: int = 0
    mixed_within: int = 0
    pairs_across: int = 0
    shared_across: int = 0
    mixed_across: int = 0
    named_across: int = 0
    interviews: int = 0

    def add(self, other: Score) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def _slots(session: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    canonical = session.get("canonical") or {}
    names = {s["id"]: s.get("slot_name", s["id"]) for s in canonical.get("slots", [])}
    node_slot = {m["surface_node_id"]: m["slot_id"] for m in canonical.get("mappings", [])}
    return node_slot, names


def score_run(run: Run, views: dict[str, NodeView]) -> Score:
    score = Score(interviews=1, answers=len(run.interview.turns), read=run.read)
    for number, turn in enumerate(run.interview.turns[: run.read], start=1):
        made = [v for v in views.values() if v.turn == number]
        for span in turn.rungs:
            score.rungs += 1
            hits = [v for v in made if v.kind == "rung" and v.code == span.code]
            if hits:
                score.captured += 1
                code = run.topic.codes[span.code]
                score.right_level += any(v.type == code.type for v in hits)
        if turn.corrects:
            score.corrections += 1
            earlier = [v for v in views.values() if v.code == turn.corrects and v.turn < number]
            score.corrected += bool(earlier) and all(v.superseded for v in earlier)
        if turn.steer and number < len(run.asked):
            score.steers += 1
            nxt = run.asked[number]
            focus = views.get(nxt.focus_id or "")
            score.steered += focus is not None and focus.code == turn.steer
    unread = len(run.interview.turns) - run.read
    score.rungs += sum(len(t.rungs) for t in run.interview.turns[run.read :]) if unread else 0
    score.nodes = len(views)
    score.rung_nodes = sum(v.kind == "rung" for v in views.values())
    score.junk_nodes = sum(v.kind == "junk" for v in views.values())
    for asked in run.asked[1:]:
        score.questions += 1
        focus = views.get(asked.focus_id or "")
        score.junk_focus += focus is not None and focus.kind != "rung"
    node_slot, _ = _slots(run.session)
    coded = [v for v in views.values() if v.kind == "rung"]
    for a, b in itertools.combinations(coded, 2):
        same_slot = node_slot.get(a.id) is not None and node_slot.get(a.id) == node_slot.get(b.id)
        if a.code == b.code:
            score.pairs_within += 1
            score.shared_within += same_slot
        else:
            score.mixed_within += same_slot
    return score


def report_codes(runs: Sequence[Run], embedder: Any = None) -> list[dict[str, str]]:
    """Each run's node id -> content code, as ``interview report`` codes these sessions
    together (the same function the report calls, slots on; ``embedder``: its
    ``--embeddings``)."""
    from interview_cli.analysis.report.build import build_report
    from interview_cli.analysis.sources import SessionSource
    from interview_cli.session.schema import SessionFile

    sources = [
        SessionSource(SessionFile.model_validate(run.session), run.interview.path) for run in runs
    ]
    (section,) = build_report(sources, embedder=embedder).sections
    book = section.codebook
    return [
        {node_id: code for (r, node_id), code in book.assignment.items() if r == index}
        for index in range(len(runs))
    ]


def score_across(
    runs: Sequence[Run], views: Sequence[dict[str, NodeView]], embedder: Any = None
) -> Score:
    """Pairs of nodes in different interviews of a topic: do the nodes of one rung share a
    report code (and a slot name), and how many pairs of different rungs share a code?"""
    score = Score()
    codes = report_codes(runs, embedder)
    named: list[list[tuple[str, str, str]]] = []
    for run, nodes, code_of in zip(runs, views, codes, strict=True):
        node_slot, names = _slots(run.session)
        named.append(
            [
                (v.code or "", names.get(node_slot.get(v.id, ""), ""), code_of.get(v.id, ""))
                for v in nodes.values()
                if v.kind == "rung"
            ]
        )
    for left, right in itertools.combinations(named, 2):
        for (rung_a, slot_a, code_a), (rung_b, slot_b, code_b) in itertools.product(left, right):
            same_code = bool(code_a) and code_a == code_b
            if rung_a == rung_b:
                score.pairs_across += 1
                score.shared_across += same_code
                score.named_across += bool(slot_a) and slot_a == slot_b
            else:
                score.mixed_across += same_code
    return score


# -- reporting ---------------------------------------------------------------------------------


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def figures(score: Score) -> dict[str, Any]:
    def ratio(part: int, whole: int) -> float | None:
        return round(part / whole, 3) if whole else None

    return {
        "interviews": score.interviews,
        "answers": score.answers,
        "read": score.read,
        "rung_capture": ratio(score.captured, score.rungs),
        "right_level": ratio(score.right_level, score.captured),
        "node_precision": ratio(score.rung_nodes, score.nodes),
        "junk_nodes": ratio(score.junk_nodes, score.nodes),
        "mangled_nodes": ratio(score.nodes - score.rung_nodes - score.junk_nodes, score.nodes),
        "junk_focus_per_100q": None
        if not score.questions
        else round(100 * score.junk_focus / score.questions, 1),
        "corrections": [score.corrected, score.corrections],
        "steers": [score.steered, score.steers],
        "same_slot_within": ratio(score.shared_within, score.pairs_within),
        "same_slot_across": ratio(score.shared_across, score.pairs_across),
        "same_slot_name_across": ratio(score.named_across, score.pairs_across),
        "mixed_within": ratio(score.mixed_within, score.mixed_within + score.shared_within),
        "mixed_across": ratio(score.mixed_across, score.mixed_across + score.shared_across),
        "same_rung_pairs": [score.pairs_within, score.pairs_across],
        "mixed_pairs": [score.mixed_within, score.mixed_across],
        "nodes": score.nodes,
        "rungs": score.rungs,
        "questions": score.questions,
    }


ROW = "{:<28} {:>5} {:>6} {:>8} {:>6} {:>9} {:>6} {:>8} {:>8} {:>6} {:>8} {:>9} {:>9}"


def print_table(rows: Iterable[tuple[str, Score]]) -> None:
    print(
        ROW.format(
            "set / topic",
            "ints",
            "read",
            "capture",
            "level",
            "precision",
            "junk",
            "mangled",
            "jfocus",
            "corr",
            "steers",
            "slots w/a",
            "mixed w/a",
        )
    )
    for name, s in rows:
        print(
            ROW.format(
                name[:28],
                s.interviews,
                f"{s.read}/{s.answers}",
                pct(s.captured, s.rungs),
                pct(s.right_level, s.captured),
                pct(s.rung_nodes, s.nodes),
                pct(s.junk_nodes, s.nodes),
                pct(s.nodes - s.rung_nodes - s.junk_nodes, s.nodes),
                "-" if not s.questions else f"{100 * s.junk_focus / s.questions:.0f}",
                f"{s.corrected}/{s.corrections}",
                f"{s.steered}/{s.steers}",
                f"{pct(s.shared_within, s.pairs_within)}/{pct(s.shared_across, s.pairs_across)}",
                f"{pct(s.mixed_within, s.mixed_within + s.shared_within)}/"
                f"{pct(s.mixed_across, s.mixed_across + s.shared_across)}",
            )
        )


def question_card(runs: Sequence[Run]) -> Any:
    """The question report card over the runs' sessions (the card users see)."""
    from interview_cli.analysis.report.question_card import combine
    from interview_cli.analysis.report.question_card import question_card as card_of
    from interview_cli.session.schema import SessionFile

    return combine([card_of(SessionFile.model_validate(run.session)) for run in runs])


def print_cards(rows: Iterable[tuple[str, Any]]) -> None:
    from interview_cli.analysis.report.question_card import CARD_HEADERS, card_cells

    line = "{:<28} " + " ".join(f"{{:>{max(6, len(h))}}}" for h in CARD_HEADERS)
    print("\nQuestions (per 100 asked)")
    print(line.format("set / topic", *CARD_HEADERS))
    for name, card in rows:
        print(line.format(name[:28], *card_cells(card)))


def show_run(run: Run, views: dict[str, NodeView]) -> None:
    print(f"\n=== {run.topic.name}/{run.interview.path.stem}: {run.interview.voice.strip()[:90]}")
    asked = {a.turn: a for a in run.asked}
    for number, turn in enumerate(run.interview.turns, start=1):
        q = asked.get(number)
        if q is None:
            print(f"  [{number}] (not read)")
            continue
        focus = views.get(q.focus_id or "")
        tag = "" if focus is None else f"  <{focus.kind}>"
        print(f"  Q{number} [{q.strategy}] {q.text}{tag}")
        print(f"  A{number} {turn.answer}")
        made = [v for v in views.values() if v.turn == number]
        for v in made:
            mark = {"rung": "+", "junk": "x", "mangled": "?"}[v.kind]
            sup = " (superseded)" if v.superseded else ""
            sure = "" if v.confidence is None else f" {v.confidence:.2f}"
            print(f"     {mark} {v.label!r} [{v.type}]{sure} {v.code or ''}{sup}")
        for span in turn.rungs:
            if not any(v.kind == "rung" and v.code == span.code for v in made):
                print(f"     - missed {span.code}: {span.text!r}")
    extra = [a for a in run.asked if a.turn > len(run.interview.turns)]
    for a in extra:
        print(f"  Q{a.turn} [{a.strategy}] {a.text}")


def load_embedder_or_say(wanted: bool) -> tuple[Any, str | None]:
    """The embedding tier when ``wanted`` (the loader ``interview run --embeddings`` uses), else
    None; and the one line to stop on when it was wanted and did not load."""
    from interview_cli.llm.embeddings import load_embedder

    notices: list[str] = []
    embedder = load_embedder(wanted, notice=notices.append)
    if embedder is not None or not wanted:
        return embedder, None
    # The tool goes on with fuzzy matching; a benchmark of the tier must not.
    why = notices[0].rpartition("; ")[0] if notices else "Embeddings did not load"
    return None, f"--embeddings: {why}; no fuzzy fallback here (install it or drop the flag)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--topic", help="only this topic (folder name)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the corpus root")
    parser.add_argument("--show", action="store_true", help="print every answer and its nodes")
    parser.add_argument("--read-holdout", action="store_true", help="allow --show on holdout")
    parser.add_argument("--json", action="store_true", help="figures as JSON")
    parser.add_argument(
        "--embeddings", action="store_true", help="use the embedding tier (needs the extra)"
    )
    args = parser.parse_args(argv)
    if args.show and any(s.startswith("holdout") for s in args.sets) and not args.read_holdout:
        print(
            "--show on the held-out set spoils it; add --read-holdout if you mean it",
            file=sys.stderr,
        )
        return 2
    embedder, problem = load_embedder_or_say(args.embeddings)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    lib = _library()
    result: dict[str, Any] = {}
    rows: list[tuple[str, Score]] = []
    cards: list[tuple[str, Any]] = []
    for set_name in args.sets:
        try:
            topics = load_set(set_name, args.corpus)
        except CorpusError as exc:
            print(f"corpus: {exc}", file=sys.stderr)
            return 2
        total = Score()
        per_topic: dict[str, Any] = {}
        every_run: list[Run] = []
        for topic in topics:
            if args.topic and topic.name != args.topic:
                continue
            runs = [asyncio.run(run_interview(topic, iv, lib, embedder)) for iv in topic.interviews]
            views = [classify_nodes(r) for r in runs]
            score = Score()
            for run, nodes in zip(runs, views, strict=True):
                score.add(score_run(run, nodes))
                if args.show:
                    show_run(run, nodes)
            score.add(score_across(runs, views, embedder))
            total.add(score)
            rows.append((f"{set_name}/{topic.name}", score))
            card = question_card(runs)
            cards.append((f"{set_name}/{topic.name}", card))
            per_topic[topic.name] = {**figures(score), "questions": card.to_dict(flagged=False)}
            every_run += runs
        rows.append((f"{set_name} (all)", total))
        card = question_card(every_run)
        cards.append((f"{set_name} (all)", card))
        result[set_name] = {
            "all": {**figures(total), "questions": card.to_dict(flagged=False)},
            "topics": per_topic,
        }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(rows)
        print_cards(cards)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
