"""A test that lacks PostgreSQL or Chromium fails in CI and is skipped elsewhere."""

from __future__ import annotations

import pytest

from tests import ci


def test_what_is_missing_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ci, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="install chromium"):
        ci.missing("install chromium")


def test_what_is_missing_is_skipped_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ci, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="install chromium"):
        ci.missing("install chromium")
