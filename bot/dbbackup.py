"""`sixshooter db backup DEST [--db SRC]`: a checked copy of the bot's SQLite database, made
while the bot runs.

SRC is what SIXSHOOTER_DB takes (by default SIXSHOOTER_DB itself, else ./sixshooter.db). The
copy is `bot.storage.backup.Copy`: the bot's writes go on meanwhile, so unlike `db copy` this
does not take the bot's lock. A PostgreSQL database is not copied: the one line says to use
pg_dump or the server's own backups. Refusals are one line on stderr and an exit code
(`EXIT_CODES`); locations are shown with their passwords masked.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from bot.storage import StorageError, locate
from bot.storage.backup import BackupError, Copy

EXIT_OK = 0
EXIT_FAILED = 1  # the copy could not be written or failed its check (nothing was kept)
EXIT_REFUSED = 2  # a bad location, a missing database, or PostgreSQL (use its own backups)
EXIT_CODES = f"""\
exit codes of db backup:
  {EXIT_OK}  backed up and checked
  {EXIT_FAILED}  the copy could not be written or failed its check (nothing was kept)
  {EXIT_REFUSED}  a location is wrong, the database is missing, or it is PostgreSQL
"""
DEFAULT_DB = "sixshooter.db"  # bot.config's default (config imports storage: not imported here)
POSTGRES = ("{shown} is PostgreSQL: back it up with pg_dump -Fc or the server's own backups "
            "(README: Back up and restore)")


def cli(dest: str, source: str | None = None) -> int:
    where = source or os.environ.get("SIXSHOOTER_DB", "").strip() or DEFAULT_DB
    shown = ""
    try:
        location = locate(where)  # (its errors never show the URL)
        shown = location.shown
        if location.file is None:
            return _refuse(POSTGRES.format(shown=shown), EXIT_REFUSED)
        if location.file == ":memory:" or not Path(location.file).is_file():
            return _refuse(f"no database at {location.file!r}; give the bot's SQLite file "
                           "(--db, or SIXSHOOTER_DB)", EXIT_REFUSED)
        out = Path(dest)
        if not (out.is_dir() or out.parent.is_dir()):
            return _refuse(f"the directory {str(out.parent)!r} does not exist; create it or "
                           "back up elsewhere", EXIT_REFUSED)
        made = Copy(Path(location.file), out).run()
    except BackupError as e:
        return _refuse(str(e), EXIT_FAILED)
    except (StorageError, OSError) as e:
        return _refuse(str(e).replace(where, shown) if shown else str(e), EXIT_REFUSED)
    print(f"backed up {shown} to {made.path}: {made.size / 1e6:.1f} MB in {made.seconds:.1f} s, "
          "checked (quick_check ok)")
    return EXIT_OK


def _refuse(line: str, code: int) -> int:
    print(f"sixshooter: {line}", file=sys.stderr)
    return code
