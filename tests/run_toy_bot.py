"""Run the real bot process with only the toy game's cog (for subprocess tests)."""

import sys

import tests.support  # noqa: F401  (registers the toy engine)
from bot.runner import main

if __name__ == "__main__":
    sys.exit(main(cogs=("tests.toy",)))
