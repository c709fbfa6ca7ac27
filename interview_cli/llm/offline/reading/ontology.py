"""What the offline heuristics need to know about a methodology's ontology.

A read-only view over ``OntologySpec``: levels, the best node type for a semantic category
at a target level, and the relation that permits an edge between two types. Everything is
derived from the YAML (names, descriptions, examples, levels, permitted connections), which
is how one set of heuristics serves laddering, jobs-to-be-done and critical-incident
interviews alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from interview_cli.config.schemas import NodeTypeSpec, OntologySpec
from interview_cli.llm.offline.lexicon import (
    CATEGORY_KEYWORDS,
    CATEGORY_POSITION,
    CAUSAL_RELATION_WORDS,
    NON_CAUSAL_RELATION_WORDS,
    SCALE_CATEGORIES,
    STORY_TYPE_WORDS,
    TERMINAL_CATEGORIES,
)

_WORD = re.compile(r"[a-z]+")

# Weights of the type-choice score (see ``OntologyView.choose_type``).
AFFINITY_WEIGHT = 2.0
LEVEL_DISTANCE_WEIGHT = 0.7
CONNECT_BONUS = 0.8
DIRECTION_PENALTY = 3.0
SUPPORT_AFFINITY = 0.45
# A category's affinity to a node type at which its words point clearly at that type.
STRONG_AFFINITY = 0.8
# A pain and a gain are one kind of element held two ways: how the respondent holds it says
# which ("the one nice moment before chaos" is a gain, whatever "chaos" suggests).
_POLES = {"pain": ("gain", 1), "gain": ("pain", -1)}


@dataclass
class OntologyView:
    ontology: OntologySpec
    _affinity: dict[tuple[str, str], float] = field(default_factory=dict)

    @property
    def nodes(self) -> list[NodeTypeSpec]:
        return self.ontology.nodes

    @property
    def min_level(self) -> int:
        return min(n.level for n in self.nodes)

    @property
    def max_level(self) -> int:
        return max(n.level for n in self.nodes)

    def level(self, node_type: str | None) -> int | None:
        spec = self.ontology.node_type(node_type) if node_type else None
        return spec.level if spec else None

    def level_at(self, position: float) -> float:
        """A 0..1 position on the concrete-abstract scale as a level of this ontology."""
        return self.min_level + position * (self.max_level - self.min_level)

    def affinity(self, category: str, spec: NodeTypeSpec) -> float:
        """How well a node type fits a semantic category.

        From its name (strong; earlier keywords of a category count more, and a keyword
        shared by several type names counts less: "job" says little in an ontology of
        job_* types), its description and examples (weak), and its terminal flag for
        end-of-chain categories (values, lessons, changed behaviour).
        """
        key = (category, spec.name)
        if key not in self._affinity:
            keywords = CATEGORY_KEYWORDS.get(category, ())
            name_words = set(spec.name.lower().split("_"))
            text_words = set(_WORD.findall(f"{spec.description} {' '.join(spec.examples)}".lower()))
            best = 0.0
            for rank, keyword in enumerate(keywords):
                if keyword in name_words:
                    sharing = sum(1 for n in self.nodes if keyword in n.name.lower().split("_"))
                    best = max(best, max(0.5, 1.0 - 0.1 * rank) / sharing)
            hits = sum(1 for keyword in keywords if keyword in text_words)
            terminal = 0.3 if spec.terminal and category in TERMINAL_CATEGORIES else 0.0
            self._affinity[key] = best + min(0.3, 0.15 * hits) + terminal
        return self._affinity[key]

    @property
    def about_events(self) -> bool:
        """The ontology is about events (a critical incident's): a story of the past is its
        matter, and one event told after another in a sentence is the story going on."""
        return any(set(n.name.lower().split("_")) & STORY_TYPE_WORDS for n in self.nodes)

    def supports(self, category: str) -> bool:
        """Whether some node type fits the category well enough to use it."""
        if category in SCALE_CATEGORIES:
            return True
        return any(self.affinity(category, spec) >= SUPPORT_AFFINITY for spec in self.nodes)

    def relation(self, source_type: str, target_type: str, *, linking: bool = True) -> str | None:
        """The relation that permits source -> target, or None.

        ``linking`` (the default) skips relations whose names say they are not links between
        means and ends (``contrasts_with``, ``revises``): a "because" never makes a revision.
        Among the rest, names that say "leads", "causes", "enables" ... come first, then
        ontology order.
        """
        candidates = []
        for index, edge in enumerate(self.ontology.edges):
            if (source_type, target_type) not in {tuple(p) for p in edge.permitted_connections}:
                continue
            words = set(edge.name.lower().split("_"))
            if linking and words & set(NON_CAUSAL_RELATION_WORDS):
                continue
            causal = bool(words & set(CAUSAL_RELATION_WORDS))
            candidates.append((not causal, index, edge.name))
        return min(candidates)[2] if candidates else None

    def choose_type(
        self,
        *,
        category: str | None,
        target_level: float,
        previous_type: str | None = None,
        direction: str = "none",
    ) -> str:
        """The node type for a clause.

        score = 2.0 x category affinity - 0.7 x |level - target level|
                + 0.8 if an edge from the previous clause's type is permitted
                - 3.0 if the type breaks the link's direction (an "up" link to a lower
                  level, or to the same level without a permitted edge; "down" likewise).
        Ties go to the more concrete type, then to file order, so the choice is stable.
        """
        prev_level = self.level(previous_type)
        has_higher = prev_level is not None and any(n.level > prev_level for n in self.nodes)
        has_lower = prev_level is not None and any(n.level < prev_level for n in self.nodes)
        best: tuple[float, int, int, str] | None = None
        for index, spec in enumerate(self.nodes):
            score = 0.0
            if category:
                score += AFFINITY_WEIGHT * self.affinity(category, spec)
            score -= LEVEL_DISTANCE_WEIGHT * abs(spec.level - target_level)
            if previous_type is not None:
                if direction == "down":
                    connected = self.relation(spec.name, previous_type) is not None
                else:
                    connected = self.relation(previous_type, spec.name) is not None
                if connected:
                    score += CONNECT_BONUS
                # An upward link must climb, except to a same-level element the ontology
                # lets it reach ("consequences may lead to further consequences").
                if direction == "up" and has_higher and prev_level is not None:
                    if spec.level < prev_level or (spec.level == prev_level and not connected):
                        score -= DIRECTION_PENALTY
                if direction == "down" and has_lower and prev_level is not None:
                    if spec.level > prev_level or (spec.level == prev_level and not connected):
                        score -= DIRECTION_PENALTY
            candidate = (-score, spec.level, index, spec.name)
            if best is None or candidate < best:
                best = candidate
        assert best is not None
        return best[3]

    def position(self, category: str | None) -> float | None:
        return CATEGORY_POSITION.get(category) if category else None

    def held_as_said(self, node_type: str, stance: int) -> str:
        """``node_type``, or the type of its opposite pole at the same level when the clause
        is plainly held the other way (a pain point said with liking is a gain point)."""
        spec = self.ontology.node_type(node_type)
        if spec is None or stance == 0:
            return node_type
        for pole, (other, sign) in _POLES.items():
            if stance != sign or self.affinity(pole, spec) < STRONG_AFFINITY:
                continue
            same_level = [n for n in self.nodes if n.level == spec.level and n.name != node_type]
            best = max(same_level, key=lambda n: self.affinity(other, n), default=None)
            if best is not None and self.affinity(other, best) >= STRONG_AFFINITY:
                return best.name
        return node_type
