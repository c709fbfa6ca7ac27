"""How true is what the offline interviewer reads back at the close?

The last thing a respondent reads is the close: the check-back question ('Let me check I've
understood: "X" matters to you because "Y" ...', or a recap of what was talked about) and,
after their answer, the summary "What I understood", which they rate. Testers typing as people
talk rated that summary 1 or 2 of 4 round after round; this measures why, on the reading
corpora (``benchmarks/reading/``, scored as ``reading.py`` scores nodes: a phrase names a coded
rung when 60% of its content words lie in the rung's span).

Every laddering interview of the corpora is run through the real turn (offline provider) up to
its last answer, with the turn limit at its number of answers so that the next question is the
close; the closing answer is ``--answer`` ("yes, that's about right" by default: what the
summary shows when nothing is put right). Figures per set:

- read back: the quoted phrases of the check-back that name a coded rung of the interview;
- links sound: the reasons it reads back ("X" because "Y", and "which in the end matters
  because "Z"") whose two ends name coded rungs of different codes, the upper not of a lower
  level than the lower (a ladder goes up);
- summary items: the concepts of the summary ("→" steps and the "also:" list) that name a
  coded rung; summary lines all rungs: its lines every concept of which does;
- lines: summary lines per interview;
- codes covered: the interview's coded rungs (distinct codes) that some concept of the summary
  names: what a shorter summary leaves out.

An interview the interviewer closes before its answers run out is scored with nothing read
back (none does on the corpora today). Not a test: a few seconds an interview.

    python benchmarks/closing.py [--sets dev dev2 ...] [--topic ID] [--answer TEXT] [--show]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from reading import (
    MATCH_SHARE,
    SETS,
    CorpusError,
    CorpusInterview,
    Topic,
    _library,
    corpus_runner,
    load_set,
    pct,
    rung_share,
)

LEVELS = {
    "attribute": 0,
    "functional_consequence": 1,
    "psychosocial_consequence": 2,
    "instrumental_value": 3,
    "terminal_value": 4,
}
_QUOTED = re.compile(r'"([^"]+)"')
_LINK = re.compile(
    r'"([^"]+)"\s+(?:(?:matters\s+to|bothers)\s+you\s+)?because(?:\s+of)?\s+"([^"]+)"'
    r'(?:, which in the end matters because(?: of)? "([^"]+)")?'
)
ARROW = " \u2192 "


def read_back_links(question: str) -> list[tuple[str, str]]:
    """The reasons a check-back reads back, lower end first: '"X" because "Y", which in the
    end matters because "Z"' is X→Y and Y→Z."""
    links: list[tuple[str, str]] = []
    for low, high, top in _LINK.findall(question):
        links.append((low, high))
        if top:
            links.append((high, top))
    return links


def summary_items(summary: str) -> list[list[str]]:
    """The concepts of each line of a summary ("- a → b", "- also: c; d")."""
    lines = [line[2:] for line in summary.splitlines() if line.startswith("- ")]
    return [
        line[len("also: ") :].split("; ") if line.startswith("also: ") else line.split(ARROW)
        for line in lines
    ]


def code_of(phrase: str, topic: Topic, interview: CorpusInterview) -> str | None:
    """The coded rung of the interview the phrase names best, if it names one."""
    best = max(
        ((rung_share(phrase, s, t, topic), s.code) for t in interview.turns for s in t.rungs),
        default=(0.0, ""),
    )
    return best[1] if best[0] >= MATCH_SHARE else None


async def close(topic: Topic, interview: CorpusInterview, lib: Any, answer: str) -> tuple[str, str]:
    """The closing question asked after the interview's answers, and the summary after
    ``answer`` to it ("", "" when the interview closed before asking one)."""
    runner = corpus_runner(topic, interview, lib, max_turns=len(interview.turns))
    for turn in interview.turns:
        question = await runner.ensure_question()
        if question is None or runner.finished:
            break
        if (await runner.submit(turn.answer)).finished:
            break
    question = await runner.ensure_question()
    if question is None or runner.finished:
        return "", ""
    await runner.record_closing_answer(answer)
    return question.text, runner.learned_summary()


def score(
    tally: Counter[str], topic: Topic, interview: CorpusInterview, question: str, summary: str
) -> None:
    """Adds one interview's close to ``tally``."""
    codes = {p: code_of(p, topic, interview) for p in _QUOTED.findall(question)}
    tally["interviews"] += 1
    tally["phrases"] += len(codes)
    tally["rung_phrases"] += sum(1 for c in codes.values() if c)
    for low, high in read_back_links(question):
        a, b = codes.get(low), codes.get(high)
        tally["links"] += 1
        sound = a and b and a != b
        tally["sound"] += bool(sound) and LEVELS[topic.codes[b].type] >= LEVELS[topic.codes[a].type]
    covered: set[str] = set()
    for items in summary_items(summary):
        named = [code_of(item, topic, interview) for item in items]
        covered |= {c for c in named if c}
        tally["items"] += len(named)
        tally["rung_items"] += sum(c is not None for c in named)
        tally["lines"] += 1
        tally["clean_lines"] += all(c is not None for c in named)
    tally["codes"] += len({s.code for t in interview.turns for s in t.rungs})
    tally["covered"] += len(covered)


def row(name: str, t: Counter[str]) -> str:
    lines = f"{t['lines'] / t['interviews']:.1f}" if t["interviews"] else "-"
    return (
        f"{name:34} {t['interviews']:4} {pct(t['rung_phrases'], t['phrases']):>9} "
        f"{pct(t['sound'], t['links']):>11} {pct(t['rung_items'], t['items']):>13} "
        f"{pct(t['clean_lines'], t['lines']):>10} {lines:>6} {pct(t['covered'], t['codes']):>8}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--topic", help="only this topic (folder name)")
    parser.add_argument("--answer", default="yes, that's about right", help="the closing answer")
    parser.add_argument("--show", action="store_true", help="print each close (dev sets only)")
    args = parser.parse_args(argv)
    if args.show and any(s.startswith("holdout") for s in args.sets):
        print("--show on the held-out set spoils it", file=sys.stderr)
        return 2
    lib = _library()
    print(
        f"{'set / topic':34} {'ints':>4} {'read back':>9} {'links sound':>11} "
        f"{'summary items':>13} {'lines all':>10} {'lines':>6} {'covered':>8}"
    )
    for set_name in args.sets:
        try:
            topics = load_set(set_name)
        except CorpusError as exc:
            print(f"corpus: {exc}", file=sys.stderr)
            return 2
        total: Counter[str] = Counter()
        for topic in topics:
            if (args.topic and topic.name != args.topic) or not topic.name.endswith("_mec"):
                continue
            tally: Counter[str] = Counter()
            for interview in topic.interviews:
                question, summary = asyncio.run(close(topic, interview, lib, args.answer))
                if args.show:
                    print(f"=== {topic.name}/{interview.path.stem}\n  {question}\n{summary}")
                score(tally, topic, interview, question, summary)
            print(row(f"{set_name}/{topic.name}", tally))
            total.update(tally)
        print(row(f"{set_name} (all)", total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
