"""`sixshooter demo`: two AI players play a whole duel offline; every picture and the
transcript are written (no token, no network), and the same seed gives the same duel."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.__main__ import main
from bot.duel import demo


def test_a_demo_writes_every_picture_and_the_transcript(tmp_path: Path) -> None:
    written = demo.play(tmp_path / "d", lang="ru", levels=("easy", "normal"), seed=7)
    pictures, transcript = written[:-1], written[-1]
    text = transcript.read_text(encoding="utf-8")
    taps = text.count(">>> ")
    assert len(pictures) == taps + 1  # one table per turn, then the result
    assert pictures[-1].name.endswith("_result.png")
    for p in pictures:
        with Image.open(p) as im:
            assert im.format == "PNG" and im.width <= 1200
    assert text.count("== header (edited) ==") >= 2  # each deal's commitment, as it is dealt
    assert "Хеш колоды раунда 1" in text and "== result ==" in text
    assert "Разбор" in text and "Анна: точность " in text and "Дмитрий: точность " in text
    assert "<b>" not in text and "&lt;" not in text  # captions as people read them
    again = demo.play(tmp_path / "e", lang="ru", levels=("easy", "normal"), seed=7)
    assert again[-1].read_text(encoding="utf-8").replace("/e/", "/d/") == text


def test_the_command_needs_no_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    assert main(["demo", str(tmp_path / "out"), "--levels", "random", "easy"]) == 0
    said = capsys.readouterr().out
    assert "transcript" in said and str((tmp_path / "out").resolve()) in said
    assert (tmp_path / "out" / "transcript.txt").exists()
    assert main(["demo", str(tmp_path / "x"), "--levels", "easy", "genius"]) == 2
