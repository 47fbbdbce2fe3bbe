"""PostgreSQL's own text, beside its engine (bot.storage.postgres): the repositories' `?`
parameters numbered, a command tag read, a URL's password masked, and the catalog's queries
`bot.storage.copy` asks (`Database.CATALOG`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from urllib.parse import urlsplit

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")


@lru_cache(maxsize=2048)
def numbered_sql(sql: str) -> str:
    """`?` parameters as PostgreSQL's `$1, $2, …` (a `?` inside a quoted string stays)."""
    n = 0

    def number(m: re.Match[str]) -> str:
        nonlocal n
        if m.group(0) != "?":
            return m.group(0)
        n += 1
        return f"${n:d}"

    return _PLACEHOLDER.sub(number, sql)


def redact_url(url: str) -> str:
    """A database URL as it may be shown: its password replaced."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def changed(status: str) -> int:
    """Rows a statement changed, from its command tag ('UPDATE 3', 'INSERT 0 1', ...)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


CATALOG: Mapping[str, str] = {
    "references": "SELECT f.relname FROM pg_constraint c JOIN pg_class f"
                  " ON f.oid = c.confrelid WHERE c.contype = 'f'"
                  " AND c.conrelid = CAST(? AS text)::regclass",
    "key": "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
           " AND a.attnum = ANY (i.indkey)"
           " WHERE i.indrelid = CAST(? AS text)::regclass AND i.indisprimary"
           " ORDER BY array_position(i.indkey::int2[], a.attnum)",
    "identity": "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = ?"
                " AND is_identity = 'YES'",
}
