"""Every word drawn in a picture, in English and Russian (render/ must not import bot/).

`label(lang, key, **fields)` formats one; an unknown language falls back to English.
Sentences are built as "name: what" so that no player name has to be declined in Russian.
"""

from __future__ import annotations

from rules.hands import Category

LANGS = ("en", "ru")

_EN: dict[str, str] = {
    # six-card poker (render/sixcard.py)
    "sc_title": "Six-card poker",
    "sc_you": "Player",
    "sc_box": "Box {n}",
    "sc_blind": "blind",
    "sc_ante": "Ante {n}",
    "sc_bet": "Bet {n}",
    "sc_fees": "Fees paid: {n}",
    "sc_on_table": "on the table: {n}",
    "sc_sixth": "6th card",
    "sc_new": "new",
    "sc_out": "out",
    "sc_hidden": "Shown after box {n}",
    "sc_blind_wait": "Plays blind: opens with the dealer",
    "sc_deciding": "▶ your move",
    "sc_playing": "In play",
    "sc_folded": "Folded",
    "sc_dealer_hint": "Qualifies with a pair or better",
    "sc_qualifies": "Qualifies",
    "sc_no_game": "No game",
    "sc_was": "Was: {cat}",
    "sc_chance": "Chance to qualify: {outs} of {unseen}",
    "sc_game_bought": "Bought the dealer a game",
    "sc_game_declined": "No game bought",
    "sc_offer_box": "Buy the dealer a game?",
    "sc_won": "Won, bet {mult}:1",
    "sc_lost": "Lost",
    "sc_push": "Push",
    "sc_paid_no_game": "No game: ante 1:1",
    "sc_stakes_back": "Stakes returned",
    "sc_move": "Box {n}: your move",
    "sc_opt_fold": "Fold",
    "sc_opt_play": "Play (bet {n})",
    "sc_opt_buy": "Buy a 6th card ({n})",
    "sc_opt_replace": "Replace a card ({n})",
    "sc_fold_only": "Not enough chips for the bet: fold only",
    "sc_dealer_none": "The dealer has no game",
    "sc_offer": "Box {n}: buy the dealer a game for {fee}?",
    "sc_offer_rule": "If not, the ante is paid 1:1 and the bet returned",
    "sc_over": "Game over",
    "sc_net": "Net {net}",
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
    # six-card poker (render/sixcard.py)
    "sc_title": "Шестикарточный покер",
    "sc_you": "Игрок",
    "sc_box": "Бокс {n}",
    "sc_blind": "вслепую",
    "sc_ante": "Анте {n}",
    "sc_bet": "Ставка {n}",
    "sc_fees": "Доплаты: {n}",
    "sc_on_table": "на столе: {n}",
    "sc_sixth": "6-я карта",
    "sc_new": "новая",
    "sc_out": "сброс",
    "sc_hidden": "Откроется после бокса {n}",
    "sc_blind_wait": "Вслепую: откроется с дилером",
    "sc_deciding": "▶ ваш ход",
    "sc_playing": "В игре",
    "sc_folded": "Фолд",
    "sc_dealer_hint": "Игра у дилера — от пары",
    "sc_qualifies": "Есть игра",
    "sc_no_game": "Нет игры",
    "sc_was": "Было: {cat}",
    "sc_chance": "Шанс на игру: {outs} из {unseen}",
    "sc_game_bought": "Игра дилеру куплена",
    "sc_game_declined": "Игру не покупали",
    "sc_offer_box": "Купить дилеру игру?",
    "sc_won": "Победа, ставка {mult}:1",
    "sc_lost": "Проигрыш",
    "sc_push": "Ничья",
    "sc_paid_no_game": "Нет игры: анте 1:1",
    "sc_stakes_back": "Возврат ставок",
    "sc_move": "Бокс {n}: ваш ход",
    "sc_opt_fold": "Фолд",
    "sc_opt_play": "Игра (ставка {n})",
    "sc_opt_buy": "Купить 6-ю карту ({n})",
    "sc_opt_replace": "Заменить карту ({n})",
    "sc_fold_only": "На ставку не хватает фишек: только фолд",
    "sc_dealer_none": "У дилера нет игры",
    "sc_offer": "Бокс {n}: купить дилеру игру за {fee}?",
    "sc_offer_rule": "Если нет: анте платится 1:1, ставка возвращается",
    "sc_over": "Игра окончена",
    "sc_net": "Итог {net}",
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
