"""Run the real bot process with only the Tinker cog (for subprocess tests and benchmarks)."""

import sys

from bot.runner import main

if __name__ == "__main__":
    sys.exit(main(cogs=("cogs.tinker",)))
