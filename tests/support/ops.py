"""Reading a bot process's ops port (SIXSHOOTER_METRICS_PORT): its /metrics as samples, its
/healthz as (status, body)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable
from typing import TypeVar

import httpx
from prometheus_client.parser import text_string_to_metric_families

T = TypeVar("T")
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ops_env(port: int, **extra: str) -> dict[str, str]:
    return {"SIXSHOOTER_METRICS_PORT": str(port), **extra}


async def metrics_text(port: int) -> str:
    async with httpx.AsyncClient(timeout=10) as client:
        response = await client.get(f"http://127.0.0.1:{port}/metrics")
    response.raise_for_status()
    return response.text


def samples(text: str) -> Samples:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def words(text: str) -> set[str]:
    """Every metric name, label name and label value of a scrape (what could carry an id;
    the values are numbers, whose digits may contain anything)."""
    return {w for family in text_string_to_metric_families(text) for s in family.samples
            for w in (s.name, *s.labels.keys(), *s.labels.values())}


def sample(found: Samples, name: str, **labels: str) -> float:
    """A sample's value (0 when absent, as a counter not yet counted)."""
    return found.get((name, frozenset(labels.items())), 0.0)


async def health(port: int) -> tuple[int, str]:
    async with httpx.AsyncClient(timeout=10) as client:
        response = await client.get(f"http://127.0.0.1:{port}/healthz")
    return response.status_code, response.text


async def until(check: Callable[[], Awaitable[T | None]], what: str, timeout: float = 30.0) -> T:
    """Call ``check`` (a scrape) until it returns something, for at most ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (value := await check()) is None:
        if loop.time() > deadline:
            raise TimeoutError(f"{what}: not within {timeout}s")
        await asyncio.sleep(0.1)
    return value
