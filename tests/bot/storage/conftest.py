"""The storage tests' database: a fresh, migrated one per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    storage = await Storage.open(tmp_path / "s.db")
    yield storage
    await storage.close()
