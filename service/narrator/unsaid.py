"""What the model's sentence after a lead may not say, for the kind of attempt and its outcome.

Under the grammar that keeps "you" out (grammar.py), the contradictions that still reached the
player, or that the guard had to catch, were few kinds, each told in a few words: a covert
attempt done well told as someone noticing ("The guard captain's eyes widen as they realize they
have been tricked", "now aware of the intruder"); a failure at opening told as the thing opening
("As the puzzle box creaks open", "it finally breaks free"); a race lost told as the rival held
up ("suddenly stopped and started running back"); a silencing that worked told as the noise
going on ("As the bells continue to ring"); a blow that landed told as dodged, one that missed
as felling; a persuasion told the other way ("The harbourmaster's refusal").

So for those kinds the grammar also bars the words they were told in: the model cannot write
them and says something else. Of the 83 contradicting replies in the grammar's tuned sets
(real_grammar1, real_grammar1b, real_grammar2, runs 35 and 36, the tenth and eleventh words), 56
hold a word barred here, and 18 of the 301 consistent ones (those the model must now say
otherwise). Resent with the first of these lists, 113 continuation prompts whose outcome bars
words (runs 33 to 35, the eighth to eleventh words) gave 14 contradicting replies by reading,
against 25 with the grammar alone (the real_unsaid1 split). But those were the prompts the
lists were written from: on 75 prompts they were not written from (runs 42, 43 and the sixteenth
words), resent in pairs and read blind, the final grammar gave 10 contradicting replies against
11 under the grammar of "you" alone (real_blind1a, real_blind1b). The model told the same
outcomes in other words ("clatters" barred, "clunks to the ground"). No gain is measured; what
is sure is that a server taking the grammar is never sent back a reply with a word the guard
reads as the other side told (guard.TOLD_AGAINST).

A word given with a leading space is barred at a word's start only (" notic": "noticed", never
"unnoticed", which tells a covert success well). The kinds are read from the player's words by
the guard's own readings of them (guard.attempt_kinds). This is no check: the guard still reads
what the model writes.
"""

from __future__ import annotations

import re

from service.narrator.guard import Expectation, outcome_keys, outcome_side, told_against_words

# Any failure told as coming right in the end.
_COMES_RIGHT = (" finally", " eventually", " at last", " manag", " succe", " triumph")

# (kind, side) -> words. Sides: "success" (a strong hit, a win), "mixed" (a weak hit), "failure",
# "draw".
# fmt: off
UNSAID: dict[tuple[str, str], tuple[str, ...]] = {
    # covert work, done well, is done unnoticed: "The watchdog's eyes widen as it realizes the
    # danger", "The jailer's guards, startled by the sudden noise, rush to investigate", "The
    # orc warband, sensing the approach of the scout, retreats", "the ghoul ... seems to vanish
    # into thin air" (the one shadowed lost), "The marsh becomes a battlefield, with goblins
    # encircling and attacking" (tracking done well)
    ("unseen", "success"): (
        " notic", " awar", " realiz", " realis", " woke", " waking", " awak", " widen", " startl",
        " alarm", " recogni", " sensing", " alert", " investig", " intruder", " suspic",
        " retreat", " vanish", " disappear", " spot", " turns around", " turn around",
        " looks up", " look up", " scrambl", " detect", " discover", " battle",
        " attack", " ambush", " encircl", " lights up", " in shock", " tricked",
        # ("the goblins ... become increasingly wary", "The merchant's face lights with a
        # mixture of surprise", resent)
        " wary", " surpris",
        # ("As the guard captain looks at the coin purse", resent)
        " looks at", " look at", " glances at", " stares at",
        # ("The ghoul's eyes narrow, and it moves to the side of the market", run 40)
        " eyes narrow", " eyes wide",
        # ("The snoring watchmen wake and look around", "The innkeeper's eyes open", the
        # fifteenth words; "The guards' eyes flicker, and they quickly rise from their slumber",
        # "The magistrate's eyes roll back as he struggles to comprehend", the sixteenth)
        " wake", " eyes open", " eyes snap", " eyes fly", " eyes flicker", " eyes roll",
        " rise from", " rises from", " comprehend",
    ),
    # a failure at opening told as the thing opening or giving way: "As the puzzle box creaks
    # open", "As the lock continues to struggle, it finally breaks free, revealing a hidden
    # door", "As the lock clatters to the ground", "As the warehouse door continues to fall",
    # "The lock was too tight, and it took a long time to turn"
    ("opening", "failure"): (
        " open", " break", " broke", " burst", " shatter", " splinter", " give way",
        " gives way", " gave way", " reveal", " loose", " free", " unlock", " click", " yield",
        " collaps", " crumbl", " snap", " clatter", " creak", " fall", " fell", " took a long",
        " inside", " beyond",
        # ("The door swings inward, slamming against the wall", a kick that missed, resent)
        " swing", " inward",
    ),
    # a failure to hold something shut told as held: "The door slams shut with a loud crash,
    # and the orcs charge towards it" (holding the door against the orcs, resent)
    ("holding", "failure"): (
        " shut", " slam", " held", " holds", " firm", " secure", " seal",
    ),
    # a race lost told as the rival held up: "The knight ... suddenly found himself surrounded
    # by a group of guards", "The ranger, seeing the danger, quickly stops and turns back",
    # "The courier, who had been running late, suddenly stops", "the abbey wall becomes a
    # barrier that slows down their speed", the rival hitting a tree
    ("race", "failure"): (
        " stop", " slow", " distract", " surround", " trip", " stumbl", " fall", " fell",
        " halt", " block", " hinder", " delay", " defeat", " terrif", " flee", " fled",
        " run away", " runs away", " give up", " gives up", " surrender", " exhaust", " tire",
        " turn back", " turns back", " late", " lose", " lost", " crash", " collid", " stuck",
        " obstacle", " barrier",
        # ("The knight ... suddenly found himself in a treacherous situation", resent)
        " found himself", " found herself", " finds himself", " finds herself", " treacher",
        # ("he suddenly realizes that his horse has gone astray", the fifteenth words; "The
        # messenger's horse is injured, and the race is canceled", the sixteenth)
        " astray", " off course", " injur", " cancel", " lame",
    ),
    # a struggle lost told as the other side weakened: "The dwarf champion ... is now terrified
    # and runs away", "they suddenly realize that their position is precarious and
    # vulnerable", "The guard's crossbow is broken, and he falls to the ground", "the cultist
    # ... start to back away"
    ("struggle", "failure"): (
        " fall", " fell", " defeat", " terrif", " flee", " fled", " run away", " runs away",
        " give up", " gives up", " surrender", " yield", " exhaust", " tire", " vulnerab",
        " precarious", " weak", " broken", " collaps", " stumbl", " back away", " backs away",
        " retreat", " lose", " loses", " lost", " stagger",
        # ("the ropes snap and the guard is thrown to the ground", resent)
        " thrown", " knocked",
    ),
    # a blow that landed told as dodged or harmless: "The ogre looks at the dagger" unharmed,
    # the bugbear jumping back, "The skeleton's eyes widen as it realizes the danger, and it
    # begins to move towards the hammer"
    ("blow", "success"): (
        " dodg", " miss", " unharm", " unhurt", " unscath", " unaffect", " unfaz", " evad",
        " sidestep", " jump back", " jumps back", " leap back", " leaps back", " deflect",
        " parr", " glanc", " untouched", " harmless", " block",
        # ("The gnoll's eyes widen, and it lunges at the blade", the sixteenth words)
        " lunges at the", " lunge at the",
    ),
    # a blow that missed told as felling or slowing: "the skeleton collapses", "its movements
    # become sluggish"
    ("blow", "failure"): (
        " collaps", " dies", " dead", " slain", " sluggish", " stagger", " wounded",
        " lifeless", " crumpl", " shatter", " kill", " bleed",
    ),
    # a stopping that worked told as going on: "As the bells continue to ring", "The bells ring
    # out in a deafening cacophony", "The storm grows stronger", "it lunges at the source of
    # the blood" (the hound stilled)
    ("stopping", "success"): (
        " continu", " grow", " louder", " stronger", " ring out", " rings out", " ringing",
        " rage", " lunge", " intensif", " worse", " again", " persist", " unabated",
        " on and on", " attack",
    ),
    # a persuasion that worked told as refused: "The harbourmaster's refusal to let them dock",
    # "The customs officer's refusal to acknowledge our cargo", "The quartermaster's face
    # contorts in pain, and he shakes his head"
    ("persuading", "success"): (
        " refus", " declin", " reject", " deni", " deny", " shakes", " shaking", " unwilling",
        " not let", " pain",
    ),
    # ... one that failed told as granted: "The quartermaster ... reluctantly agrees to let go
    # of the ship", "reluctantly agrees to let the player leave"
    ("persuading", "failure"): (
        " agree", " relent", " allow", " accept", " nod", " permit", " grant", " give in",
        " gives in", " let the", " lets the", " let go", " reluctantly",
    ),
    # a tie told as a side giving in: "The dwarf's eyes widen as he realizes he can't win, and
    # he sighs in defeat"
    ("persuading", "draw"): (
        " defeat", " victor", " win", " concede", " give in", " gives in", " agree",
        " accept", " relent",
    ),
    ("race", "draw"): (" defeat", " victor", " win", " concede", " give up", " gives up"),
    ("struggle", "draw"): (" defeat", " victor", " win", " concede", " give up", " gives up"),
}
# fmt: on


# What was taken from someone, named in the player's words: "I lift the coin purse from the guard
# captain" -> "purse". A theft done well was told, in 7 of the 9 contradicting replies of the
# kind in a paired trial (real_unsaid2, real_kindlead1), through the victim and the thing: "The
# noble's eyes go wide, and he looks down at the purse", "As the guard captain's eyes flicker to
# the coin purse", "the drunk's eyes flicker from it": the sentence after such a success does not
# name it.
_TAKEN = re.compile(
    r"\b(?:steal|steals|pick|picks|slip|slips|snatch|snatches|pilfer|pilfers|swipe|swipes|palm|"
    r"palms|filch|filches|pinch|pinches|lift|lifts|pluck|plucks|nick|nicks|take|takes) "
    r"(?:the |a |an |his |her |their |its |my )?(?:[\w'-]+ ){0,3}?(?P<thing>[a-z][\w-]{2,}) "
    r"(?:from|off|out of)\b|\bpick (?:the |a |an )?[\w'-]+ pocket\b(?P<pocket>)",
    re.IGNORECASE,
)


def taken_words(action: str) -> tuple[str, ...]:
    """The things the player's words take from someone, as words barred at a word's start."""
    return tuple(
        " pocket" if m.group("pocket") is not None else f" {m.group('thing').lower()}"
        for m in _TAKEN.finditer(action)
    )


def unsaid_words(expect: Expectation) -> tuple[str, ...]:
    """The words the sentence after this outcome's lead may not hold (sorted, no repeats): a
    failure's coming right in the end, UNSAID's and the guard's TOLD_AGAINST words for the
    outcome's kinds and side, and the thing taken after a theft done well. (A weak hit reads as
    a success, save being noticed: "bells ringing on after a silencing at a cost" was labelled
    a contradiction, the thing stopped stays stopped.)"""
    side = outcome_side(expect)
    if side is None or not expect.action:
        return ()
    keys = outcome_keys(expect)
    words: set[str] = set(_COMES_RIGHT) if side == "failure" else set()
    for key in keys:
        words.update(UNSAID.get(key, ()))
    words.update(told_against_words(expect))
    if side == "success" and ("unseen", "success") in keys:
        words.update(taken_words(expect.action))
    return tuple(sorted(words))
