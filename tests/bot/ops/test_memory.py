"""The allocator's mmap threshold is fixed at start (glibc), unless the operator set it."""

from __future__ import annotations

import ctypes
import gc
import platform
from pathlib import Path

import pytest

from bot.ops import memory

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt only")


def _in_the_heap(buffer: bytearray) -> bool:
    """Whether a buffer lies in the main heap (brk), not in a mapping of its own."""
    address = ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer))
    for line in Path("/proc/self/maps").read_text().splitlines():
        span, *_, name = line.split()
        start, end = (int(x, 16) for x in span.split("-"))
        if name == "[heap]" and start <= address < end:
            return True
    return False


@glibc
def test_the_threshold_is_set_on_glibc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    assert memory.tame_malloc() is True


@glibc
def test_a_pictures_buffer_comes_from_the_heap_not_a_mapping_of_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a mapped buffer is faulted in page by page on each picture and unmapped when freed:
    # twice a picture's CPU (issue 21); from the heap, a freed one is reused as it is
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    memory.tame_malloc()
    buffer = bytearray(3 * 1024 * 1024)  # a duel table's RGBX
    assert _in_the_heap(buffer)


def test_an_operators_own_setting_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "1048576")
    assert memory.tame_malloc() is False


def test_after_start_up_what_is_loaded_is_out_of_the_collectors_sight() -> None:
    before = gc.get_threshold()
    try:
        loaded = [object() for _ in range(10)]  # stands for the modules and catalogs
        memory.tame_gc()
        assert gc.get_freeze_count() >= len(loaded)
        assert gc.get_threshold()[0] == memory.GC_YOUNG
        assert gc.get_threshold()[1:] == before[1:]  # the older generations as they were
        cycle: list[object] = []
        cycle.append(cycle)  # garbage made after start-up is still collected
        del cycle
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
