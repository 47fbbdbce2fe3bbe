"""Arabic and Persian (issue 39): right-to-left captions and their plural rules.

A Telegram client lays out each line of a message by its first strong letter, so a line of an
Arabic or Persian caption that starts with a name or a /command would be laid out left to right.
Such lines start with a RIGHT-TO-LEFT MARK. Arabic has six plural forms (CLDR zero, one, two,
few, many, other); Persian keeps the noun singular after a number.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from bot.i18n import LANGUAGES, Texts, load_catalog

RLM = "\u200f"
RTL = [lang for lang in ("ar", "fa") if lang in LANGUAGES]
# Texts that are not lines of their own: picture texts (drawn right to left by render/), and
# the fragments put inside other texts (hand and rank names, counts, durations, months).
FRAGMENTS = ("pic.", "hand.", "hand_lc.", "rank.", "showdown.hand.", "showdown.than.", "chips",
             "time.", "sixcard.hours", "sixcard.minutes", "tournament.days", "tournament.hours",
             "language.name", "stats.none", "stats.streak_", "season.")


@pytest.fixture(scope="module")
def texts() -> Texts:
    return Texts.load(strict=True)


def first_strong(line: str) -> str:
    """The bidi class of a line's first strong letter ("L", "R", "AL"; "" if none); a
    placeholder counts as Latin (a name may fill it)."""
    for char in re.sub(r"<[^>]+>", "", line):
        if char == "{":
            return "L"
        kind = unicodedata.bidirectional(char)
        if kind in ("L", "R", "AL"):
            return kind
    return ""


@pytest.mark.parametrize("lang", RTL)
def test_every_caption_line_reads_right_to_left(lang: str) -> None:
    wrong = []
    for message in load_catalog(lang):
        key = str(message.id[0] if isinstance(message.id, tuple) else message.id)
        if not key or key.startswith(FRAGMENTS):
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            for line in str(form).split("\n"):
                if line and first_strong(line) not in ("R", "AL"):
                    wrong.append(f"{key}: {line!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", RTL)
def test_picture_texts_carry_no_direction_marks(lang: str) -> None:
    """render/ lays the pictures' texts out itself: an invisible mark there would be drawn."""
    for message in load_catalog(lang):
        key = str(message.id[0] if isinstance(message.id, tuple) else message.id)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if key.startswith(("pic.", "hand.")):
            assert not any(re.search("[\u200e\u200f\u202a-\u202e\u2066-\u2069]", str(f))
                           for f in forms), key


@pytest.mark.parametrize(("n", "text"), [
    (0, "0 رقاقة"), (1, "رقاقة واحدة"), (2, "رقاقتان"), (3, "3 رقاقات"), (10, "10 رقاقات"),
    (11, "11 رقاقة"), (50, "50 رقاقة"), (99, "99 رقاقة"), (100, "100 رقاقة"),
    (102, "102 رقاقة"), (103, "103 رقاقات"), (111, "111 رقاقة"), (1000, "1000 رقاقة"),
])
def test_arabic_plurals(texts: Texts, n: int, text: str) -> None:
    if "ar" not in LANGUAGES:
        pytest.skip("ar is not shipped")
    assert texts["ar"].tn("chips", n) == text


def test_arabic_names_a_winner_without_a_verb_of_a_gender(texts: Texts) -> None:
    """A verb in Arabic agrees with a gender the bot does not know; the texts that name who
    won or paid make the chips the subject, or use a noun ("الفوز لـ")."""
    if "ar" not in LANGUAGES:
        pytest.skip("ar is not shipped")
    assert texts["ar"].tn("reveal.showdown", 2, name="Bob") == "تذهب رقاقتان إلى Bob."
    assert texts["ar"].t("history.won", name="Anna") == "🏆 الفوز لـAnna"
    assert texts["ar"].plural("pic.duel.showdown", 5, w="Bob") == "كشف الأوراق: 5 رقاقات لـBob"


@pytest.mark.parametrize("n", [0, 1, 2, 5, 21, 100])
def test_persian_nouns_stay_singular_after_a_number(texts: Texts, n: int) -> None:
    if "fa" not in LANGUAGES:
        pytest.skip("fa is not shipped")
    chips = texts["fa"].tn("chips", n)
    assert chips.endswith(" ژتون") and "ها" not in chips
