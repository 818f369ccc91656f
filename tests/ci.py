"""What a test needs from the machine: in CI it fails without it, elsewhere it skips.

``.ci/run`` installs PostgreSQL and Chromium (and a copy of ``shared/`` sits beside the
clone), so in CI (``CI=true``) a test that cannot find them is a failure; on a developer's
machine without them it is skipped, saying what to install.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

#: Whether the tests run in CI (``CI`` set to 1, true or yes).
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing(reason: str) -> NoReturn:
    """Fail the test in CI, skip it elsewhere, with ``reason``."""
    if IN_CI:
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)
