"""What the PostgreSQL server, the network or asyncpg can make a statement fail with, and such
a failure in one line (never the URL, which may carry a password). asyncpg's own client errors
(InternalClientError: a connection the server cut mid-operation, left in a wrong state) are
failures of the database too, not the bot's bugs."""

from __future__ import annotations

import asyncpg

FAILURES = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
            asyncpg.InternalClientError)


def describe(e: BaseException) -> str:
    """An error in one line, without the URL (which may carry a password)."""
    text = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {text}" if text else type(e).__name__
