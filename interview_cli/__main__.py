"""`python -m interview_cli` runs the same app as the `interview` console script."""

from interview_cli.cli.app import main

if __name__ == "__main__":
    main()
