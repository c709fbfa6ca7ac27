"""`interview run`'s moderator and respondent commands, consent and safety on the terminal.

The terminal respondent (``cli.terminal``) reads a line; the commands that act on the
interview itself are here: ``/ask TEXT``, ``/alt``, ``/skip``, ``/note TEXT`` (the
moderator's, ``pipeline.moderator``) and ``/pass`` (the respondent's). Consent is asked before
the first question when the concept carries a ``consent`` text, and a safety response
(``pipeline.safety``) is shown after the turn that called for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.panel import Panel
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console

    from interview_cli.pipeline.runner import Interview
    from interview_cli.session.schema import SafetyRecord

MODERATOR_COMMANDS = ("/ask", "/alt", "/skip", "/note")
WITH_TEXT = ("/ask", "/note")
PASS = "/pass"
VIEW_COMMANDS = ("/why", "/why full", "/graph", "/help")


def command_word(line: str) -> str:
    """The command a line starts with (lower case), or "" for an answer."""
    word = line.strip().split(maxsplit=1)[0].lower() if line.strip() else ""
    return word if word.startswith("/") else ""


def is_moderator_command(line: str) -> bool:
    return command_word(line) in MODERATOR_COMMANDS


def is_command(line: str) -> bool:
    """A line that is a command, not an answer: a moderator's command, a one-word command
    (/quit, /why, /pass ...) or a view with its argument (/why full)."""
    command = " ".join(line.strip().lower().split())
    return is_moderator_command(line) or (
        command.startswith("/") and (" " not in command or command in VIEW_COMMANDS)
    )


async def run_moderator_command(
    line: str, interview: Interview, *, console: Console, hooks: Any, screen: Any
) -> None:
    """Apply one moderator command; a command that cannot apply now says why and changes
    nothing. The new question (after /ask, /alt, /skip) is shown by the caller's loop."""
    from interview_cli.pipeline import moderator

    word = command_word(line)
    parts = line.strip().split(maxsplit=1)
    text = parts[1].strip() if len(parts) > 1 else ""
    if word in WITH_TEXT and not text:
        console.print(f"{word} needs a text: {word} TEXT", markup=False)
        screen.streamed = interview.session.pending_question
        return
    try:
        if word == "/note":
            moderator.add_note(interview, text)
            console.print(Text("Note kept with this turn.", style="dim"))
            screen.streamed = interview.session.pending_question
        elif word == "/ask":
            moderator.ask_instead(interview, text)
            console.print(Text("Your question replaces the tool's (recorded).", style="dim"))
            screen.streamed = None
        else:
            action = moderator.take_alternative if word == "/alt" else moderator.skip_focus
            what = "the next-best move" if word == "/alt" else "the focus is done, another move"
            await action(interview, hooks)
            # Said once it applied: a refused command changes nothing and says only why.
            console.print(Text(f"Moderator: {what} (recorded).", style="dim"))
            screen.done()
    except moderator.ModeratorRefused as exc:
        screen.close()
        console.print(Text(str(exc)))
        screen.streamed = interview.session.pending_question


def ask_consent(interview: Interview, *, console: Console, source: Any) -> bool | None:
    """Show the concept's consent text and read a yes or a no (asked again otherwise); the
    reply is recorded. None: input ended before a reply (the caller pauses)."""
    from interview_cli.pipeline.consent import consent_reply, record_consent

    text = interview.concept.consent or ""
    console.print(Panel(Text(text), title="Consent", title_align="left", border_style="cyan"))
    console.print("Do you agree to take part? (yes / no)")
    while True:
        reply = source.read(prompt="consent › ")
        if reply is None:
            return None
        agreed = consent_reply(reply)
        if agreed is not None:
            record_consent(interview.session, text, reply, agreed)
            interview.save()
            return agreed
        console.print("Please answer yes or no.")


def show_safety(record: SafetyRecord, console: Console) -> None:
    if record.message and record.action != "redirect":  # a redirect opens the next question
        console.print(Panel(Text(record.message), border_style="magenta"))
