"""The project's one exception family.

Every error a user can cause or meet carries a message written for that user, with any
credential in it redacted (``safe_text.redact_secrets``); only the CLI layer prints it (one
line, exit code from ``exit_code``), and ``--debug`` re-raises it with its traceback.

    InterviewError                 exit 1 unless a subclass says otherwise
    ├── UsageError                 exit 2: a bad option value, a missing id
    ├── ConfigError                exit 2: a methodology, concept, persona or settings file is wrong
    │                              (``problems`` lists every ``file: key.path: message``)
    ├── SessionFileError           exit 2: a session file is not JSON, truncated, newer, no session
    ├── SessionLockedError         exit 2: another process holds the session's lock
    ├── FileSystemError            exit 2 (1 when a running session cannot be saved): a
    │                              directory or file cannot be read or written (names the path)
    └── LLMError                   exit 1: a model call failed after its retries
                                   (names provider, model, task and cause; never a key)
"""

from __future__ import annotations

from collections.abc import Sequence

from interview_cli.safe_text import redact_secrets


class InterviewError(Exception):
    """Base of every error meant for the user."""

    exit_code: int = 1

    def __init__(self, message: str) -> None:
        # Messages quote base URLs and provider errors, which may carry a key: never shown.
        message = redact_secrets(message)
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UsageError(InterviewError):
    exit_code = 2


class ConfigError(InterviewError):
    """A library or settings file failed to load or validate.

    ``problems`` holds one line per problem (``file: key.path: message``); ``message`` is the
    first of them, or a summary when there are several.
    """

    exit_code = 2

    def __init__(self, message: str, problems: Sequence[str] | None = None) -> None:
        self.problems: list[str] = [redact_secrets(p) for p in problems or [message]]
        super().__init__(message)


class SessionFileError(InterviewError):
    exit_code = 2


class SessionLockedError(InterviewError):
    exit_code = 2


class FileSystemError(InterviewError):
    """The file system refused: permission, read-only, no space, a file where a directory
    should be. Made by ``interview_cli.config.files.translate_os_error`` (the message names the path
    and what to do)."""

    exit_code = 2

    def __init__(self, message: str, *, exit_code: int | None = None, errno: int = 0) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code
        self.errno = errno


class LLMError(InterviewError):
    """A language-model call failed for good (after retries)."""

    exit_code = 1

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        model: str = "",
        task: str = "",
        cause: str = "",
    ) -> None:
        super().__init__(message)
        self.provider = provider
        self.model = model
        self.task = task
        self.cause = redact_secrets(cause)
