"""`python -m interview_cli` and the `interview` console script: the app, started light.

Start-up: importing Typer, Rich and the command declarations allocates some
hundred thousand objects that live as long as the process. The collector would walk them
again and again while they are made, and once more at exit; frozen after the import
(``gc.freeze``), it never looks at them again. That is about a fifth of `interview --help`.
Objects made later, by the command itself, are collected as usual.
"""

from __future__ import annotations

import gc


def main() -> None:
    collecting = gc.isenabled()
    gc.disable()
    try:
        from interview_cli.cli.app import main as run
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
    run()


if __name__ == "__main__":
    main()
