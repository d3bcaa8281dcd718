"""Automatic replies (out of office, vacation) told by their words: the one list of those
words, by language, and the two questions asked of it: is this subject an automatic
reply's, and do the first lines of a reply say that its writer is away.

Each language lists what the big mail programs write in that language (Outlook and
Exchange's "Automatic reply:", Lotus Notes' "AUTO:", Gmail's and Thunderbird's vacation
answers, which carry the writer's own words) and what people write in theirs:

- `phrases` only a machine (or someone saying they are away) writes: found anywhere in a
  subject, and in the first lines of a reply holding no command;
- `openers` say so only at the very start of a subject, followed by a separator, a date,
  an "until" or nothing ("Absent: ...", "Urlaub bis 3.3."): "Absent friends" and "Holiday
  game" are left alone;
- `until` the words for "until" and "from" that may follow an opener;
- `prefixes` the language's reply and forward prefixes ("AW:", "TR:") an auto-reply's
  subject may start with.

Entries are regular expressions in lower case, matched without regard to case or accents
(both sides are compared with their accents taken off: "Réponse" is "reponse", "Büro" is
"buro"); letters that are no accented form keep their alternatives (`frav(?:æ|ae)r`,
Turkish `yan[ıi]t`).
A language added here needs its examples in tests/inbound/test_auto_replies.py.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# How far into a reply an out-of-office text is looked for.
FIRST_LINES = 5


@dataclass(frozen=True)
class Words:
    phrases: tuple[str, ...]
    openers: tuple[str, ...] = ()
    until: tuple[str, ...] = ()
    prefixes: tuple[str, ...] = ()


LANGUAGES: dict[str, Words] = {
    "en": Words(
        phrases=(r"automatic reply", r"auto[- ]?reply", r"auto[- ]?response",
                 r"automated (?:reply|response)", r"out of (?:the )?office",
                 r"away from (?:my|the) (?:office|desk)",
                 r"(?:i am|i[’']m|i will be|i[’']ll be) "
                 r"(?:away|out|on (?:holiday|vacation|leave)|off)\b",
                 r"on (?:holiday|vacation|leave) (?:until|till|from)"),
        openers=("auto", "ooo", "oof", "away", "absent", "absence", "vacation", "holiday"),
        until=("until", "till"),
        prefixes=("re", "fw", "fwd")),
    "it": Words(
        phrases=(r"risposta automatica", r"fuori (?:sede|ufficio)",
                 r"sono (?:in ferie|assente|fuori)", r"non sono in ufficio"),
        openers=("assente", "assenza", "ferie"),
        until=("fino", "dal"),
        prefixes=("r", "rif", "i")),
    "nl": Words(
        phrases=(r"automatisch (?:antwoord|bericht)", r"afwezigheidsbericht",
                 r"buiten kantoor", r"niet (?:op|aanwezig op) kantoor",
                 r"ik ben (?:afwezig|op vakantie|er niet)"),
        openers=("afwezig", "afwezigheid", "vakantie"),
        until=("tot",),
        prefixes=("antw", "doorst")),
    "es": Words(
        phrases=(r"respuesta automatica", r"mensaje automatico",
                 r"fuera de (?:la )?oficina", r"estoy (?:de vacaciones|fuera|ausente)"),
        openers=("ausente", "ausencia", "vacaciones"),
        until=("hasta", "desde"),
        prefixes=("rv",)),
    "de": Words(
        phrases=(r"abwesenheitsnotiz", r"automatische (?:antwort|nachricht)",
                 r"nicht im b(?:ue|u)ro",
                 r"ich bin (?:im urlaub|abwesend|nicht da|au(?:ss)er haus)"),
        openers=("abwesend", "abwesenheit", "urlaub"),
        until=("bis", "vom"),
        prefixes=("aw", "wg")),
    "fr": Words(
        phrases=(r"reponse automatique", r"repondeur automatique", r"message d[’']absence",
                 r"absente? du bureau", r"absence du bureau", r"(?:hors|en dehors) du bureau",
                 r"je (?:suis|serai) (?:absente?|en conges?|en vacances)",
                 r"en (?:conges?|vacances) (?:jusqu|du|a partir)"),
        openers=("absente?", "absence", "conges?", "vacances"),
        until=("jusqu", "du", "a partir"),
        prefixes=("tr", "ref")),
    "pt": Words(
        phrases=(r"resposta automatica", r"mensagem automatica",
                 r"fora do escritorio", r"ausente do escritorio",
                 r"(?:estou|estarei) (?:de ferias|fora|ausente)"),
        openers=("ausente", "ausencia", "ferias"),
        until=("ate",),
        prefixes=("res", "enc")),
    "ca": Words(
        phrases=(r"resposta automatica", r"fora de l[’']oficina",
                 r"(?:soc|estic) de vacances"),
        openers=("absent", "absencia", "vacances"),
        until=("fins",)),
    "pl": Words(
        phrases=(r"odpowiedz automatyczna", r"automatyczna odpowiedz", r"poza biurem",
                 r"jestem na urlopie", r"nieobecnosc w biurze"),
        openers=("nieobecnosc", "nieobecny", "nieobecna", "urlop"),
        until=("do", "od"),
        prefixes=("odp", "pd")),
    "cs": Words(
        phrases=(r"automaticka odpoved", r"mimo kancelar", r"jsem na dovolene",
                 r"nejsem v kancelari"),
        openers=("nepritomnost", "nepritomen", "nepritomna", "dovolena"),
        until=("do", "od"),
        prefixes=("odp",)),
    "sk": Words(
        phrases=(r"automaticka odpoved", r"mimo kancelarie", r"som na dovolenke"),
        openers=("nepritomnost", "dovolenka"),
        until=("do", "od")),
    "hu": Words(
        phrases=(r"automatikus valasz", r"hazon kivul", r"irodan kivul",
                 r"szabadsagon vagyok"),
        openers=("tavol", "szabadsag"),
        prefixes=("va",)),
    "ro": Words(
        phrases=(r"raspuns automat", r"in afara biroului", r"sunt in concediu"),
        openers=("absent", "concediu"),
        until=("pana",)),
    "sl": Words(
        phrases=(r"samodejni odgovor", r"odsoten iz pisarne", r"sem na dopustu"),
        openers=("odsoten", "odsotna", "odsotnost", "dopust"),
        until=("do",)),
    "hr": Words(  # Croatian, Serbian and Bosnian in Latin letters
        phrases=(r"automatski odgovor", r"izvan ureda", r"van kancelarije",
                 r"(?:na godisnjem|na odmoru) sam"),
        openers=("odsutan", "odsutna", "odsutnost", "godisnji"),
        until=("do",)),
    "et": Words(
        phrases=(r"automaatne vastus", r"automaatvastus", r"kontorist eemal",
                 r"olen puhkusel"),
        openers=("puhkus", "eemal"),
        until=("kuni",)),
    "lv": Words(
        phrases=(r"automatiska atbilde", r"arpus biroja", r"esmu atvalinajuma"),
        openers=("prombutne", "atvalinajums"),
        until=("lidz",)),
    "lt": Words(
        phrases=(r"automatinis atsakymas", r"ne biure", r"esu atostogose"),
        openers=("atostogos",),
        until=("iki",)),
    "el": Words(
        phrases=(r"αυτοματη απαντηση", r"εκτος γραφειου", r"ειμαι σε αδεια"),
        openers=("αδεια", "απουσια"),
        until=("εως", "μεχρι"),
        prefixes=("απ", "σχετ", "πρθ")),
    "bg": Words(
        phrases=(r"автоматичен отговор", r"извън офиса", r"в отпуск съм"),
        openers=("отпуск", "отсъствие"),
        until=("до",)),
    "ru": Words(
        phrases=(r"автоматический ответ", r"автоответ", r"вне офиса", r"нет на месте",
                 r"я в отпуске"),
        openers=("отпуск", "отсутствую", "отсутствие"),
        until=("до", "с"),
        prefixes=("ответ", "отв")),
    "uk": Words(
        phrases=(r"автоматична відповідь", r"поза офісом", r"я у відпустці"),
        openers=("відпустка", "відсутній", "відсутня"),
        until=("до",)),
    "tr": Words(
        phrases=(r"otomatik (?:yan[ıi]t|cevap)", r"ofis d[ıi]s[ıi]nda", r"izindeyim"),
        openers=("izin", "izinde"),
        until=("kadar",),
        prefixes=("ynt", "ilt")),
    "sv": Words(
        phrases=(r"autosvar", r"automatiskt svar", r"franvaromeddelande",
                 r"(?:inte|ej) pa kontoret", r"jag ar (?:pa semester|ledig|borta)"),
        openers=("franvaro", "franvarande", "semester", "ledig"),
        until=("till", "fran"),
        prefixes=("sv", "vb")),
    "da": Words(
        phrases=(r"automatisk svar", r"ikke pa kontoret",
                 r"jeg er (?:pa ferie|bortrejst|borte|frav(?:æ|ae)rende)"),
        openers=("frav(?:æ|ae)r", "frav(?:æ|ae)rende", "ferie"),
        until=("til",),
        prefixes=("vs",)),
    "no": Words(
        phrases=(r"automatisk svar", r"ute av kontoret", r"ikke pa kontoret",
                 r"jeg er (?:pa ferie|borte|frav(?:æ|ae)rende)"),
        openers=("frav(?:æ|ae)r", "frav(?:æ|ae)rende", "ferie"),
        until=("til",)),
    "fi": Words(
        phrases=(r"automaattinen vastaus", r"automaattivastaus", r"poissa toimistolta",
                 r"olen (?:lomalla|poissa)"),
        openers=("poissa", "poissaolo", "lomalla", "loma"),
        until=("asti", "alkaen"),
        prefixes=("vs", "vl")),
    "is": Words(
        phrases=(r"sjalfvirkt svar", r"[ée]g er (?:i frii|ekki vi[ðd]|fjarverandi)",
                 r"er ekki vi[ðd]"),
        openers=("fjarverandi", "fjarvera", "i frii"),
        until=("fra",)),
    "ja": Words(phrases=(r"自動応答", r"自動返信", r"不在通知", r"外出中", r"不在のお知らせ")),
    "zh": Words(phrases=(r"自动回复", r"自動回覆", r"自动答复", r"自動回復", r"不在办公室",
                         r"休假中")),
    "ko": Words(phrases=(r"자동 회신", r"자동 응답", r"부재중")),
}


def plain(text: str) -> str:
    """`text` case folded with its accents taken off, as the words are compared."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch)).casefold()


def _either(entries: list[str]) -> str:
    return "|".join(plain(entry) for entry in entries)


_PHRASES = _either([p for words in LANGUAGES.values() for p in words.phrases])
_OPENERS = _either([o for words in LANGUAGES.values() for o in words.openers])
_UNTIL = _either([u for words in LANGUAGES.values() for u in words.until])
_PREFIXES = _either([p for words in LANGUAGES.values() for p in words.prefixes])
SUBJECT = re.compile(
    r"^(?:\s*(?:" + _PREFIXES + r")\s*:\s*)*"
    r"[\[(]?\s*(?:(?:" + _PHRASES + r")|(?:" + _OPENERS + r")"
    r"\s*(?:[:\-–—\])\d]|$|(?:" + _UNTIL + r")\b))")
ANYWHERE = re.compile(_PHRASES)


def automatic_subject(subject: str, game_name: str = "") -> bool:
    """Whether a subject is an automatic reply's. The game's name is no part of the
    subject's words (a game named "Out of office")."""
    subject = " ".join(subject[:300].split())
    name = " ".join(game_name.split())
    found = list(re.finditer(re.escape(name), subject, re.IGNORECASE)) if name else []
    if found:  # the original subject (the game's name) ends what an auto-reply writes
        subject = subject[:found[-1].start()] + " " + subject[found[-1].end():]
    subject = plain(subject)
    return bool(SUBJECT.match(subject) or ANYWHERE.search(subject))


def sounds_automatic(lines: list[str]) -> bool:
    """Whether the first lines of a reply say that its writer is away (the caller checks
    that they hold no command: "say I am on holiday next week" is a person's)."""
    return any(ANYWHERE.search(line) or SUBJECT.match(line)
               for line in map(plain, lines[:FIRST_LINES]))
