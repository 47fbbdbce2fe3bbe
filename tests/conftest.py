"""The whole test process: python-telegram-bot opted in to its time periods as timedelta, as
`sixshooter run` does (bot/__main__.py). Its deprecated int form warns, and the suite runs with
warnings as errors (pyproject.toml)."""

from __future__ import annotations

import os

os.environ["PTB_TIMEDELTA"] = "1"
