"""A transaction pooler in front of PostgreSQL, said by the URL (`?pooler=transaction`): parsed
once, the password still masked, and the flag never sent to the server. The storage tests run
through PgBouncer too (tests/bot/storage/conftest.py); the lease: test_leases.py."""

from __future__ import annotations

import pytest

from bot.storage import StorageError
from bot.storage.engines import locate
from bot.storage.postgres import without_pooler


def test_the_pooler_flag_is_read_and_shown_without_the_password() -> None:
    url = "postgresql://bot:hunter2@db.example.org:6432/six?pooler=transaction"
    where = locate(url)
    assert where.shown == "postgresql://bot:***@db.example.org:6432/six?pooler=transaction"
    assert "hunter2" not in repr(where)
    assert without_pooler(where.target) == ("postgresql://bot:hunter2@db.example.org:6432/six",
                                            True)


def test_other_parameters_stay_and_a_direct_url_is_left_alone() -> None:
    assert without_pooler("postgresql://db/six?pooler=transaction&sslmode=require") == (
        "postgresql://db/six?sslmode=require", True)
    assert without_pooler("postgresql://db/six?sslmode=require") == (
        "postgresql://db/six?sslmode=require", False)


@pytest.mark.parametrize("kind", ["session", "statement", ""])
def test_an_unknown_pooler_is_refused_saying_what_is_expected(kind: str) -> None:
    with pytest.raises(StorageError, match=r"pooler=transaction") as e:
        locate(f"postgresql://bot:hunter2@db/six?pooler={kind}")
    assert "hunter2" not in str(e.value)
