"""Where `interview run` reads answers: the terminal (with line editing) or one line of piped
stdin each, cleaned of control characters and decoded whatever the bytes."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console


def clean_answer(raw: str) -> str:
    """Strip terminal escape sequences and other control characters (NULs, bells) but keep
    tabs, newlines, every script and emoji (with their zero-width joiners): the same cleaning
    as model text gets at the LLM boundary."""
    from interview_cli.llm.boundary import strip_controls

    return strip_controls(raw).strip()


def decode_answer(raw: bytes | str) -> tuple[str, bool]:
    """A line of input as text, and whether it held bytes that are not UTF-8 (each becomes
    U+FFFD). A ``str`` from a text stream carries such bytes as lone surrogates
    (``surrogateescape``), which cleaning would silently drop: they are replaced too."""
    if isinstance(raw, bytes):
        text = raw.decode("utf-8", errors="replace")
        return text, text != raw.decode("utf-8", errors="ignore")
    if any("\udc80" <= ch <= "\udcff" for ch in raw):
        data = raw.encode("utf-8", errors="surrogateescape")
        return data.decode("utf-8", errors="replace"), True
    return raw, False


NOT_UTF8_NOTICE = (
    "your answer held bytes that are not UTF-8 text; each was replaced by \ufffd "
    "(set the terminal or input file to UTF-8)"
)


def _enable_line_editing() -> bool:
    """Load readline, which gives ``input()`` arrow keys, editing and history; without it an
    arrow key types "^[[D" into the answer. It is missing on some platforms (Windows)."""
    try:
        import readline  # noqa: F401
    except ImportError:
        return False
    return True


def _readline_prompt(console: Console, prompt: str) -> str:
    """``prompt`` styled for ``input()``: readline must be told which bytes take no columns
    (``\\001``…``\\002`` around each escape code), or editing redraws over the prompt."""
    with console.capture() as captured:
        console.print(Text(prompt, style="bold green"), end="")
    return re.sub(r"(\x1b\[[0-9;]*m)", "\x01\\1\x02", captured.get())


class AnswerSource:
    """One answer per call: the terminal when interactive, else one line of stdin each."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.last: str | None = None  # the last line read
        self.interactive = sys.stdin.isatty() and console.is_terminal
        if self.interactive:
            _enable_line_editing()
            # input() decodes with the stream's error handler; "strict" (most UTF-8 locales)
            # would end the interview on one stray byte. Kept as surrogates, decode_answer
            # turns them into U+FFFD with a notice.
            reconfigure = getattr(sys.stdin, "reconfigure", None)
            if reconfigure is not None:
                try:
                    reconfigure(errors="surrogateescape")
                except (ValueError, OSError):
                    pass

    def read(
        self, prompt: str = "you › ", *, allow_empty: bool = False, echo: bool = True
    ) -> str | None:
        """The next non-empty line (or any line with ``allow_empty``), None at end of input.
        Piped lines are echoed after ``prompt``, so the transcript shows them, unless
        ``echo`` is False: the caller then echoes (:meth:`echo`) once the answer is on disk,
        so that no transcript shows an answer a crash lost."""
        from interview_cli.cli.common import print_warning
        from interview_cli.llm.boundary import answer_notice

        while True:
            if self.interactive:
                try:
                    line = input(_readline_prompt(self.console, prompt))
                except EOFError:
                    self.console.line()  # Ctrl-D leaves the cursor on the prompt line
                    return None
                except KeyboardInterrupt:
                    self.console.line()  # so "Paused…" does not follow "^C" on the prompt line
                    raise
            else:
                # Bytes, not text: a stream decoder would fail or hide bytes that are not UTF-8.
                stream = getattr(sys.stdin, "buffer", sys.stdin)
                line = stream.readline()
                if not line:
                    return None
            line, replaced = decode_answer(line)
            if replaced:
                print_warning(NOT_UTF8_NOTICE)
            text = clean_answer(line)
            self.last = text  # before the echo: an interruption may come while it prints
            notice = answer_notice(len(text))
            if notice:
                print_warning(notice)
            if text or allow_empty:
                if echo:
                    self.echo(text, prompt)
                return text

    def echo(self, text: str, prompt: str = "you › ") -> None:
        """A piped line as the transcript shows it (a person at the terminal saw it typed)."""
        if text and not self.interactive:
            shown = text if len(text) <= 400 else text[:400] + "…"
            # Text, not markup: an answer like "I like [/] brackets" is kept as typed.
            self.console.print(Text.assemble((prompt, "bold green"), shown))
