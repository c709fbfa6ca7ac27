"""Signal pools (seed 001 "Signal Pools Architecture"): one detector per catalogue entry,
dependency-ordered detection and the carried response trend.

``detect_signals(SignalContext) -> DetectedSignals`` is the entry point. The catalogue that
lists every signal is configuration and lives in ``interview_cli.config.signal_catalogue``
(methodology validation checks weights against it); ``trend`` holds the smoothed engagement
state that replaces seed 000's momentum.
"""

from interview_cli.core.signals.base import (
    DETECTORS,
    CanonicalInfo,
    DetectedSignals,
    SignalContext,
    SignalValue,
)
from interview_cli.core.signals.detect import ORDER, dependency_order, detect_signals
from interview_cli.core.signals.trend import TrendState, trend_category, update_response_trend

__all__ = [
    "DETECTORS",
    "ORDER",
    "CanonicalInfo",
    "DetectedSignals",
    "SignalContext",
    "SignalValue",
    "TrendState",
    "dependency_order",
    "detect_signals",
    "trend_category",
    "update_response_trend",
]
