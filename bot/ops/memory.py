"""The C allocator told how the bot uses memory, before anything is drawn.

Each picture is composed in buffers of a few megabytes (a 960 x 1125 table is 3.2 MB of RGB)
in the drawing thread, many times a second under load. glibc's malloc serves blocks that big
with mmap at first, but raises its threshold each time one is freed, after which they come
from the thread's heap and fragment it. Fixing M_MMAP_THRESHOLD gives such blocks back to the
system as soon as they are freed (bench/bot_load.py, 40 duels flat out, three runs each
alternating: peak 216 MB mean without, 207 MB with; the taps per CPU-second unchanged).
Only on glibc (elsewhere nothing to do); an operator's own MALLOC_MMAP_THRESHOLD_ wins.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
MMAP_THRESHOLD = 256 * 1024  # bytes: blocks this big or bigger are mapped, and unmapped when freed


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
