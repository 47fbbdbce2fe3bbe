from __future__ import annotations

import gettext
import logging
import re
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import render
from bot.catalogs import catalog_problems, placeholders
from bot.html import MAX_NAME, clean_name
from bot.i18n import (
    LANGUAGES,
    Html,
    Language,
    MissingText,
    Texts,
    Translator,
    html_escape,
    load_catalog,
    mention_html,
    pick_language,
    translator,
)
from render import preview
from render.text import Labels
from rules.hands import Category

GENERIC_ERRORS = (
    "error.not_your_turn", "error.stale_button", "error.not_a_player",
    "error.malformed_command", "error.duel_not_found",
)


@pytest.fixture(scope="module")
def texts() -> Texts:
    return Texts.load(strict=True)


PO_HEADER = {
    "en": 'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n',
    "ru": 'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : '
          'n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n',
}


def po(text: str, lang: Language, strict: bool = False) -> Translator:
    """A translator over a small catalog written in the test."""
    catalog = read_po(BytesIO((PO_HEADER[lang] + text).encode()), locale=lang,
                      abort_invalid=True)
    return Translator(lang, catalog, strict=strict)


# --- the shipped catalogs ----------------------------------------------------------------------


def test_catalogs_match_key_for_key() -> None:
    catalogs = {lang: load_catalog(lang) for lang in LANGUAGES}
    assert catalog_problems(catalogs) == []
    assert translator("en").keys == translator("ru").keys


TELEGRAM_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span",
                 "tg-spoiler", "a", "code", "pre", "blockquote", "tg-emoji"}


class _TagChecker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.open: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TELEGRAM_TAGS:
            self.errors.append(f"<{tag}> is not Telegram HTML")
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.errors.append(f"</{tag}> closes nothing")


def test_catalog_texts_are_telegram_html() -> None:
    for lang in LANGUAGES:
        for message in load_catalog(lang):
            if not message.id:
                continue
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                names = placeholders(form)
                text = form.format(**dict.fromkeys(names, "x"))
                checker = _TagChecker()
                checker.feed(text)
                checker.close()
                errors = checker.errors + [f"<{t}> left open" for t in checker.open]
                if re.search(r"&(?!(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);)", text, re.IGNORECASE):
                    errors.append("a bare & (write &amp;)")
                assert not errors, f"{lang} {message.id}: {errors}"


# What a language's plural forms are, as gettext counts them (its Plural-Forms header).
NPLURALS = {"en": 2, "ru": 3, "uk": 3, "de": 2, "es": 2, "pt_BR": 2, "fr": 2, "it": 2,
            "id": 1, "tr": 2, "ar": 6, "fa": 2}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_entries_have_every_form(lang: str) -> None:
    """Each catalog says its plural rule in its Plural-Forms header, the rule picks every form
    it counts (and no other) for some number, and every plural entry has all of them."""
    catalog = load_catalog(lang)
    header = dict(catalog.mime_headers).get("Plural-Forms", "")
    assert f"nplurals={NPLURALS[lang]};" in header.replace(" ", ""), (lang, header)
    assert catalog.num_plurals == NPLURALS[lang]
    rule = gettext.c2py(catalog.plural_expr)
    assert {rule(n) for n in range(1000)} == set(range(NPLURALS[lang])), lang
    plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
    assert plurals
    for message in plurals:
        assert len(message.string) == NPLURALS[lang] and all(message.string), message.id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translator_picks_the_form_its_catalogs_header_says(texts: Texts, lang: str) -> None:
    """`tn` takes the form of the catalog's own rule (compiled into the translations from the
    header), for the numbers that pick each form."""
    catalog = load_catalog(lang)
    rule = gettext.c2py(catalog.plural_expr)
    forms = {str(m.id[0]): m.string for m in catalog if m.id and isinstance(m.id, tuple)}
    for n in (*range(30), 101, 111, 121, 1000, 1001):
        assert texts[lang].tn("chips", n) == forms["chips"][rule(n)].format(n=n), (lang, n)


def test_each_language_calls_itself_by_its_own_name() -> None:
    names = [translator(lang).t("language.name") for lang in LANGUAGES]
    assert len(set(names)) == len(LANGUAGES) and "English" in names
    # a capital where the script has letter case (Arabic and Persian have none)
    assert all(name and name[0].isalpha() and not name[0].islower() for name in names), names


# Latin words a translated catalog may keep: the game's and the poker table's words that the
# languages borrow, the names of things, and what the bot's commands and proofs are written in.
BORROWED = {
    "six", "shooter", "poker", "telegram", "sha", "utc", "bot", "bonus", "showdown", "dealer",
    "flush", "full", "house", "straight", "royal", "stack", "stacks", "chip", "chips", "pot",
    "tiebreak", "tie", "break", "ok", "auto", "username", "alice", "html", "cdhs", "tjqka",
    "askd", "double", "cancel", "sixcard", "verify", "duel", "rules", "stats", "history",
    "settings", "tournament", "practice", "surrender", "balance", "rebuy", "start", "help",
    "all", "in", "kicker", "ante", "english", "deutsch", "español", "português", "brasil",
    "round", "robin", "rating", "pts", "box",
}
ENGLISH = {  # English words no translation keeps: if one is left, a line was not translated
    "the", "and", "your", "you", "with", "this", "that", "from", "have", "not", "wins",
    "takes", "choose", "reply", "send", "each", "hand", "hands", "bullet", "player", "players",
    "winner", "again", "only", "here", "there", "what", "which", "when", "then", "they",
}


# Words that are English and the language's own as well ("Hand", "April" in German).
ALSO_NATIVE = {
    "de": {"hand", "april", "august", "september", "november", "normal", "blind", "pass",
           "split", "bet"},  # Bet: six-card poker's bet, the casino word the glossary chose
    "es": {"no", "normal"},
    "pt_BR": {"normal"},
    "fr": {"normal", "net", "duels"},
    "it": {"no"},
    "id": {"april", "september", "november", "jack", "king", "queen", "fold",
           "str"},  # the card faces and fold as Indonesian players say them; str.: straight
    "tr": {"net"},
    "ru": set(),
    "uk": set(),
    "ar": set(),
    "fa": set(),
}


def _words(text: str) -> list[str]:
    """The Latin words of a text as people read it: no tags, placeholders, commands,
    @usernames, code or card codes."""
    text = re.sub(r"<code>.*?</code>|<[^>]+>|\{[^}]*\}|/\w+|@\w+|&\w+;", " ", text)
    return re.findall(r"[A-Za-z][A-Za-z']+", text)


def test_no_english_is_left_in_a_translated_catalog() -> None:
    """A translated text keeps no English: no common English word in it, no Latin word at all
    in a Cyrillic or Arabic-script language but the borrowed ones, and nothing left as the
    English text is unless all its words are borrowed (card ranks and hand names are the
    catalog's own)."""
    english = {str(m.id): m.string for m in load_catalog("en") if m.id
               and not isinstance(m.id, tuple)}
    problems = []
    for lang in LANGUAGES:
        if lang == "en":
            continue
        non_latin = lang in ("ru", "uk", "ar", "fa")  # Cyrillic, Arabic script
        for message in load_catalog(lang):
            if not message.id:
                continue
            key = str(message.id[0] if isinstance(message.id, tuple) else message.id)
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                words = [w.lower() for w in _words(str(form))
                         if w.lower() not in ALSO_NATIVE[lang]]
                left = [w for w in words if w in ENGLISH]
                if non_latin:
                    left += [w for w in words if w not in BORROWED]
                elif form == english.get(key) and any(w not in BORROWED for w in words):
                    left.append("(the English text)")
                if left:
                    problems.append(f"{lang} {key}: {sorted(set(left))} in {form!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("key", GENERIC_ERRORS)
def test_the_generic_errors_exist_in_both_languages(texts: Texts, key: str) -> None:
    assert texts["en"].t(key) != texts["ru"].t(key)
    assert texts["en"].t(key) and texts["ru"].t(key)


@pytest.mark.parametrize(("n", "text"), [
    (1, "1 фишка"), (2, "2 фишки"), (5, "5 фишек"), (11, "11 фишек"), (21, "21 фишка"),
    (22, "22 фишки"), (0, "0 фишек"), (12, "12 фишек"), (14, "14 фишек"), (104, "104 фишки"),
    (111, "111 фишек"),
])
def test_russian_plurals(texts: Texts, n: int, text: str) -> None:
    assert texts["ru"].tn("chips", n) == text


@pytest.mark.parametrize(("n", "text"), [(1, "1 chip"), (2, "2 chips"), (0, "0 chips")])
def test_english_plurals(texts: Texts, n: int, text: str) -> None:
    assert texts["en"].tn("chips", n) == text


# --- the pictures' words (pic.*, hand.*) -----------------------------------------------------

RENDER = Path(render.__file__).parent


def _picture_keys() -> tuple[set[str], set[str]]:
    """The catalog keys render/ names in its code, and the prefixes of those it builds
    (`f"pic.duel.lc.{category}"`)."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in RENDER.rglob("*.py"):
        code = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r"(?<!f)[\"'](pic\.[a-z_.]+)[\"']", code))
        prefixes |= set(re.findall(r"f[\"'](pic\.[a-z_.]+)\{", code))
    return keys, prefixes


def test_every_key_the_pictures_name_is_in_both_catalogs_and_no_other() -> None:
    named, prefixes = _picture_keys()
    assert len(named) > 80
    for lang in LANGUAGES:
        keys = {k for k in translator(lang).keys if k.startswith("pic.")}
        built = {k for k in keys if k.startswith(tuple(prefixes))}
        assert named | built == keys, (lang, sorted((named | built) ^ keys))
        for prefix in prefixes:
            assert any(k.startswith(prefix) for k in keys), (lang, prefix)


def test_every_picture_finds_its_words_in_both_languages(texts: Texts) -> None:
    """Every picture of the preview drawn with each language's strict translator: a word that a
    picture asks for and a catalog lacks, or a placeholder it does not fill, raises."""
    for lang in LANGUAGES:
        for stem, _, make in preview.every_shot("jpeg", lambda _asked, lang=lang: texts[lang]):
            assert make(), (lang, stem)
        for category in Category:
            assert texts[lang].text(f"hand.{category.name.lower()}")


def test_the_pictures_words_are_plain_text() -> None:
    """pic.* and hand.* texts are drawn as they are: no markup, no entities."""
    for lang in LANGUAGES:
        for message in load_catalog(lang):
            key = str(message.id[0] if isinstance(message.id, tuple) else message.id)
            if not key.startswith(("pic.", "hand.")):
                continue
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                assert not re.search(r"[<>&]", form), (lang, key, form)


@pytest.mark.parametrize(("n", "en", "ru"), [
    (1, "Bob takes 1 chip", "Bob забирает 1 фишку"),
    (3, "Bob takes 3 chips", "Bob забирает 3 фишки"),
    (4, "Bob takes 4 chips", "Bob забирает 4 фишки"),
    (5, "Bob takes 5 chips", "Bob забирает 5 фишек"),
    (21, "Bob takes 21 chips", "Bob забирает 21 фишку"),
])
def test_the_chips_a_bullet_pays_agree_with_their_number(texts: Texts, n: int, en: str,
                                                         ru: str) -> None:
    assert texts["en"].plural("pic.duel.showdown", n, w="Bob") == f"Showdown: {en}"
    assert texts["ru"].plural("pic.duel.showdown", n, w="Bob") == f"Вскрытие: {ru}"
    assert texts["ru"].plural("pic.duel.uncontested", n, w="Bob", l="Al") == (
        f"Bob — игра, Al — пас: {ru}")


def test_a_translator_is_the_labels_a_picture_takes() -> None:
    labels: Labels = translator("ru")  # checked by mypy on render's callers; here at run time
    assert labels.text("pic.duel.answer_wants", name="<Al & Bo>") == "<Al & Bo>: хочет тай-брейк"
    assert labels.plural("pic.duel.showdown", 2, w="&") == "Вскрытие: & забирает 2 фишки"


# --- language choice ---------------------------------------------------------------------------


@pytest.mark.parametrize(("override", "code", "lang"), [
    (None, "ru", "ru"), (None, "ru-RU", "ru"), (None, "RU", "ru"), (None, "en", "en"),
    (None, "en-GB", "en"), (None, "ja", "en"), (None, "zh-hans", "en"), (None, None, "en"),
    (None, "", "en"), (None, "  ", "en"),
    ("en", "ru", "en"), ("ru", "en", "ru"), ("ru", None, "ru"), ("xx", "ru", "ru"),
    ("auto", "ru", "ru"),
])
def test_pick_language(override: str | None, code: str | None, lang: str) -> None:
    assert pick_language(override, code) == lang


SHIPPED_CODES = [  # each new language from the Telegram codes its users have
    ("uk", "uk"), ("uk-UA", "uk"), ("de", "de"), ("de-AT", "de"), ("de-ch", "de"),
    ("es", "es"), ("es-419", "es"), ("es-MX", "es"), ("pt", "pt_BR"), ("pt-br", "pt_BR"),
    ("pt-BR", "pt_BR"), ("pt-PT", "pt_BR"), ("fr", "fr"), ("fr-CA", "fr"), ("fr-BE", "fr"),
    ("it", "it"), ("it-CH", "it"), ("id", "id"), ("id-ID", "id"), ("tr", "tr"),
    ("tr-TR", "tr"), ("ar", "ar"), ("ar-EG", "ar"), ("ar-SA", "ar"), ("fa", "fa"), ("fa-IR", "fa"),
]


@pytest.mark.parametrize(("code", "lang"), SHIPPED_CODES)
def test_pick_language_finds_each_shipped_language(code: str, lang: str) -> None:
    if lang not in LANGUAGES:
        pytest.skip(f"{lang} is not shipped")
    assert pick_language(None, code) == lang
    assert pick_language("en", code) == "en"  # the chat's choice wins
    assert pick_language(lang, "ru") == lang


def test_pick_language_only_returns_shipped_languages() -> None:
    for code in ("ru", "uk", "de", "es", "pt", "pt-br", "fr", "it", "", None, "x"):
        assert pick_language(None, code) in LANGUAGES


def test_shared_translator_falls_back_to_english_for_unknown_languages() -> None:
    assert translator("ru").lang == "ru"
    assert translator("ja").lang == "en"
    assert translator(None) is translator("en")


# --- formatting, escaping and missing texts ----------------------------------------------------


def test_arguments_are_escaped_unless_already_html() -> None:
    tr = po('msgid "hi"\nmsgstr "<b>Hi</b>, {name}! {link} {count}"\n', "en")
    out = tr.t("hi", name="<script>&", link=mention_html(7, "Bo<b>"), count=3)
    assert out == ('<b>Hi</b>, &lt;script&gt;&amp;! '
                   '<a href="tg://user?id=7">Bo&lt;b&gt;</a> 3')
    assert isinstance(out, Html)
    assert tr.t("hi", name=out, link="", count=0).count("<b>Hi</b>") == 2  # Html nests as is


def test_plain_text_for_pictures_escapes_nothing() -> None:
    tr = po('msgid "hi"\nmsgstr "Hi, {name}: {n}"\n\n'
            'msgid "bet"\nmsgid_plural "bet"\nmsgstr[0] "{name} bets one chip"\n'
            'msgstr[1] "{name} bets {n} chips"\n', "en")
    assert tr.text("hi", name="<b>&amp;</b>", n=3) == "Hi, <b>&amp;</b>: 3"
    assert type(tr.text("hi", name="x", n=1)) is str  # not Html: never put into a caption
    assert tr.plural("bet", 1, name="A&B") == "A&B bets one chip"
    assert tr.plural("bet", 7, name="<i>") == "<i> bets 7 chips"
    english = po('msgid "only.en"\nmsgstr "<{x}>"\n', "en")
    russian = Translator("ru", load_catalog("ru"), fallback=english)
    assert russian.text("only.en", x="&") == "<&>"
    assert russian.text("no.such.key") == "no.such.key"
    assert russian.plural("chips", 5) == "5 фишек"


def test_tn_passes_n_and_other_arguments() -> None:
    tr = po('msgid "bet"\nmsgid_plural "bet"\nmsgstr[0] "{name} bets one chip"\n'
            'msgstr[1] "{name} bets {n} chips"\n', "en")
    assert tr.tn("bet", 1, name="Al") == "Al bets one chip"
    assert tr.tn("bet", 2, name="Al") == "Al bets 2 chips"


def test_missing_texts_fall_back_to_english_then_the_key(caplog: pytest.LogCaptureFixture) -> None:
    english = po('msgid "only.en"\nmsgstr "English {x}"\n', "en")
    russian = Translator("ru", load_catalog("ru"), fallback=english)
    with caplog.at_level(logging.WARNING):
        assert russian.t("only.en", x=1) == "English 1"
        assert russian.t("nowhere") == "nowhere"
        assert russian.t("chips") == "chips"  # a plural key asked for as a singular one
    assert "only.en" in caplog.text


def test_strict_mode_raises_on_missing_texts_and_bad_arguments(texts: Texts) -> None:
    with pytest.raises(MissingText):
        texts["ru"].t("no.such.key")
    with pytest.raises(MissingText):
        texts["en"].tn("error.not_your_turn", 2)
    with pytest.raises(KeyError):
        po('msgid "x"\nmsgstr "{a}"\n', "en", strict=True).t("x")


def test_a_format_error_is_logged_not_raised_when_lenient(caplog: pytest.LogCaptureFixture) -> None:
    tr = po('msgid "x"\nmsgstr "Hello {name}"\n', "en")
    with caplog.at_level(logging.ERROR):
        assert tr.t("x") == "Hello {name}"
    assert "cannot be formatted" in caplog.text


def test_empty_and_fuzzy_texts_count_as_missing() -> None:
    tr = po('msgid "empty"\nmsgstr ""\n\n#, fuzzy\nmsgid "fuzzy"\nmsgstr "Maybe"\n', "en")
    assert not tr.has("empty") and not tr.has("fuzzy")


def test_catalog_problems_finds_each_kind_of_mismatch() -> None:
    def cat(lang: str, body: str) -> Catalog:
        return read_po(BytesIO((PO_HEADER["en"] + body).encode()), locale=lang)

    en = cat("en", 'msgid "a"\nmsgstr "A {x}"\n\nmsgid "b"\nmsgstr "B"\n\n'
                   'msgid "p"\nmsgid_plural "p"\nmsgstr[0] "one {w}"\nmsgstr[1] "{n} {w}"\n\n'
                   'msgid "q"\nmsgstr "Q {"\n\n'
                   'msgid "r"\nmsgid_plural "r"\nmsgstr[0] "one {w}"\nmsgstr[1] "{n} {w}"\n')
    ru = cat("ru", 'msgid "a"\nmsgstr "А {y}"\n\nmsgid "c"\nmsgstr "В"\n\n'
                   'msgid "p"\nmsgid_plural "p"\nmsgstr[0] "одна {w}"\nmsgstr[1] ""\n\n'
                   'msgid "r"\nmsgid_plural "r"\nmsgstr[0] "{w}"\nmsgstr[1] "{n}"\n')
    problems = "\n".join(catalog_problems({"en": en, "ru": ru}))
    for expected in ("a differs", "ru: b is missing", "en: c is missing", "ru: p has an empty",
                     "ru: r form 1 lacks ['w']", "en: q is not a valid format string",
                     "ru: q is missing"):
        assert expected in problems


def test_placeholders() -> None:
    assert placeholders("{a} {b.c} {d[0]} {{e}} {f:>3}") == {"a", "b", "d", "f"}


# --- html and mentions -------------------------------------------------------------------------


def test_html_escape() -> None:
    assert html_escape("<a href=\"x\">'&'</a>") == (
        "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;"
    )
    already = Html("<b>x</b>")
    assert html_escape(already) is already


def test_mention_html() -> None:
    assert mention_html(42, "Anna & <Bob>") == (
        '<a href="tg://user?id=42">Anna &amp; &lt;Bob&gt;</a>'
    )
    assert mention_html(42, "  ") == '<a href="tg://user?id=42">#42</a>'
    long = mention_html(42, "x" * 200)
    assert "x" * (MAX_NAME - 1) + "…</a>" in long and "x" * MAX_NAME not in long


def test_clean_name() -> None:
    assert clean_name("Evil\u202eeman\u2066") == "Evileman"
    assert clean_name("two\nlines\t and\x00 more") == "two lines and more"
    assert clean_name("é" * 64) == "é" * 64
    assert len(clean_name("é" * 65)) == MAX_NAME
