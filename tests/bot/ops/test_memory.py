"""The allocator's mmap threshold is fixed at start (glibc), unless the operator set it."""

from __future__ import annotations

import platform

import pytest

from bot.ops import memory


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt only")
def test_the_threshold_is_set_on_glibc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    assert memory.tame_malloc() is True


def test_an_operators_own_setting_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "1048576")
    assert memory.tame_malloc() is False
