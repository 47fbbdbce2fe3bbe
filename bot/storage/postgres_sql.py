"""PostgreSQL's own text, beside its engine (bot.storage.postgres): the repositories' `?`
parameters numbered, a command tag read, a URL read (its servers, its password masked), and the
catalog's queries `bot.storage.copy` asks (`Database.CATALOG`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from urllib.parse import parse_qsl, unquote, unquote_plus, urlsplit

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


# target_session_attrs a bot can work on (it writes); asyncpg reads the value itself.
SESSION_ATTRS = ("any", "read-write", "primary")
_MASK = "***"


def servers(url: str) -> list[tuple[str, int | None]]:
    """The servers a URL names, in the order they are tried: one, or several as libpq writes
    them (`host1:5432,host2:5432`, `[::1]:5432`); no port: the default. ValueError saying what
    is wrong with a host, a port, or `target_session_attrs`."""
    parts = urlsplit(url)
    found: list[tuple[str, int | None]] = []
    hostlist = parts.netloc.rpartition("@")[2]
    for spec in hostlist.split(",") if hostlist else []:
        if spec.startswith("["):
            host, closed, port = spec[1:].partition("]")
            if not closed or (port and not port.startswith(":")):
                raise ValueError(f"{spec!r} is not an IPv6 address in brackets")
            port = port[1:]
        else:
            host, _, port = spec.partition(":")
        if not host:
            raise ValueError(f"a server without a host in {hostlist!r}")
        if port and not (port.isdigit() and 0 < int(port) < 65536):
            raise ValueError(f"the port {port!r} of {unquote(host)!r} is not a port number")
        found.append((unquote(host), int(port) if port else None))
    for key, value in parse_qsl(parts.query):
        if key == "target_session_attrs" and value not in SESSION_ATTRS:
            raise ValueError(f"target_session_attrs={value!r}: the bot writes, so one of "
                             + ", ".join(SESSION_ATTRS))
    return found


def passwords(url: str) -> list[str]:
    """The passwords a URL carries (after the user, or `?password=`), as written and decoded:
    what no line may show."""
    parts = urlsplit(url)
    written = [parts.password] if parts.password else []
    written += [v for k, _, v in (p.partition("=") for p in parts.query.split("&"))
                if k == "password" and v]
    return list(dict.fromkeys(w for p in written for w in (p, unquote(p), unquote_plus(p))))


def redact_url(url: str) -> str:
    """A database URL as it may be shown: its password replaced (after the user, or in the
    query)."""
    parts = urlsplit(url)
    if parts.password is not None:
        user, _, hosts = parts.netloc.rpartition("@")
        parts = parts._replace(netloc=f"{user.partition(':')[0]}:{_MASK}@{hosts}")
    if parts.query:
        query = "&".join(f"{k}={_MASK}" if k == "password" else f"{k}{sep}{v}"
                         for k, sep, v in (p.partition("=") for p in parts.query.split("&")))
        parts = parts._replace(query=query)
    return parts.geturl()


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
