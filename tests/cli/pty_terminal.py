"""A real pseudo-terminal for end-to-end screen tests, and a small terminal model to read it.

``PtySession`` starts a command on a pty of a given size (so Rich and readline see a real
terminal: live displays, cursor movement, echo) and lets a test type, wait for text and
measure how much the program draws while it should be idle. ``Screen`` replays the bytes it
drew through the few controls Rich and readline use (carriage return, line feed, cursor up,
erase line, SGR colours) into the lines a person would see, scrollback included.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

_CSI = re.compile(rb"\x1b\[([0-9;?]*)([A-Za-z])")
_OSC = re.compile(rb"\x1b\][^\x07]*\x07")


class Screen:
    """What a terminal shows after a byte stream: every line that scrolled by and the rest."""

    def __init__(self, data: bytes) -> None:
        self.lines: list[list[str]] = [[]]
        self.row = 0
        self.col = 0
        self._feed(_OSC.sub(b"", data.replace(b"\x01", b"").replace(b"\x02", b"")))

    def _feed(self, data: bytes) -> None:
        pos = 0
        text = data.decode("utf-8", errors="replace")
        # Work on text, with the escape sequences found in it.
        for match in re.finditer(r"\x1b\[([0-9;?]*)([A-Za-z])", text):
            self._write(text[pos : match.start()])
            self._control(match.group(1), match.group(2))
            pos = match.end()
        self._write(text[pos:])

    def _write(self, text: str) -> None:
        for ch in text:
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self.row += 1
                while len(self.lines) <= self.row:
                    self.lines.append([])
            elif ch == "\b":
                self.col = max(0, self.col - 1)
            elif ch >= " ":
                line = self.lines[self.row]
                while len(line) < self.col:
                    line.append(" ")
                if self.col < len(line):
                    line[self.col] = ch
                else:
                    line.append(ch)
                self.col += 1

    def _control(self, args: str, final: str) -> None:
        count = int(args) if args.isdigit() else 1
        if final == "A":
            self.row = max(0, self.row - count)
        elif final == "B":
            self.row += count
            while len(self.lines) <= self.row:
                self.lines.append([])
        elif final == "K":
            line = self.lines[self.row]
            if args in ("", "0"):
                del line[self.col :]
            elif args == "2":
                line.clear()
            elif args == "1":
                for i in range(min(self.col + 1, len(line))):
                    line[i] = " "
        elif final == "G":
            self.col = max(0, count - 1)
        elif final == "C":
            self.col += count
        elif final == "D":
            self.col = max(0, self.col - count)

    @property
    def text(self) -> str:
        return "\n".join("".join(line).rstrip() for line in self.lines)


class PtySession:
    """One command on a pty: ``type`` keys, ``wait_for`` text, ``idle_bytes`` over a pause."""

    def __init__(
        self,
        args: list[str],
        *,
        cwd: Path,
        env: dict[str, str],
        cols: int = 120,
        rows: int = 40,
        stdout: Path | None = None,
    ) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        full_env = {**env, "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)}
        full_env.pop("NO_COLOR", None)
        # ``stdout``: a file instead of the terminal (stdin and stderr stay on it).
        out = stdout.open("wb") if stdout is not None else None
        self.process = subprocess.Popen(
            [sys.executable, "-m", "interview_cli", *args],
            stdin=slave,
            stdout=out if out is not None else slave,
            stderr=slave,
            cwd=cwd,
            env=full_env,
            start_new_session=True,
        )
        os.close(slave)
        if out is not None:
            out.close()
        self.master = master
        self.output = bytearray()

    def _pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], min(left, 0.05))
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the child closed the pty
                return
            if not data:
                return
            self.output.extend(data)

    def wait_for(self, text: str, *, times: int = 1, timeout: float = 60.0) -> None:
        """Read until the output (escape codes removed) holds ``text`` ``times`` times."""
        end = time.monotonic() + timeout
        while self.plain().count(text) < times:
            if time.monotonic() > end or self.process.poll() is not None:
                self._pump(0.2)
                if self.plain().count(text) >= times:
                    return
                raise AssertionError(f"{text!r} never appeared; the screen:\n{self.plain()}")
            self._pump(0.05)

    def idle_bytes(self, seconds: float) -> int:
        """How many bytes the program draws over ``seconds`` while nobody types."""
        before = len(self.output)
        self._pump(seconds)
        return len(self.output) - before

    def type(self, keys: str) -> None:
        for ch in keys:
            os.write(self.master, ch.encode())
            self._pump(0.01)

    def plain(self) -> str:
        return _CSI.sub(b"", bytes(self.output)).decode("utf-8", errors="replace")

    def screen(self) -> Screen:
        return Screen(bytes(self.output))

    def finish(self, timeout: float = 60.0) -> int:
        end = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < end:
            self._pump(0.1)
        self._pump(0.2)
        if self.process.poll() is None:
            self.process.kill()
        os.close(self.master)
        return self.process.wait(timeout=10)
