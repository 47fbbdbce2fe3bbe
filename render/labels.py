"""Every word drawn in a picture, in English and Russian (render/ must not import bot/).

`label(lang, key, **fields)` formats one; an unknown language falls back to English.
Sentences are built as "name: what" so that no player name has to be declined in Russian.
"""

from __future__ import annotations

from rules.hands import Category

LANGS = ("en", "ru")

_EN: dict[str, str] = {
    "player": "Player {n}",
    "dealer": "Dealer",
    "to_act": "to act",
    "round_bullet": "Round {round} · Bullet {bullet}",
    "tiebreak_bullet": "Tiebreak · Bullet {bullet}",
    "bonus_duel": "Bonus duel",
    "pass": "Pass",
    "play": "Play",
    "stake": "Stake",
    "winner": "Winner",
    "draw": "Draw",
    "split": "Split",
    "cards_out": "Cards out: {n}",
    "legend_unseen": "unseen",
    "legend_up": "face up",
    "legend_out": "out",
    "hand_no": "#{n}",
    "shuffling": "Shuffling the deck…",
    "choose": "{name}: choose a hand — Pass (1) or Play (2)",
    "choose_bonus": "{name}: choose a hand — 2 chips, no passing",
    "choose_last": "{name}: take the last hand — 2 chips",
    "bonus_rule": "Winner takes the pot plus a bonus by hand",
    "offer": "Stacks are level: play a tiebreak bullet?",
    "answer_yes": "{name}: yes",
    "answer_no": "{name}: no",
    "answer_wait": "{name}: …",
    "over_win": "{name} wins the duel",
    "over_draw": "The duel is a draw",
    "both_pass": "Both passed: each takes their chip back",
    "uncontested": "{w} plays, {l} passes: {w} takes {n} chips",
    "showdown": "Showdown: {w} takes {n} chips",
    "split_pot": "Equal hands: the pot is split",
    "bonus": "Bonus: {cat} ×{mult} — {l} pays {n}",
    "bonus_capped": "Bonus: {cat} ×{mult} — {l} pays {n} (the whole stack)",
    "bonus_none": "Equal hands: no bonus",
    "bonus_zero": "High card: bonus ×0",
    "out_of_chips": "{name} is out of chips",
    "final_stacks": "Final stacks",
    "chart_title": "Stacks, bullet by bullet",
    "bullets": "Bullets",
    "start": "start",
    "round_n": "Round {n}",
    "tiebreak": "Tiebreak",
    # standings (render/standings.py)
    "standings": "Standings",
    "duels_count": "Duels: {n}",
    "col_rank": "#",
    "col_player": "Player",
    "col_duels": "Duels",
    "col_wld": "W–L–D",
    "col_rate": "Win %",
    "col_net": "Net",
    "col_best": "Best hand",
    "col_bonus": "Bonus",
    "col_streak": "Streak",
    "streak_w": "W{n}",
    "streak_l": "L{n}",
    "all_chats": "All chats",
    "card_rank": "#{rank} of {players}",
    "win_rate": "Win rate",
    "net_chips": "Net chips",
    "top_bonus": "Biggest bonus",
    "versus": "Head to head with {name}",
    "versus_duels": "Duels: {n}",
    "versus_none": "No duels between you yet",
}

_RU: dict[str, str] = {
    "player": "Игрок {n}",
    "dealer": "Дилер",
    "to_act": "ходит",
    "round_bullet": "Раунд {round} · Пуля {bullet}",
    "tiebreak_bullet": "Тай-брейк · Пуля {bullet}",
    "bonus_duel": "Бонусная дуэль",
    "pass": "Пас",
    "play": "Игра",
    "stake": "Ставка",
    "winner": "Победитель",
    "draw": "Ничья",
    "split": "Делёж",
    "cards_out": "Вне игры: {n}",
    "legend_unseen": "не видны",
    "legend_up": "открыты",
    "legend_out": "вышли",
    "hand_no": "№{n}",
    "shuffling": "Колода тасуется…",
    "choose": "{name}: выберите руку — Пас (1) или Игра (2)",
    "choose_bonus": "{name}: выберите руку — 2 фишки, без паса",
    "choose_last": "{name}: последняя рука — 2 фишки",
    "bonus_rule": "Победитель берёт банк и бонус за комбинацию",
    "offer": "Стеки равны: сыграть тай-брейк?",
    "answer_yes": "{name}: да",
    "answer_no": "{name}: нет",
    "answer_wait": "{name}: …",
    "over_win": "{name} выигрывает дуэль",
    "over_draw": "Дуэль закончилась вничью",
    "both_pass": "Оба спасовали: фишки возвращаются",
    "uncontested": "{w} — игра, {l} — пас: {w} забирает {n} {chips}",
    "showdown": "Вскрытие: {w} забирает {n} {chips}",
    "split_pot": "Руки равны: банк делится пополам",
    "bonus": "Бонус: {cat} ×{mult} — {l} платит {n}",
    "bonus_capped": "Бонус: {cat} ×{mult} — {l} платит {n} (весь стек)",
    "bonus_none": "Руки равны: бонуса нет",
    "bonus_zero": "Старшая карта: бонус ×0",
    "out_of_chips": "{name}: фишки кончились",
    "final_stacks": "Итоговые стеки",
    "chart_title": "Стеки по пулям",
    "bullets": "Пули",
    "start": "старт",
    "round_n": "Раунд {n}",
    "tiebreak": "Тай-брейк",
    # standings (render/standings.py)
    "standings": "Турнирная таблица",
    "duels_count": "Дуэлей: {n}",
    "col_rank": "#",
    "col_player": "Игрок",
    "col_duels": "Дуэли",
    "col_wld": "В–П–Н",
    "col_rate": "Побед",
    "col_net": "Итог",
    "col_best": "Лучшая рука",
    "col_bonus": "Бонус",
    "col_streak": "Серия",
    "streak_w": "В{n}",
    "streak_l": "П{n}",
    "all_chats": "Все чаты",
    "card_rank": "{rank}-е место из {players}",
    "win_rate": "Доля побед",
    "net_chips": "Итог в фишках",
    "top_bonus": "Лучший бонус",
    "versus": "Личные встречи — {name}",
    "versus_duels": "Дуэлей: {n}",
    "versus_none": "Вы ещё не играли друг с другом",
}

_TABLES = {"en": _EN, "ru": _RU}


def lang_of(lang: str) -> str:
    code = (lang or "en").lower().replace("_", "-").split("-")[0]
    return code if code in _TABLES else "en"


def chips_ru(n: int) -> str:
    """The Russian word for "chips" agreeing with `n` (1 фишка, 2 фишки, 5 фишек)."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return "фишка"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "фишки"
    return "фишек"


def label(lang: str, key: str, **fields: object) -> str:
    table = _TABLES[lang_of(lang)]
    text = table.get(key, _EN[key])
    if "n" in fields and isinstance(fields["n"], int):
        fields.setdefault("chips", chips_ru(fields["n"]))
    return text.format(**fields)


def category(lang: str, cat: Category) -> str:
    return cat.name_ru if lang_of(lang) == "ru" else cat.name_en


def keys(lang: str) -> frozenset[str]:
    return frozenset(_TABLES[lang_of(lang)])
