"""Retractions: "the brakes thing was a joke really", "that has nothing to do with the coffee".

INTERVIEWING.md "How people actually answer": jokes, asides and backstory are rapport, not
content; when the reader took one for content and asked about it, the respondent says so.
A moderator takes it back and moves on; a junk question asked twice costs more rapport than a
missed rung. The phrases (``lexicon/en/retraction.yaml``, group ``said`` what is taken back)
are blanked like any non-content span; here they name the node the answer disowns:

- what they named ("the brakes thing"): the earlier concept sharing the most words with it
  (``earlier.best_match``), else the question's focus (a reply takes back what it was asked);
- nothing named ("that was a joke", "I was only joking", "it's not a feature"): what the
  question was about, its focus;
- "what do you mean by 'good grief'?": their own words quoted back make no sense to them.

The extraction carries the labels as ``retracted``; the graph update disowns the nodes
(``KnowledgeGraph.disown``), so they are not asked about or read back until said again.
"""

from __future__ import annotations

from interview_cli.llm.offline.lexicon.phrases import phrase_patterns
from interview_cli.llm.offline.reading.earlier import best_match, earlier_nodes, words_of
from interview_cli.llm.protocol import ExtractRequest

# Words that point without naming: "this isn't relevant" judges the question.
_POINTING = frozenset("this that it these those which what".split())


def retracted_labels(request: ExtractRequest) -> list[str]:
    """Labels of the earlier nodes the answer takes back, in the order it does."""
    found: list[str] = []
    candidates = earlier_nodes(request)
    for pattern in phrase_patterns("retraction"):
        for match in pattern.finditer(request.answer):
            said = (match.groupdict().get("said") or "").strip()
            if said and not words_of(said) - _POINTING:
                continue  # "this isn't relevant": the question judged, nothing taken back
            earlier = best_match(said, candidates) if said else None
            # what they named is no earlier node ("the dentist thing" for "dental
            # receptionist"): in reply to a question, what they take back is what it asked about
            label = earlier.label if earlier is not None else request.focus_label
            if label and label not in found:
                found.append(label)
    return found


__all__ = ["retracted_labels"]
