"""One term per thing in every language (issue 39, point 1).

bot/locales/TERMS.md names the game's key concepts, the catalog keys each must appear in, and
for each language the word it uses and the words it must not use. These tests hold every
catalog to it, for each language that has a section there and ships (bot.i18n.LANGUAGES): a
concept's word is in every text of its keys (buttons, captions, pictures, /rules), and a
banned word is in none of the texts it is banned from.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from bot.i18n import LANGUAGES, load_catalog

TERMS_MD = Path(__file__).resolve().parents[2] / "bot/locales/TERMS.md"
Table = list[list[str]]


def sections(markdown: str) -> dict[str, list[Table]]:
    """Each `## heading` of the file and the markdown tables under it (header row first, the
    |---| rule left out)."""
    out: dict[str, list[Table]] = {}
    tables: list[Table] = []
    rows: Table | None = None
    for line in markdown.splitlines():
        if line.startswith("## "):
            tables = out.setdefault(line[3:].strip(), [])
            rows = None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", c) for c in cells):
                continue
            if rows is None:
                rows = []
                tables.append(rows)
            rows.append(cells)
        else:
            rows = None
    return out


SECTIONS = sections(TERMS_MD.read_text(encoding="utf-8"))
CONCEPTS: dict[str, list[str]] = {
    row[0]: [k.strip() for k in row[1].split(",")] for row in SECTIONS["Concepts"][0][1:]}
TERM_LANGS = [lang for lang in LANGUAGES if lang in SECTIONS]


def terms(lang: str) -> dict[str, str]:
    table = next(t for t in SECTIONS[lang] if t[0][:2] == ["concept", "term"])
    return {row[0]: row[1] for row in table[1:]}


def bans(lang: str) -> list[tuple[str, list[str]]]:
    table = next((t for t in SECTIONS[lang] if t[0][0] == "not"), [[]])
    return [(row[0], [w.strip() for w in row[1].split(",")]) for row in table[1:]]


def pattern(word: str) -> re.Pattern[str]:
    """A term as TERMS.md writes it: matched from the start of a word to its end, unless a
    leading or trailing `*` lets the word start or go on beyond it."""
    core = re.escape(word.strip("*"))
    start = "" if word.startswith("*") else r"(?<!\w)"
    end = "" if word.endswith("*") else r"(?!\w)"
    return re.compile(start + core + end, re.IGNORECASE)


def alternatives(cell: str) -> list[re.Pattern[str]]:
    return [pattern(w.strip()) for w in cell.split(" / ") if w.strip()]


def texts(lang: str) -> dict[str, list[str]]:
    """Each key's text in every form, as a reader sees its words: no placeholders (`{bet}` is
    not the word Bet), no HTML tags."""
    out: dict[str, list[str]] = {}
    for m in load_catalog(lang):
        if not m.id:
            continue
        key = str(m.id[0] if isinstance(m.id, tuple | list) else m.id)
        forms = m.string if isinstance(m.string, tuple | list) else (m.string,)
        out[key] = [re.sub(r"<[^>]*>|\{[^{}]*\}", " ", str(f)) for f in forms]
    return out


def test_the_terms_file_is_complete() -> None:
    """Every concept's keys exist; every language section shipped gives every concept a term
    (no unknown ones) and there is one for English, the source of meaning."""
    assert CONCEPTS and "en" in TERM_LANGS
    english = texts("en")
    for concept, keys in CONCEPTS.items():
        assert keys and all(k in english for k in keys), concept
    for lang in TERM_LANGS:
        given = terms(lang)
        assert set(given) == set(CONCEPTS), (lang, set(given) ^ set(CONCEPTS))
        assert all(alternatives(cell) for cell in given.values()), lang


@pytest.mark.parametrize("lang", TERM_LANGS)
def test_every_concept_uses_the_languages_term(lang: str) -> None:
    catalog = texts(lang)
    missing = []
    for concept, cell in terms(lang).items():
        words = alternatives(cell)
        for key in CONCEPTS[concept]:
            for form in catalog[key]:
                if not any(w.search(form) for w in words):
                    missing.append(f"{concept} ({cell}) not in {key}: {form.strip()[:90]!r}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("lang", TERM_LANGS)
def test_no_banned_word_is_used(lang: str) -> None:
    catalog = texts(lang)
    found = []
    for word, where in bans(lang):
        ban = pattern(word)
        for key, forms in catalog.items():
            if any(fnmatchcase(key, w) for w in where):
                found += [f"{word!r} in {key}: {f.strip()[:90]!r}" for f in forms if ban.search(f)]
    assert not found, "\n".join(found)


def test_a_banned_word_and_a_missing_term_are_caught() -> None:
    """The checks can fail: the very patterns the tests use find «Раунд» in a tournament text,
    «Bet» in German (but not the placeholder {bet}) and miss «Сбросить» in «Пас»."""
    assert pattern("раунд*").search("Раунд 2 из 5")
    assert not pattern("тур").search("Турнир")
    assert pattern("bet").search("Ante 10, Bet 20") and not pattern("bet").search("Gebet")
    assert not any(w.search("Пас") for w in alternatives("сбросить / сброс"))
    stripped = re.sub(r"<[^>]*>|\{[^{}]*\}", " ", "Einsatz {bet}: <b>Paar</b>")
    assert not pattern("bet").search(stripped)
