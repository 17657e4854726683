"""``python -m littrace.cli``: the command line."""

from littrace.cli.app import app

if __name__ == "__main__":
    app()
