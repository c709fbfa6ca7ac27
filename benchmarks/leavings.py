"""How well does the offline assessor hear a respondent leaving now?

A respondent who says goodbye and is asked another question has been ignored; one whose story
mentions a going ("I have to go to work at 6 so ...") and is thanked and let go has been cut
off. The assessor's ``tiring`` (``reading.assessor.assess_offline``, the call the interview
makes on every answer) must hear the first and not the second. Figures per corpus:

- heard: the ``heard`` answers it hears as leaving or tiring now;
- told: the ``told`` answers it hears so anyway (false leavings).

Corpora: ``tests/llm/data/readings/leavings.yaml`` (dev: the leavings of typed interviews and
reviews, each a test case; the rules were written against them) and
``benchmarks/leavings/holdout.yaml`` (held out: written by a helper who had not read the rules;
measure only). ``--show`` lists what each set misses and mishears.

    python benchmarks/leavings.py [--show]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.reading.assessor import assess_offline
from interview_cli.llm.protocol import AssessRequest

ROOT = Path(__file__).resolve().parents[1]
CORPORA = {
    "dev": ROOT / "tests" / "llm" / "data" / "readings" / "leavings.yaml",
    "holdout": ROOT / "benchmarks" / "leavings" / "holdout.yaml",
}
QUESTION = "Why does that matter to you?"


def hears(answer: str) -> bool:
    """The assessor hears ``answer`` as the respondent leaving or tiring now."""
    return assess_offline(AssessRequest(question=QUESTION, answer=answer)).tiring


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="list the misses and mishearings")
    args = parser.parse_args()
    print(f"{'set':<10}{'heard':>14}{'told (false)':>16}")
    for name, path in CORPORA.items():
        corpus = load_yaml(path.read_text(encoding="utf-8"))
        missed = [a for a in corpus["heard"] if not hears(a)]
        misheard = [a for a in corpus["told"] if hears(a)]
        heard, told = len(corpus["heard"]), len(corpus["told"])
        caught = heard - len(missed)
        print(
            f"{name:<10}{caught:>6}/{heard:<4}{100 * caught / heard:>3.0f}%"
            f"{len(misheard):>8}/{told:<4}{100 * len(misheard) / told:>3.0f}%"
        )
        if args.show:
            for answer in missed:
                print(f"  missed:    {answer}")
            for answer in misheard:
                print(f"  misheard:  {answer}")


if __name__ == "__main__":
    main()
