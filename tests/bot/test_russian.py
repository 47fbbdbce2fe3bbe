"""Russian that reads like Russian (issue 11, item 6).

A template cannot decline a name: «вызов от Анна», «против Дмитрий», «Время Борис вышло» are
broken Russian, and a verb in the past tense must agree with a gender the bot does not know
(«Борис сдался», «Анна сдалась»). So every Russian text keeps names in the nominative, behind a
colon, a dash or an arrow, or before a present-tense verb; these tests render the rewritten
templates with a woman's and a man's name (Анна, Дмитрий) and the numbers that pick each plural
form, and scan the catalog for the phrases a native speaker flagged.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.duel.captions import Seat, bullet_caption, reveal_caption
from bot.i18n import LANGUAGES, Texts, Translator, load_catalog, mention_html
from bot.settings.keyboards import settings_text
from bot.storage import ChatSettings
from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState
from rules.duel.view import BulletResult, PublicView
from rules.fairness import new_salt
from rules.hands import Category

RU_PO = Path(__file__).resolve().parents[2] / "bot/locales/ru/LC_MESSAGES/messages.po"
ANNA, DMITRY = "Анна", "Дмитрий"
NAMES = (ANNA, DMITRY)
# 1, 21: form [0]; 2, 22: form [1]; 5, 11, 25: form [2] (11 is not "one", 25 is "many").
NUMBERS = (1, 2, 5, 11, 21, 22, 25)
FORM = {1: 0, 21: 0, 2: 1, 22: 1, 5: 2, 11: 2, 25: 2}

# Each rewritten plural template and the case its chips are in: «по 21 фишке» (dative),
# «поставил 1 фишку» (accusative), «ещё 1 фишка» (nominative).
DATIVE = ("фишке", "фишки", "фишек")
ACCUSATIVE = ("фишку", "фишки", "фишек")
NOMINATIVE = ("фишка", "фишки", "фишек")
PLURALS: dict[str, tuple[dict[str, str], tuple[str, str, str]]] = {
    "challenge.open": ({"challenger": "a"}, DATIVE),
    "challenge.targeted": ({"challenger": "a", "target": "b"}, DATIVE),
    "reveal.bonus": ({"name": "a", "category": "фулл-хаус"}, NOMINATIVE),
    "reveal.hand": ({"name": "a", "hand": "3", "category": "пара"}, NOMINATIVE),
    "reveal.showdown": ({"name": "a"}, ACCUSATIVE),  # «забирает 1 фишку»
    "reveal.uncontested": ({"name": "a"}, ACCUSATIVE),
    "timer.auto_bonus": ({"mention": "a", "hand": "3"}, ACCUSATIVE),
    "timer.auto_pass": ({"mention": "a", "hand": "3"}, NOMINATIVE),
}
# Each rewritten singular template with a name: which placeholders hold a name ("a" is the
# first player, "b" the second), and the other values it needs.
SINGULARS: dict[str, dict[str, str]] = {
    "duel.header": {"p0": "a", "p1": "b", "dealer": "b", "stack": "50"},
    "tiebreak.agreed": {"name": "a"},
    "tiebreak.waiting": {"name": "a"},
    "result.behind": {"name": "a"},
    "challenge.cancelled": {"challenger": "a"},
    "challenge.declined": {"challenger": "a", "target": "b"},
    "challenge.expired": {"challenger": "a"},
    "duel.turn_dealer": {"mention": "a"},
    "duel.turn_opponent": {"mention": "a"},
    "history.won": {"name": "a"},
    "history.won_surrender": {"name": "a", "loser": "b"},
    "history.won_timeout": {"name": "a", "loser": "b"},
    "history.won_tiebreak": {"name": "a"},
    "result.bust": {"name": "a"},
    "result.surrender": {"name": "a"},
    "result.timeout": {"name": "a"},
    "result.winner": {"name": "a", "s0": "60", "s1": "40"},
    "showdown.beats": {"name": "a", "hand": "пара дам", "loser": "b", "other": "пары двоек"},
    "showdown.kicker": {"name": "a", "hand": "пара дам"},
    "timer.decline": {"mention": "a"},
    "timer.forfeit": {"mention": "a"},
    "timer.remind": {"mention": "a", "left": "2 мин"},
    "timer.remind_offer": {"mention": "a", "left": "2 мин"},
}


@pytest.fixture(scope="module")
def ru() -> Translator:
    return Texts.load(strict=True)["ru"]


def fill(spec: dict[str, str], first: str, second: str) -> dict[str, object]:
    people = {"a": mention_html(1, first), "b": mention_html(2, second)}
    return {k: people.get(v, v) for k, v in spec.items()}


def assert_nominative(text: str, *names: str) -> None:
    """Each name is there, whole and undeclined, and no other form of it is."""
    rest = text
    for name in names:
        assert re.search(rf"(?<!\w){name}(?!\w)", text), (name, text)
        rest = re.sub(rf"(?<!\w){name}(?!\w)", "", rest)
    assert "Анн" not in rest and "Дмитри" not in rest, text  # Анну, Анне, Дмитрия, Дмитрию...


@pytest.mark.parametrize(("first", "second"), [(ANNA, DMITRY), (DMITRY, ANNA)])
@pytest.mark.parametrize("key", sorted(SINGULARS))
def test_names_stay_in_the_nominative(ru: Translator, key: str, first: str, second: str) -> None:
    spec = SINGULARS[key]
    text = ru.t(key, **fill(spec, first, second))
    assert_nominative(text, *([first, second] if "b" in spec.values() else [first]))


@pytest.mark.parametrize("n", NUMBERS)
@pytest.mark.parametrize(("first", "second"), [(ANNA, DMITRY), (DMITRY, ANNA)])
@pytest.mark.parametrize("key", sorted(PLURALS))
def test_plural_templates_pick_the_right_form(
        ru: Translator, key: str, first: str, second: str, n: int) -> None:
    spec, words = PLURALS[key]
    text = ru.tn(key, n, **fill(spec, first, second))
    assert f"{n} {words[FORM[n]]}" in text, text
    assert_nominative(text, *([first, second] if "b" in spec.values() else [first]))


@pytest.mark.parametrize("n", NUMBERS)
def test_the_chips_count(ru: Translator, n: int) -> None:
    assert ru.tn("chips", n) == f"{n} {NOMINATIVE[FORM[n]]}"


def test_the_texts_the_issue_quotes_read_as_the_native_speaker_asked(ru: Translator) -> None:
    anna, dmitry = mention_html(1, ANNA), mention_html(2, DMITRY)

    def plain(html: str) -> str:
        return re.sub(r"<[^>]+>", "", html)

    assert plain(ru.tn("challenge.targeted", 50, challenger=anna, target=dmitry)) == (
        "🔫 Вызов на дуэль Six-Shooter: Анна → Дмитрий, у каждого по 50 фишек. "
        "Дмитрий, принимаете?")
    assert plain(ru.t("challenge.declined", challenger=anna, target=dmitry)) == (
        "❌ Вызов отклонён: Анна → Дмитрий.")
    assert plain(ru.t("duel.header", p0=anna, p1=dmitry, dealer=dmitry, stack=50)) == (
        "⚔️ Дуэль: Анна — Дмитрий. Стек: 50. Первая сдача по жребию: Дмитрий.")
    assert plain(ru.t("tiebreak.agreed", name=anna)) == "✅ Анна: за тай-брейк."
    assert plain(ru.t("tiebreak.waiting", name=dmitry)) == "⏳ Ждём ответа: Дмитрий."
    assert plain(ru.t("result.behind", name=anna)) == (
        "Анна: фишек было больше, но кто сдаётся или не успевает сходить, тот проигрывает.")
    assert plain(ru.tn("timer.auto_pass", 1, mention=dmitry, hand=4)) == (
        "⌛ Дмитрий, время вышло: я спасовал за вас — 1 фишка на руку №4. "
        "Два тайм-аута подряд — поражение.")
    assert plain(ru.tn("timer.auto_bonus", 2, mention=anna, hand=6)) == (
        "⌛ Анна, время вышло: я поставил за вас 2 фишки на руку №6, со старшей открытой "
        "картой. Два тайм-аута подряд — поражение.")
    assert plain(ru.t("duel.turn_dealer", mention=anna)).startswith("👉 Анна (сдаёт), ваш ход")
    assert plain(ru.t("history.won_surrender", name=dmitry, loser=anna)) == (
        "🏆 победа: Дмитрий · Анна сдаётся")
    assert plain(ru.t("result.surrender", name=anna)) == "🏳️ Анна сдаётся."
    assert plain(ru.tn("stats.board_title", 21)) == "🏆 Таблица чата после 21 дуэли"
    assert plain(ru.tn("stats.board_title", 5)) == "🏆 Таблица чата после 5 дуэлей"
    assert plain(ru.t("error.target_busy")) == "У этого игрока здесь уже идёт дуэль."
    for n, chips in ((1, "фишка"), (2, "фишки"), (5, "фишек"), (21, "фишка")):
        assert ru.tn("duel.last_bonus", n, category="две пары") == (
            f"🎁 Бонус за комбинацию «две пары»: +{n} {chips}.")
    assert plain(ru.t("duel.header_round", round=1, commitment="ab12")) == (
        "🔒 Хеш колоды раунда 1: ab12")
    assert plain(ru.t("showdown.beats", name=anna, hand=ru.t("showdown.hand.one_pair",
                 of=ru.t("rank.of.queen")), loser=dmitry, other=ru.t(
                 "showdown.than.one_pair", of=ru.t("rank.of.two")))) == (
        "Анна: пара дам — сильнее пары двоек (Дмитрий).")
    assert plain(ru.t("showdown.kicker", name=dmitry, hand=ru.t(
        "showdown.hand.one_pair", of=ru.t("rank.of.queen")))) == (
        "У обоих пара дам: старший кикер — Дмитрий.")


# --- the captions as the bot builds them ----------------------------------------------------

SEATS = (Seat(1, ANNA), Seat(2, DMITRY))


def bonus_duel_result(seed: int) -> tuple[PublicView, BulletResult]:
    """Round 1 played at random from `seed`: the view, and its bonus bullet (bullet 3)."""
    rng = random.Random(seed)
    state = DuelState.new(50, 0)
    state.deal(shuffled_deck(rng), new_salt(rng))
    while state.players_to_act:  # five taps: the dealer's bonus-duel hand is placed for it
        player = state.players_to_act[0]
        state.apply(rng.choice(state.legal_actions(player)), player)
    view = state.public_view()
    return view, next(r for r in view.results if r.number == 3)


def test_a_zero_bonus_is_not_announced_and_a_real_one_is(ru: Translator) -> None:
    view, r = bonus_duel_result(1)  # won with a high card: a bonus ×0 was due
    assert r.bonus_category is Category.HIGH_CARD and r.bonus == 0 and r.winner is not None
    zero = reveal_caption(ru, view, r, SEATS)
    assert "🎁" not in zero and "бонус" not in zero.lower() and "ещё 0" not in zero
    assert f"<b>{SEATS[r.winner].name}</b> забирает 2 фишки." in zero
    assert "У обоих старшая карта туз: старший кикер — " in zero  # what decided it
    view, r = bonus_duel_result(4)  # won with two pair: a bonus of 2
    assert r.bonus_category is Category.TWO_PAIR and r.bonus == 2 and r.winner is not None
    paid = reveal_caption(ru, view, r, SEATS)
    assert f"🎁 <b>{SEATS[r.winner].name}</b>: бонус за комбинацию " \
           "«две пары» — ещё 2 фишки." in paid
    assert_nominative(paid, ANNA, DMITRY)


def test_a_showdown_says_what_decided_it_with_names_in_the_nominative(ru: Translator) -> None:
    """Both bonus duels of rounds played at random: the line that says what decided each
    showdown keeps both names whole, and names the hands in lower case."""
    seen = set()
    for seed in range(40):
        view, r = bonus_duel_result(seed)
        caption = reveal_caption(ru, view, r, SEATS)
        assert_nominative(caption, ANNA, DMITRY)
        lines = [line for line in caption.splitlines()
                 if " — сильнее " in line or "старший кикер" in line or "Руки равны" in line]
        assert len(lines) == 1, caption
        line = re.sub(r"<[^>]+>", "", lines[0])
        seen.add("kicker" if "кикер" in line else "split" if "равны" in line else "beats")
        if "сильнее" in line:
            assert re.fullmatch(r"(Анна|Дмитрий): [а-яё][^—]* — сильнее [а-яё][^(]* "
                                r"\((Анна|Дмитрий)\)\.", line), line
    assert {"beats", "kicker"} <= seen


def test_hand_names_are_lower_case_inside_the_reveal(ru: Translator) -> None:
    view, r = bonus_duel_result(4)
    caption = reveal_caption(ru, view, r, SEATS)
    lines = [line for line in caption.splitlines() if ": рука №" in line]
    assert len(lines) == 2
    for line in lines:
        assert re.search(r"</b>: рука №\d, [а-яё]", line), line  # «пара», not «Пара»


def test_the_dealer_is_told_it_is_their_turn_with_a_verb_not_a_participle(
        ru: Translator) -> None:
    rng = random.Random(5)
    state = DuelState.new(50, 0)
    state.deal(shuffled_deck(rng), new_salt(rng))
    opponent = state.players_to_act[0]
    state.apply(Bet(0, 1), opponent)
    view = state.public_view()
    assert view.to_act[0] == view.dealer
    caption = bullet_caption(ru, view, SEATS)
    assert f"{SEATS[view.dealer].name}</a> (сдаёт), ваш ход" in caption
    assert "сдающий" not in caption and "Хеш колоды" not in caption  # the header has it
    assert_nominative(caption, ANNA, DMITRY)


def test_settings_in_a_private_chat_are_not_the_chats_settings(ru: Translator) -> None:
    private = settings_text(ru, ChatSettings(), private=True)
    assert "Настройки нашего личного чата" in private and "Настройки чата" not in private
    assert "авто (язык вашего Telegram)" in private
    group = settings_text(ru, ChatSettings(), private=False)
    assert "Настройки чата" in group and "авто (язык вызвавшего)" in group
    assert "Менять настройки могут админы чата" in group


# --- the catalog as a whole -----------------------------------------------------------------

BANNED = (
    "вызывает", "вызов от {", "против {", "Время {", "(сдающий)", "сдающий)", "получает ещё",
    "Хэш", "хэш", "обязательств", "нажмите карту", "Вышедшие карты",
    "у каждого свой", "Админы чата меняют", "Поровну", "50–50", "только два дуэлянта",
    "Дуэли играются", "Как писать", "фолд", "Фолд", "сбор", "Сбор", "ответил(а)", "(а)",
    # issue 20: «сдача» is the deal, never a surrender; and what a native speaker flagged
    ": сдача", "сдача или", "в столе", "под столом",
    "играет дуэль здесь", "играет другую дуэль здесь", "сыгравший забирает",
    "нужно хотя бы 3", "бонус по своей", "круговой турнир для",
)
NAME_FIELDS = {"name", "mention", "p0", "p1", "challenger", "target", "loser", "w", "l",
               "opponent", "dealer"}


def ru_texts(lang: str = "ru") -> dict[str, list[str]]:
    texts: dict[str, list[str]] = {}
    for m in load_catalog(lang):
        if not m.id:
            continue
        key = str(m.id[0] if isinstance(m.id, tuple | list) else m.id)
        texts[key] = [str(s) for s in (m.string if isinstance(m.string, tuple | list)
                                       else (m.string,))]
    return texts


@pytest.mark.parametrize("phrase", BANNED)
def test_no_banned_phrase_is_left_in_the_catalog(phrase: str) -> None:
    found = [k for k, forms in ru_texts().items() if any(phrase in f for f in forms)]
    assert not found, (phrase, found)
    assert phrase not in RU_PO.read_text(encoding="utf-8").split('msgstr ""', 1)[1]


def test_one_term_for_each_thing() -> None:
    every = "\n".join(f for forms in ru_texts().values() for f in forms)
    assert re.search(r"(?<!\w)[Сс]ет(?!\w)", every) is None  # three of a kind is «тройка»
    assert ru_texts()["hand.three_of_a_kind"] == ["Тройка"]
    assert "хеш" in every.lower() and "доплаты" in every.lower()
    # issue 39: six-card's fold is «Сбросить» / «Сброс», never the duel's 1-chip «пас»
    for key in ("sixcard.button_fold", "pic.sixcard.opt_fold"):
        assert ru_texts()[key] == ["Сбросить"], key
    assert ru_texts()["pic.sixcard.folded"] == ["Сброс"]


def test_hand_names_have_a_lower_case_form_for_inside_a_sentence() -> None:
    texts = ru_texts()
    for c in Category:
        k = c.name.lower()
        assert texts[f"hand_lc.{k}"] == [texts[f"hand.{k}"][0].lower()], k


# Words a name may follow and stay in the nominative: "and", and a present tense before its
# subject («Ти і {name}», «виграє {name}»).
KEEP_NOMINATIVE = {"і", "й", "та", "и", "виграє"}


@pytest.mark.parametrize("lang", [lang for lang in ("ru", "uk") if lang in LANGUAGES])
def test_no_template_declines_a_name_or_makes_a_verb_agree_with_it(lang: str) -> None:
    """Before a name: the start, an emoji or punctuation (a colon, a dash, an arrow, «·»), never
    a word that would govern a case («от», «против», «Время»). After it: punctuation or a
    present-tense verb, never a past tense or a participle that has a gender. Ukrainian
    declines names and makes a past tense agree as Russian does: the same rule holds."""
    problems = []
    for key, forms in ru_texts(lang).items():
        for form in forms:
            for m in re.finditer(r"\{(\w+)\}", form):
                if m.group(1) not in NAME_FIELDS or (
                        m.group(1) == "dealer" and key.startswith("sixcard.")):
                    continue  # sixcard's {dealer} is the dealer's hand, not a person
                before = re.sub(r"<[^>]*>", "", form[:m.start()]).rstrip()
                last = re.search(r"[\w']+$", before)
                if last and last.group() not in KEEP_NOMINATIVE and re.match(
                        r"[А-Яа-яЁёІіЇїЄєҐґ']", before[-1]):
                    problems.append((key, form))
                after = re.sub(r"<[^>]*>", "", form[m.end():])
                word = re.match(r" ([А-Яа-яЁёІіЇїЄєҐґ']+)", after)
                if word and re.search(r"(л|ла|ло|лся|лась|ший|шая|щий|щая|\w\wв|вся|лася)$",
                                      word.group(1)):
                    problems.append((key, form))
    assert not problems, problems
