"""Labels for the right-to-left picture tests, before the Arabic and Persian catalogs land: a
few real Persian and Arabic words for the keys the standings and the duel's result ask for,
English for the rest, and the `rtl` and `digits` a bot.i18n.Translator of the language has."""

from __future__ import annotations

from bot.i18n import DIGITS, RTL, WESTERN_DIGITS, translator

EN = translator("en")

_HANDS_FA = {"high_card": "کارت بالا", "one_pair": "یک جفت", "two_pair": "دو جفت",
             "three_of_a_kind": "سه‌تایی", "straight": "استریت", "flush": "فلاش",
             "full_house": "فول هاوس", "four_of_a_kind": "چهارتایی",
             "straight_flush": "استریت فلاش", "royal_flush": "رویال فلاش"}
_HANDS_AR = {"high_card": "ورقة عالية", "one_pair": "زوج", "two_pair": "زوجان",
             "three_of_a_kind": "ثلاثة متشابهة", "straight": "ستريت", "flush": "فلاش",
             "full_house": "فل هاوس", "four_of_a_kind": "أربعة متشابهة",
             "straight_flush": "ستريت فلاش", "royal_flush": "رويال فلاش"}

FA = {
    "pic.standings.title": "جدول رده‌بندی",
    "pic.standings.order": "به ترتیب ریتینگ، سپس ژتون خالص · ? زیر 5 دوئل",
    "pic.standings.col_rank": "#", "pic.standings.col_player": "بازیکن",
    "pic.standings.col_rating": "ریتینگ", "pic.standings.col_wld": "ب–ب–م",
    "pic.standings.col_net": "خالص", "pic.standings.col_best": "بهترین دست",
    "pic.standings.col_bonus": "پاداش", "pic.standings.col_streak": "روند",
    "pic.standings.col_duels": "دوئل‌ها", "pic.standings.duels_count": "{n} دوئل",
    "pic.standings.history": "ریتینگ در هر دوئل", "pic.standings.net_chips": "ژتون خالص",
    "pic.standings.win_rate": "درصد برد", "pic.standings.top_bonus": "بیشترین پاداش",
    "pic.standings.all_chats": "همه گفتگوها",
    "pic.standings.card_rank": "رتبه {rank} از {players} با ریتینگ {rating}",
    "pic.standings.streak_w": "{n} برد", "pic.standings.streak_l": "{n} باخت",
    "pic.standings.versus": "رو در رو: شما و {name}",
    "pic.standings.versus_duels": "{n} دوئل",
    "pic.standings.versus_none": "شما و {name} هنوز با هم بازی نکرده‌اید",
    "pic.standings.versus_record": "شما {wins} برد، {losses} باخت، {draws} مساوی، خالص {net}",
    "pic.duel.over_win": "{name} دوئل را برد", "pic.duel.over_draw": "دوئل مساوی شد",
    "pic.duel.why_bullets": "پس از {n} گلوله", "pic.duel.score_title": "همه گلوله‌ها",
    "pic.duel.chart_title": "ژتون‌ها، گلوله به گلوله", "pic.duel.round_n": "دور {n}",
    "pic.duel.tiebreak": "تای‌بریک", "pic.duel.stake": "شرط", "pic.duel.pass": "پاس",
    "pic.duel.play": "بازی", "pic.duel.split": "تقسیم", "pic.duel.winner": "برنده",
    "pic.duel.start": "شروع", "pic.duel.score_bonus": "پاداش {n}",
    "pic.duel.to_act": "نوبت شما", "pic.duel.hand_no": "#{n}",
    **{f"hand.{k}": v for k, v in _HANDS_FA.items()},
    **{f"pic.duel.short.{k}": v for k, v in _HANDS_FA.items()},
    "pic.duel.short.royal_flush": "رویال", "pic.duel.short.straight_flush": "است. فلاش",
}
AR = {
    "pic.standings.title": "الترتيب", "pic.standings.order": "حسب التصنيف ثم صافي الرقائق",
    "pic.standings.col_rank": "#", "pic.standings.col_player": "اللاعب",
    "pic.standings.col_rating": "التصنيف", "pic.standings.col_wld": "ف–خ–ت",
    "pic.standings.col_net": "الصافي", "pic.standings.col_best": "أفضل يد",
    "pic.standings.col_bonus": "المكافأة", "pic.standings.col_streak": "السلسلة",
    "pic.standings.duels_count": "{n} مبارزة", "pic.standings.streak_w": "{n} فوز",
    "pic.standings.streak_l": "{n} خسارة",
    "pic.duel.over_win": "{name} يفوز بالمبارزة", "pic.duel.score_title": "كل الرصاصات",
    "pic.duel.round_n": "الجولة {n}", "pic.duel.chart_title": "الرقائق، رصاصة برصاصة",
    "pic.duel.why_bullets": "بعد {n} رصاصات", "pic.duel.stake": "الرهان",
    "pic.duel.pass": "تمرير", "pic.duel.play": "لعب", "pic.duel.split": "تعادل",
    "pic.duel.winner": "الفائز", "pic.duel.start": "البداية", "pic.duel.score_bonus": "مكافأة {n}",
    "pic.duel.hand_no": "#{n}",
    **{f"hand.{k}": v for k, v in _HANDS_AR.items()},
    **{f"pic.duel.short.{k}": v for k, v in _HANDS_AR.items()},
    "pic.duel.short.royal_flush": "رويال", "pic.duel.short.three_of_a_kind": "ثلاثية",
    "pic.duel.short.four_of_a_kind": "رباعية",
}


class Words:
    """A right-to-left language's words for the pictures (`lang`: "fa" or "ar"), English where
    this double has none; `rtl` and `digits` as bot.i18n gives them to that language."""

    def __init__(self, lang: str, rtl: bool | None = None) -> None:
        self.lang = lang
        self.words = FA if lang == "fa" else AR
        self.rtl = lang in RTL if rtl is None else rtl
        self.digits = DIGITS.get(lang, WESTERN_DIGITS)

    def text(self, key: str, /, **values: object) -> str:
        if key in self.words:
            return self.words[key].format(**values)
        return EN.text(key, **values)

    def plural(self, key: str, n: int, /, **values: object) -> str:
        if key in self.words:
            return self.words[key].format(n=n, **values)
        return EN.plural(key, n, **values)
