"""What a function of wahanorm is handed while it converts real inputs: the tests of the fast
paths hold each fast way equal to the whole way on exactly these values."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import wahanorm
from wahanorm.errors import BatchMemo


def first_arguments(
    paths: list[Path], owner: object, name: str, monkeypatch: pytest.MonkeyPatch
) -> list[Any]:
    """The first argument of every call of ``owner.name`` (a copy, as it was at the call) while
    ``paths`` are converted; each call still goes through to the function. The batch memos are
    emptied first: a text read by an earlier test is read again here."""
    seen: list[Any] = []
    real = getattr(owner, name)

    def noted(first: Any, *rest: Any, **named: Any) -> Any:
        seen.append(copy.copy(first))
        return real(first, *rest, **named)

    BatchMemo.clear_all()
    with monkeypatch.context() as patch:
        patch.setattr(owner, name, noted)
        wahanorm.convert(paths)
    return seen
