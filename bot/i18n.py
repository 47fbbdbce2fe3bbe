"""The bot's texts in every shipped language: gettext catalogs keyed by message keys.

The catalogs are `bot/locales/<lang>/LC_MESSAGES/messages.po` (their header comment explains the
format). They are read with Babel and compiled in memory at start, so there is no build step.
The languages shipped are `LANGUAGES`, here and nowhere else: a new language is its catalog
and one line there. Each catalog's Plural-Forms header gives the language's plural rule, and
its `language.name` is how the language calls itself (the /settings button).

    tr = translator(pick_language(settings.language, user.language_code))
    tr.t("error.not_your_turn")
    tr.tn("chips", 5, ...)          # plural by the language's rules; {n} is the number

Texts are Telegram HTML. Arguments are HTML-escaped unless they are `Html` (`mention_html()`,
`html_escape()`, or the result of `t()`/`tn()`); numbers are formatted as they are.
Pictures take plain text instead: `tr.text(key, ...)` and `tr.plural(key, n, ...)` fill the same
catalog texts with nothing escaped (a Translator is the `render.text.Labels` the pictures take);
the texts drawn in pictures (`pic.*`, `hand.*`) hold no markup.
A language written right to left (`RTL`) has its pictures drawn right to left (`Translator.rtl`,
which render/ reads), and a language with digits of its own (`DIGITS`) has its pictures' numbers
drawn in them (`Translator.digits`). That needs Pillow's raqm (text shaping): where it is
missing, a right-to-left language's pictures get English words (`text`/`plural` answer in
English; the captions, `t`/`tn`, stay in the language), and `Texts.load` says so once.
A key missing from a language falls back to English, then to the key itself, with a warning;
`Texts.load(strict=True)` raises `MissingText` instead (for tests).
"""

from __future__ import annotations

import gettext
import logging
from dataclasses import dataclass
from functools import cache
from importlib import resources
from io import BytesIO

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from PIL import features

from bot.html import Html, html_escape, mention_html

__all__ = [
    "CLOCK", "DIGITS", "LANGUAGES", "RTL", "WAIT", "Html", "Language", "MissingText", "Texts",
    "Translator",
    "Units", "can_shape", "duration", "html_escape", "language_name", "load_catalog",
    "mention_html",
    "pick_language", "telegram_code", "translator",
]

log = logging.getLogger(__name__)

Language = str  # a code of LANGUAGES: "en", "pt_BR" (the catalog's directory name)
LANGUAGES: tuple[Language, ...] = (
    "en",
    "ru",
    "uk",
    "de",
    "es",
    "pt_BR",
    "fr",
    "it",
    "id",
    "tr",
    "ar",
    "fa",
)
FALLBACK: Language = "en"
DOMAIN = "messages"
# Languages written right to left: their pictures are mirrored and shaped (render.text). A code
# here that is not in LANGUAGES does nothing.
RTL: frozenset[Language] = frozenset({"ar", "fa"})
WESTERN_DIGITS = "0123456789"
# The digits a language's pictures draw numbers in, where they are not Western: Persian readers
# expect ۰-۹ everywhere. Arabic keeps Western digits: they are what Telegram's Arabic interface
# and most Arabic-speaking countries' screens use (Eastern ٠-٩ are regional), and the captions'
# numbers (formatted as they are) are Western too.
DIGITS: dict[Language, str] = {"fa": "۰۱۲۳۴۵۶۷۸۹"}


def can_shape() -> bool:
    """Pillow can shape text (raqm with FriBiDi): what a right-to-left language's pictures need."""
    return bool(features.check("raqm"))


class MissingText(KeyError):
    """A key that the catalogs do not hold (or hold in the wrong form)."""


def telegram_code(lang: Language) -> str:
    """The language's code as Telegram writes a user's language_code and takes it in
    setMyCommands (ISO 639-1, two letters): "pt_BR" -> "pt"."""
    return lang.split("_")[0].lower()


def _match(code: str) -> Language | None:
    """The shipped language an IETF tag ("pt-br", "de-AT", "uk") names: the same language and
    region first, else the first shipped one of the same language."""
    wanted = code.strip().replace("-", "_").lower()
    if not wanted:
        return None
    for lang in LANGUAGES:
        if lang.lower() == wanted:
            return lang
    for lang in LANGUAGES:
        if telegram_code(lang) == wanted.split("_")[0]:
            return lang
    return None


def pick_language(chat_override: str | None, user_language_code: str | None) -> Language:
    """The chat's setting if it names a shipped language; else the user's Telegram language if
    it is one ("de-AT" -> de, "pt" or "pt-br" -> pt_BR); else English."""
    if chat_override in LANGUAGES:
        return chat_override
    return _match(user_language_code or "") or FALLBACK


def load_catalog(lang: str) -> Catalog:
    """The parsed .po file of a language; raises on a malformed file."""
    path = resources.files("bot") / "locales" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN, abort_invalid=True)


def _compile(catalog: Catalog) -> gettext.GNUTranslations:
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@dataclass(frozen=True, slots=True)
class _Entries:
    singular: frozenset[str]
    plural: frozenset[str]


def _entries(catalog: Catalog) -> _Entries:
    """The keys with a complete text: non-empty, every plural form present, not fuzzy."""
    singular, plural = set(), set()
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple | list):
            forms = message.string if isinstance(message.string, tuple | list) else ()
            if len(forms) == catalog.num_plurals and all(forms):
                plural.add(str(message.id[0]))
        elif message.string:
            singular.add(str(message.id))
    return _Entries(frozenset(singular), frozenset(plural))


class Translator:
    """The texts of one language, with another translator to fall back on."""

    def __init__(
        self,
        lang: Language,
        catalog: Catalog,
        fallback: Translator | None = None,
        strict: bool = False,
    ) -> None:
        self.lang = lang
        self._gettext = _compile(catalog)
        self._entries = _entries(catalog)
        self._fallback = fallback
        self._strict = strict

    @property
    def keys(self) -> frozenset[str]:
        return self._entries.singular | self._entries.plural

    def has(self, key: str) -> bool:
        return key in self._entries.singular

    def has_plural(self, key: str) -> bool:
        return key in self._entries.plural

    def t(self, key: str, **kwargs: object) -> Html:
        """The text for `key`, with `{placeholders}` filled from kwargs (HTML-escaped)."""
        return Html(self._text(key, None, kwargs, html=True))

    def tn(self, key: str, n: int, **kwargs: object) -> Html:
        """The plural form of `key` for the number `n` (also available as `{n}`)."""
        return Html(self._text(key, n, kwargs, html=True))

    def text(self, key: str, /, **values: object) -> str:
        """The plain text for `key` (for a picture): like `t`, with nothing HTML-escaped.
        English for a right-to-left language that Pillow cannot shape (`_unshaped`)."""
        if self._unshaped():
            return self._fallback.text(key, **values)  # type: ignore[union-attr]
        return self._text(key, None, values, html=False)

    def plural(self, key: str, n: int, /, **values: object) -> str:
        """The plain plural form of `key` for `n` (for a picture): like `tn`, not escaped."""
        if self._unshaped():
            return self._fallback.plural(key, n, **values)  # type: ignore[union-attr]
        return self._text(key, n, values, html=False)

    @property
    def rtl(self) -> bool:
        """The language's pictures are written right to left (and mirrored): an `RTL` language,
        when Pillow can shape it (else its pictures are English, left to right)."""
        return self.lang in RTL and can_shape()

    @property
    def digits(self) -> str:
        """The ten digits the language's pictures draw numbers in (`DIGITS`; Western for the
        English pictures of a language that cannot be shaped)."""
        if self._unshaped():
            return WESTERN_DIGITS
        return DIGITS.get(self.lang, WESTERN_DIGITS)

    def _unshaped(self) -> bool:
        """A right-to-left language whose pictures Pillow cannot shape: they are English."""
        return self.lang in RTL and self._fallback is not None and not can_shape()

    def _text(self, key: str, n: int | None, values: dict[str, object], *, html: bool) -> str:
        if n is None:
            if key not in self._entries.singular:
                return self._missing(key, n, values, html)
            return self._format(key, self._gettext.gettext(key), values, html)
        if key not in self._entries.plural:
            return self._missing(key, n, values, html)
        return self._format(key, self._gettext.ngettext(key, key, n), {"n": n, **values}, html)

    def _missing(self, key: str, n: int | None, values: dict[str, object], html: bool) -> str:
        kind = "text" if n is None else "plural text"
        if self._strict:
            raise MissingText(f"no {kind} {key!r} in the {self.lang} catalog")
        log.warning("no %s %r in the %s catalog", kind, key, self.lang)
        if self._fallback is not None:
            return self._fallback._text(key, n, values, html=html)
        return html_escape(key) if html else key

    def _format(self, key: str, template: str, values: dict[str, object], html: bool) -> str:
        if html:
            values = {k: html_escape(v) if isinstance(v, str) else v for k, v in values.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError) as e:
            if self._strict:
                raise
            log.error("text %r in %s cannot be formatted: %r", key, self.lang, e)
            return template


class Texts:
    """Every language's translator."""

    def __init__(self, translators: dict[Language, Translator]) -> None:
        self._translators = translators

    @classmethod
    def load(cls, strict: bool = False) -> Texts:
        warn_unshaped(LANGUAGES)
        english = Translator(FALLBACK, load_catalog(FALLBACK), strict=strict)
        translators: dict[Language, Translator] = {FALLBACK: english}
        for lang in LANGUAGES:
            if lang != FALLBACK:
                translators[lang] = Translator(lang, load_catalog(lang), english, strict)
        return cls(translators)

    def __getitem__(self, lang: Language) -> Translator:
        return self._translators[lang]

    def for_language(self, lang: str | None) -> Translator:
        """The translator of a supported language; English for anything else."""
        return self._translators.get(pick_language(lang, None), self._translators[FALLBACK])


_warned: list[bool] = []


def warn_unshaped(languages: tuple[Language, ...]) -> bool:
    """Log once (at the catalogs' load, the bot's start) that Pillow cannot shape text when a
    right-to-left language is shipped: its pictures are drawn in English. Whether it warned."""
    rtl = [lang for lang in languages if lang in RTL]
    if not rtl or _warned or can_shape():
        return False
    _warned.append(True)
    log.warning("Pillow has no raqm (libraqm with FriBiDi): the pictures of %s are drawn in "
                "English; their captions stay in the language", ", ".join(rtl))
    return True


@cache
def _default_texts() -> Texts:
    return Texts.load()


def translator(lang: str | None) -> Translator:
    """The shared translator of a language (catalogs are loaded once, on first use)."""
    return _default_texts().for_language(lang)


def language_name(lang: Language) -> Html:
    """How a shipped language calls itself ("Deutsch"): its own catalog's `language.name`."""
    return translator(lang).t("language.name")


# --- durations ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Units:
    """How a duration is said: its units (catalog key, seconds in one), largest first; it is
    rounded up to the smallest, and never said as less than `least` of it."""

    parts: tuple[tuple[str, int], ...]
    least: int = 0


CLOCK = Units((("time.minutes", 60), ("time.seconds", 1)))  # a turn timer: `2 min 30 s`
WAIT = Units((("sixcard.hours", 3600), ("sixcard.minutes", 60)), least=1)  # `5 hours 12 minutes`


def duration(tr: Translator, seconds: int, units: Units = CLOCK) -> Html:
    """`seconds` in words of the language, the units that come to zero left out."""
    step = units.parts[-1][1]
    left = max(units.least, -(-max(0, seconds) // step)) * step
    words = []
    for key, size in units.parts:
        n, left = divmod(left, size)
        if n:
            words.append(tr.tn(key, n))
    return Html(" ".join(words) or tr.tn(units.parts[-1][0], 0))
