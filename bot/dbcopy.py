"""`sixshooter db copy SRC DST [--force]`: a whole database copied into another, printed.

SRC and DST are what SIXSHOOTER_DB takes (a SQLite path or sqlite:///path, or a postgresql://
URL). Both are opened as the bot opens them, so each is first migrated to the latest schema;
then `bot.storage.copy` copies every row in one transaction on DST and counts both again.
Printed: each table with its rows, then the total; locations with their passwords masked, and
never a value (bot_meta holds the webhook's secret: copied, not shown). Refusals are one line
on stderr and an exit code (`EXIT_CODES`).
"""

from __future__ import annotations

import asyncio
import sys
from contextlib import ExitStack
from pathlib import Path

from bot import instance
from bot.storage import Location, StorageError, locate
from bot.storage.copy import CopyReport, copy_between

EXIT_OK = 0
EXIT_MISMATCH = 1  # copied, but a table's rows or the schema versions differ after the copy
EXIT_REFUSED = 2  # a bad location, an unreachable database, or a target that has rows
EXIT_RUNNING = 3  # a sixshooter runs on one of the SQLite files
EXIT_CODES = f"""\
exit codes of db copy:
  {EXIT_OK}  copied, and every table's rows and the schema version match
  {EXIT_MISMATCH}  copied, but the counts or the schema versions differ (the lines say which)
  {EXIT_REFUSED}  a location is wrong or cannot be reached, or the target has rows (--force)
  {EXIT_RUNNING}  a sixshooter is running on one of the SQLite files: stop it first
"""


class Refused(Exception):
    def __init__(self, line: str, code: int = EXIT_REFUSED) -> None:
        super().__init__(line)
        self.code = code


def cli(source: str, target: str, *, force: bool = False) -> int:
    shown: dict[str, str] = {}  # each location (and password) as it may be shown
    try:
        src, dst = locate(source), locate(target)  # (their errors never show the URL)
        shown = {where.target: where.shown for where in (src, dst)}
        shown |= {secret: "***" for where in (src, dst) for secret in where.secrets}
        files = _files(src, dst)
        with ExitStack() as locks:
            for path in files:
                try:
                    locks.enter_context(instance.hold(path))
                except instance.AlreadyRunning as e:
                    raise Refused(str(e).split(";")[0] + "; stop it first", EXIT_RUNNING) from e
                except instance.LockError as e:
                    raise Refused(str(e)) from e
            report = asyncio.run(copy_between(src, dst, force=force))
    except (Refused, StorageError) as e:
        line = str(e)
        for where, masked in shown.items():
            line = line.replace(where, masked)
        print(f"sixshooter: {line}", file=sys.stderr)
        return e.code if isinstance(e, Refused) else EXIT_REFUSED
    for role, end in (("from", report.source), ("into", report.target)):
        print(f"{role} {end.path} ({end.engine}, migrated to the latest schema: "
              f"version {end.version})")
    for t in report.tables:
        print(f"  {t.table:<20} {t.target:>9}")
    print(f"  {'total':<20} {report.total:>9} rows in {len(report.tables)} tables")
    if not report.ok:
        for line in _mismatches(report):
            print(f"sixshooter: {line}", file=sys.stderr)
        return EXIT_MISMATCH
    print(f"checked: every table's rows match, both at schema version {report.target_version}")
    return EXIT_OK


def _files(source: Location, target: Location) -> list[Path]:
    """The files SRC and DST are in (to lock as the bot does); Refused for a missing source,
    or the same database twice."""
    src_file, dst_file = source.file, target.file
    if source.target == target.target or (
            src_file and dst_file and Path(src_file).resolve() == Path(dst_file).resolve()):
        raise Refused("SRC and DST are the same database; copy into another one")
    if src_file is not None and not Path(src_file).is_file():
        raise Refused(f"no database at {src_file!r} (SRC); give the path of an existing one")
    return [Path(f) for f in (src_file, dst_file) if f is not None and f != ":memory:"]


def _mismatches(report: CopyReport) -> list[str]:
    lines = [f"table {t.table}: {t.source} rows in the source, {t.target} in the target"
             for t in report.tables if t.source != t.target]
    if report.source_version != report.target_version:
        lines.append(f"schema versions differ: source {report.source_version}, "
                     f"target {report.target_version}")
    return lines
