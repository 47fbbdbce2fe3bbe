"""The C allocator and the cycle collector told how the bot uses memory.

Each picture is composed in buffers of a few megabytes (a 720 x 1000 duel table is 2.9 MB of
RGBX) in the drawing thread, many times a second under load. glibc's malloc serves blocks that
big with mmap at first and raises its threshold (and with it the trim threshold, the free memory
kept at the heap's top) each time one is freed. The threshold is fixed here at glibc's own
ceiling, 32 MiB: every picture's buffer comes from the heap, where a freed one is reused with its
pages already in place, and the heap's free top goes back to the system past 128 KiB as before.

It was 256 KiB until issue 21's last stop: every buffer was then mapped, faulted in page by
page and unmapped again, which doubled a picture's CPU (bench/render.py, which runs under this
setting: table 4.41 ms against 2.49 ms). bench/bot_load.py, 200 duels flat out, three rounds
alternating: 78.4, 78.7, 69.6 taps per CPU-second with 256 KiB against 86.9, 100.0, 74.5 with
32 MiB, peak 170 to 172 MB either way. Only on glibc (elsewhere nothing to do); an operator's
own MALLOC_MMAP_THRESHOLD_ wins.

The cycle collector (`tame_gc`, once the bot is up) traversed the modules, catalogs and fonts
loaded at start-up in every full collection, and a young collection every 700 allocations
promoted the objects of the taps in flight. Frozen and at `GC_YOUNG`: 1.06x taps per
CPU-second (bench/bot_load.py, 200 duels, three rounds alternating), peak memory unchanged.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
MMAP_THRESHOLD = 32 * 1024 * 1024  # bytes: glibc's ceiling; a picture's buffers stay in the heap


def tame_malloc() -> bool:
    """Fix glibc's mmap threshold for this process; True if it was set here."""
    if "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl, macOS): its own allocator's ways
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    done = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    if not done:
        log.debug("mallopt(M_MMAP_THRESHOLD) refused")
    return done


GC_YOUNG = 20_000  # allocations between young collections (CPython's default: 700)


def tame_gc() -> None:
    """After start-up: what is loaded by now (modules, catalogs, fonts) lives as long as the
    process, so it is moved out of the collector's sight (`gc.freeze`), and the youngest
    generation is collected every `GC_YOUNG` allocations, not every 700."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, older, oldest)
