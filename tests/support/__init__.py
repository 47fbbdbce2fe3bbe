"""Test support shared by the end-to-end tests and the benchmarks (no fixtures here).

* ``fakeapi``: a fake Telegram Bot API server that checks requests like Telegram does.
* ``botprocess``: the real bot as a subprocess against the fake (``BotProcess``).
* ``driver``: playing the bot as people do through the fake: challenge, accept, tap, read.
* ``stored``: the bot's database read through the bot's own repositories.
* ``forcing``: playing a duel to a chosen end (a draw, a tiebreak).
* ``sixcard``: a six-card poker player with a plan.

``bench/`` imports these directly; ``tests/e2e/conftest.py`` wraps them in fixtures.
"""
