"""A grammar for the model's one sentence after a lead: the world's response, never "you".

After a lead written by code (lead.py), the model's sentence is where every contradiction that
reached the player stood, and most of them had "you" in them: the character made to act or feel
("you feel a chill down your spine", "You step into the room"), or the outcome retold through
the character ("causing you to lose balance and fall down", "you notice that the catch is
hidden"). Told in words, a small model kept writing "you" (the prompt already says "you" may
only see, hear or be acted on). Constrained by a grammar, it cannot: resent with it, 295
continuation prompts of nine earlier runs gave 31 replies that contradicted the engine by
reading, against 78 without (the real_grammar1 split of tests/service/narrator/
real_model_narrations.yaml).

The grammar is GBNF, which llama.cpp's servers (llama-server and llama-cpp-python's) take as a
``grammar`` beside the chat request (settings.model_grammar). It is built here rather than by a
library: llama.cpp's JSON-schema converter takes regular expressions, but "no word from this
list" has no regular expression without look-ahead, which it does not take; its complement is
the small automaton below (one state per prefix of a banned word, Aho-Corasick's), one rule per
state.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

# Words the sentence may not hold (as part of any word, in any case): "you" (so your, yourself,
# you're), "player" (then "difficult for the player to focus", a resent reply), and the
# character's own name, which the model used instead ("Kell's calm voice soothes it"). "young"
# and "bayou" go with them: the model finds other words.
BANNED = ("you", "player")
# ... and the nouns the model then named the character by, barred at a word's start: "sending a
# chilling shiver down the spine of the lone adventurer" (run 40), "The gatekeeper's eyes widen
# as he realizes the intruder", "he rushes to greet the stranger" (the tenth words)
ROLES = (
    " adventurer",
    " intruder",
    " stranger",
    " protagonist",
    " hero",
    " trespasser",
    " newcomer",
    " traveller",
    " traveler",
    " wanderer",
)
# ... and "your" bent round the bar: "The quartermaster looks at the suspicious look on yur face"
# (runs 44 and 49, grammar1: all three of the labelled replies that hold it)
BENT = (" yur",)
# ... and the character's own voice in the narrator's words: "The guard's strength is too great
# for a novice like myself" (run 54; "I" and "me" stay: others' speech is told with them)
VOICE = (" myself",)
# ... and the lead's own words for the outcome (lead.py): "The customs cutter from the lighthouse
# gallery, but not without a cost." (the fifteenth words: the lead echoed as no sentence)
LEAD_WORDS = (
    " not without a cost",
    " and it works",
    " it goes wrong",
    " it goes badly wrong",
    " neither side wins",
    " only a graze",
    " only a little headway",
    " there first",
    " does not give",
    " keeps hold of",
)
# ... and the prompt's own word for what it asks: "The next sentence could be: The door to the
# secret room opens", "The second sentence: The card dealer's eyes light up" (stop 28's paired
# trial, 2 of 228 replies); "sentence" stood in 7 labelled replies, all of them contradicting.
PROMPT_WORDS = (" sentence",)
# ... and the game's own name, which the model took for the character's: told a story "of Elegy",
# it named the character Elegy in 20 of the labelled continuations, two of them made to feel
# ("Elegy feels a sense of pride and accomplishment", the sixteenth words; "Elegy feels a sense
# of awe and wonder", run 45), and once "the victorious Go Forth". A game's name is no word of
# its story, save where it is also its setting's: "the Sundered Isles" is a place there.
SETTING_NAMES = frozenset({"sundered isles"})


def game_words(system_name: str | None) -> tuple[str, ...]:
    """The game's name as a barred phrase (at a word's start), or none for a setting's name."""
    name = " ".join((system_name or "").lower().split())
    return () if not name or name in SETTING_NAMES else (f" {name}",)


# ... and the one who does what the player does, named from the player's own verb: "the dwarf
# looks at the price and shakes his head, while the haggler sighs in frustration" after "I haggle
# with the dwarf over the price" (runs 44 and 49; "the haggler" stood in 5 labelled replies, 4 of
# them the character made to feel). Those who steal are thieves.
_THIEVING = frozenset({"steal", "pilfer", "filch", "pinch", "pickpocket", "lift", "nick", "swipe"})


def doer_words(attempt: str | None) -> tuple[str, ...]:
    """The nouns for one who does the attempt's first verb, barred at a word's start ("haggle
    with the dwarf" -> " haggler"; "track the goblins" -> " tracker"; "swim" -> " swimmer")."""
    verb = (attempt or "").split(" ", 1)[0].lower()
    if not re.fullmatch(r"[a-z]{3,}", verb):
        return ()
    if verb.endswith("e"):
        nouns = [verb + "r"]
    elif verb.endswith("y") and verb[-2] not in "aeiou":
        nouns = [verb[:-1] + "ier"]
    elif re.search(r"[^aeiou][aeiou][bdgmnpt]$", verb):
        nouns = [verb + verb[-1] + "er", verb + "er"]  # swimmer; doubled or not by stress
    else:
        nouns = [verb + "er"]
    if verb in _THIEVING:
        nouns.append("thie")  # thief, thieves
    return tuple(f" {n}" for n in nouns)


# How the sentence after a narration's lead begins: with the scene (the weather, the light, a
# sound or a smell), not with the attempt's thing, rival or foe. Every contradiction that reached
# the player after a lead told one of those ("The hound's eyes widen, and it lunges", "As the
# grating continues to fall", "The skeleton's thick armor deflects the attack"): the lead has
# told what became of them. Barring their words instead (tried: the attempt's words, "he", "it",
# "they") made the model bend them ("the keth", "theirorses", "catacom bs").
# Each request is offered two openers of each sense, picked by its own dice and words: offered
# all, the model began 15 of 35 with "The sun" ("..., casting a warm glow"). Each opener ends
# at a word's end: "The wind" let the model write the wight it was steering round as "The
# winder's eyes", and the duellist as "The dustellist".
SCENE_OPENERS = {
    "weather": ("The wind", "The rain", "Rain", "The fog", "Fog", "The mist", "Mist",
                "The storm", "Thunder", "The cold", "A cold", "A gust of", "The clouds"),
    "light": ("The light", "The sun", "The moon", "Moonlight", "Sunlight", "Lamplight",
              "Torchlight", "Candlelight", "The shadows", "Darkness", "The stars", "The sky",
              "Dawn", "Dusk", "The night"),
    "sound": ("The sound of", "Somewhere", "In the distance,", "Far off,", "A bell",
              "A distant", "The silence", "Silence", "Gulls", "Crows"),
    "smell": ("The smell of", "The scent of", "The stench of", "The smoke", "Smoke",
              "The dust", "Dust", "The air"),
    "around": ("Outside,", "Overhead,", "All around,", "Beyond"),
}  # fmt: skip
OFFERED_PER_SENSE = 2
# ... and told by no "we": the scene's "we" is the character's party made to act ("The sun was
# setting as we approached the harbor", the thirty-fifth words told with the openers; "As we set
# sail", the same words before). Whole words: barred at a word's start, "our" would bar "hour".
OURS = (" we ", " we'", " us ", " our ", " ours ", " ourselves")
# ... and with no "cast": begun with the scene, the model's light was "casting long shadows" (or
# "a warm glow", "a gloomy ...") in 35 of 89 scene sentences of runs 66 and 67 and the
# thirty-seventh and thirty-eighth words, against 5 of 92 sentences before the openers: a player
# reads the same sentence every other turn.
WORN = (" cast",)


def scene_openers(key: str) -> tuple[str, ...]:
    """The openers offered for one request: OFFERED_PER_SENSE of each sense, picked by ``key``
    (the same request, the same offer), each with the space that ends its word."""
    pick = random.Random(key)
    return tuple(
        f"{opener} " for openers in SCENE_OPENERS.values()
        for opener in pick.sample(openers, OFFERED_PER_SENSE)
    )  # fmt: skip


# Never in the sentence: digits (the narrator mentions no number after a lead: the facts are
# in the lead's outcome), line breaks, the marks of tags, headings and lists, and quotation
# marks: a speech is told, not quoted (given an optional closing mark, the model stopped at
# '"Forward to the bridge!' and left the quotation open).
EXCLUDED = '0123456789\n\r<>#*[]{}|_"“”'
ENDS = ".!?"
# What the sentence is written in: printable ASCII, the Latin-1 letters and the typographic
# apostrophe and dashes. Any character at all, and the model barred from "your" wrote it in
# Chinese ("the confused look on你的 face", run 36).
WRITTEN = frozenset(
    [chr(c) for c in range(0x20, 0x7F)]
    + [chr(c) for c in range(0xC0, 0x100) if chr(c) not in "×÷"]
    + list("’‘—–")
)


@lru_cache(maxsize=1024)
def _ranges(chars: frozenset[str]) -> str:
    """Characters as the inside of a GBNF class, runs of neighbours as ranges (cached: most of a
    grammar's states allow the same characters)."""
    codes = sorted(ord(c) for c in chars)
    parts: list[str] = []
    i = 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        first, last = _class_char(chr(codes[i])), _class_char(chr(codes[j]))
        parts.append(first if i == j else f"{first}{last}" if j == i + 1 else f"{first}-{last}")
        i = j + 1
    return "".join(parts)


def _class_char(c: str) -> str:
    """A character as GBNF writes it inside [...]: the marks a class gives a meaning to as hex
    escapes (llama.cpp knows \\x, \\n, \\r and a few others; "\\^" it refuses, and a grammar it
    cannot parse took llama-cpp-python's server down)."""
    if c == "\n":
        return "\\n"
    if c == "\r":
        return "\\r"
    if c in "\\]^-[":
        return f"\\x{ord(c):02X}"
    return c


@dataclass(frozen=True)
class SentenceGrammar:
    """One sentence, ending in . ! or ?, written in WRITTEN's characters, with none of
    ``banned`` in it (case ignored) and none of EXCLUDED's characters."""

    banned: tuple[str, ...] = BANNED
    openers: tuple[str, ...] = ()  # when given, the sentence begins with one of these

    @cached_property
    def _states(self) -> list[str]:
        """The prefixes of the banned words (the automaton's states), "" first."""
        prefixes = {w[:i] for w in self._words for i in range(len(w))}
        return sorted(prefixes, key=lambda p: (len(p), p))

    @cached_property
    def _state_set(self) -> frozenset[str]:
        return frozenset(self._states)

    @cached_property
    def _words(self) -> tuple[str, ...]:
        return tuple(w.lower() for w in self.banned if w and re.fullmatch(r"[a-z' ]+", w.lower()))

    @cached_property
    def _moves(self) -> dict[str, dict[str, str | None]]:
        """Each state's next state on each letter of a banned word, None where a banned word is
        completed: the state after ``state + c`` is its longest suffix that is a state, and a
        banned word ends there when it ends any such suffix. Worked out in Aho-Corasick's way,
        each state from its longest proper suffix that is a state (its failure link), shortest
        states first: a suffix scan per state and letter took four fifths of a 115 ms build,
        and every request whose attempt has new words builds one."""
        words = frozenset(self._words)
        moves: dict[str, dict[str, str | None]] = {}
        for state in self._states:  # shortest first: a failure link's moves are known
            link = next(
                (state[i:] for i in range(1, len(state)) if state[i:] in self._state_set), ""
            )
            linked = moves[link] if state else None
            own: dict[str, str | None] = {}
            for c in self._letters:
                text = state + c
                if text in words or (linked is not None and linked[c] is None):
                    own[c] = None
                elif text in self._state_set:
                    own[c] = text
                else:
                    own[c] = linked[c] if linked is not None else ""
            moves[state] = own
        return moves

    def _next(self, state: str, c: str) -> str | None:
        """The state after ``c`` (a lower-case letter), None when a banned word is completed."""
        return self._moves[state][c]

    @cached_property
    def _letters(self) -> str:
        return "".join(sorted({c for w in self._words for c in w}))

    @cached_property
    def _start(self) -> str:
        """The state the sentence begins in: as after a space, so that a word banned with a
        leading space (" notic": "noticed", not "unnoticed") is banned as the first word too."""
        return (self._next("", " ") or "") if " " in self._letters else ""

    def _after(self, text: str) -> str | None:
        """The state after ``text`` from the start, None when it holds a banned word or a
        character the sentence may not have (an end mark among them)."""
        state: str | None = self._start
        for c in text:
            if c not in WRITTEN or c in EXCLUDED or c in ENDS:
                return None
            low = c.lower()
            state = self._next(state, low) if low in self._letters else ""  # type: ignore[arg-type]
            if state is None:
                return None
        return state

    def accepts(self, text: str) -> bool:
        """Whether the grammar allows ``text`` (the same automaton the GBNF is written from)."""
        if not text or text[-1] not in ENDS:
            return False
        if self._openers and not text.startswith(tuple(self._openers)):
            return False
        return self._after(text[:-1]) is not None

    @cached_property
    def _openers(self) -> dict[str, str]:
        """The openers the bars leave, each with the state after it (none left, the sentence
        begins as it likes: a grammar with an empty choice is one llama.cpp cannot parse)."""
        after = {o: self._after(o) for o in self.openers}
        return {o: state for o, state in after.items() if state is not None}

    def gbnf(self) -> str:
        """The grammar in llama.cpp's GBNF: ``root`` is the sentence. Each state's rule names
        only the letters that lead elsewhere than back to the start; every other character
        allowed is one class of ranges (llama.cpp tries each alternative of a rule for every
        candidate token: with one alternative per letter of every banned word, a reply took 16 s
        instead of 3)."""
        names = {state: f"s{i}" for i, state in enumerate(self._states)}
        never = set(EXCLUDED + ENDS)
        written = set(WRITTEN)
        ends = f"[{''.join(_class_char(c) for c in ENDS)}]"
        if self._openers:
            # each opener, then the state the automaton is in after it
            begun = " | ".join(f'"{o}" {names[state]}' for o, state in self._openers.items())
            rules = [f"root ::= ({begun}) {ends}"]
        else:
            rules = [f"root ::= {names[self._start]} {ends}"]
        for state, name in names.items():
            moves = self._moves[state]
            special = sorted(c for c, after in moves.items() if after != "")
            shut = never | {x for c in special for x in (c, c.upper())}
            choices = [f"[{_ranges(frozenset(written - shut))}] s0"]
            for c in special:
                after = moves[c]
                if after is not None:
                    choices.append(f"[{c}{c.upper()}] {names[after]}")
            choices.append('""')
            rules.append(f"{name} ::= " + " | ".join(choices))
        return "\n".join(rules) + "\n"


def continuation_grammar(
    character: str | None,
    unsaid: tuple[str, ...] = (),
    game: str | None = None,
    attempt: str | None = None,
    openers: tuple[str, ...] = (),
) -> SentenceGrammar:
    """The grammar of the sentence after a lead: no "you" or "player" (nor "yur" or "myself"),
    nor a noun for the character (ROLES, and doer_words of the ``attempt``), nor the lead's words
    for the outcome, nor the prompt's word "sentence", nor the character's name (its words of
    three letters or more), nor the words ``unsaid`` bars for the outcome (unsaid.py: those barred
    with a leading space at a word's start only), nor the name of the ``game`` (game_words);
    begun with one of ``openers`` where given (a narration's, scene_openers; not a spark's), and
    then with no "we" (OURS) nor "casting" (WORN)."""
    name = (character or "").strip().lower()
    own = tuple(w for w in re.findall(r"[a-z']+", name) if len(w) >= 3 and w != "unnamed")
    return SentenceGrammar(
        banned=BANNED
        + BENT
        + VOICE
        + ROLES
        + doer_words(attempt)
        + LEAD_WORDS
        + PROMPT_WORDS
        + own
        + unsaid
        + game_words(game)
        + (OURS + WORN if openers else ()),
        openers=openers,
    )


@lru_cache(maxsize=256)
def continuation_gbnf(
    character: str | None,
    unsaid: tuple[str, ...] = (),
    game: str | None = None,
    attempt: str | None = None,
    openers: tuple[str, ...] = (),
) -> str:
    """The GBNF of continuation_grammar, built once per character name, outcome's words, game,
    attempt and opening."""
    return continuation_grammar(character, unsaid, game, attempt, openers).gbnf()
