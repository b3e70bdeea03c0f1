"""Sundered Isles character sheet: what a session keeps between turns (``rules/sheets.py``).

Source: sundered_isles.md (SUFFER MOVES: impacts, max momentum and reset; LEGACY MOVES: legacy
tracks and experience), completed by the Starforged rulebook where the text defers to it.

The sheet holds the stats, the condition meters (health, spirit, supply), momentum, the marked
impacts, the assets (the command vehicle's and support vehicles' integrity and troubles, the
companions' health), the three legacy tracks and unspent experience. Vows, connections,
expeditions, fights and scene challenges are the session's progress tracks (``TRACK_TYPES``).

Stats: the engine accepts 0..5. Starforged's character creation assigns 3, 2, 2, 1, 1; the source
text has no creation rules, so the sheet accepts any stat within the engine's range.

Not to be confused with ``meters.Sheet``, the running meters while one move resolves: this is the
persistent sheet, changed only by ``RULES.apply`` (a resolution's changes) or by the player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from pydantic import (
    BaseModel,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from rules.errors import InvalidParameter, UnknownError
from rules.ironsworn import MOMENTUM_MIN, ODDS, Band, momentum_max, momentum_reset
from rules.models import Citation, Frozen, Resolution, Ruling, StateChange
from rules.progress import IRONSWORN_RANK_TICKS, MAX_TICKS, LegacyTrack
from rules.sheets import (
    Choice,
    ChoiceOption,
    GmParam,
    SheetUpdate,
    TrackType,
    add_held,
    options_choice,
)
from rules.systems.sundered_isles.core import ADDS_MAX, QUICK_REFERENCE, cite
from rules.systems.sundered_isles.legacy import LEGACY_REWARD_TICKS
from rules.systems.sundered_isles.meters import METER_MAX
from rules.systems.sundered_isles.moves import MOVES, bad_spot_band, get_move

SYSTEM_ID = "sundered_isles"
STATS = ("edge", "heart", "iron", "shadow", "wits")
METERS = ("health", "spirit", "supply")
Impact = Literal[
    "wounded",
    "shaken",
    "unprepared",
    "permanently_harmed",
    "traumatized",
    "doomed",
    "tormented",
    "indebted",
]
IMPACTS: tuple[str, ...] = get_args(Impact)
VEHICLE_TROUBLES = ("battered", "cursed")
AssetCategory = Literal["command_vehicle", "support_vehicle", "module", "companion", "path", "deed"]
LegacyName = Literal["quests", "bonds", "discoveries"]
EXPERIENCE_MAX = 200  # the advance kind's range
Position = Literal["in_control", "bad_spot"]

SHEET_RULINGS = [
    Ruling(
        id="vehicle_troubles_aboard",
        text=(
            "Battered and cursed are marked on a vehicle asset, not on the character, and count "
            "as impacts (max momentum, reset) only for the vehicle you are aboard (the sheet's "
            "`aboard`, your command vehicle unless you say otherwise), as the Starforged rulebook "
            "has it for vehicle troubles."
        ),
        quote="If you mark an impact as an outcome of a suffer move, reduce your max momentum "
        "and momentum reset.",
        citation=cite("SUFFER MOVES"),
    ),
    Ruling(
        id="bond_reward_waits",
        text=(
            "On a weak hit to Forge a Bond the bonds legacy reward is not marked on the sheet: it "
            "is passed on (SheetUpdate.other) until you do what they ask."
        ),
        quote="To gain the bond and the legacy reward, envision the nature of the request, and do "
        "it (or SWEAR AN IRON VOW to see it done).",
        citation=cite("CONNECTION MOVES > FORGE A BOND"),
    ),
]

# --- the sheet ---------------------------------------------------------------------------------

StatField = Field(ge=0, le=5)
SheetMeterField = Field(METER_MAX, ge=0, le=METER_MAX)


class Stats(Frozen):
    edge: int = StatField
    heart: int = StatField
    iron: int = StatField
    shadow: int = StatField
    wits: int = StatField


_ASSET_FIELDS: dict[str, set[str]] = {
    "companion": {"health", "health_max"},
    "command_vehicle": {"integrity", "integrity_max", "battered", "cursed"},
    "support_vehicle": {"integrity", "integrity_max", "battered"},
    "module": {"broken"},
    "path": set(),
    "deed": set(),
}
_OPTIONAL_FIELDS = ("health", "health_max", "integrity", "integrity_max", "battered", "cursed")


class Asset(Frozen):
    """An asset by name; a companion carries its health, a vehicle its integrity and troubles."""

    name: str = Field(min_length=1, max_length=80)
    category: AssetCategory
    abilities: int = Field(1, ge=1, le=3, description="abilities marked (an asset starts with 1)")
    health: int | None = Field(None, ge=0, le=5, description="companion: health (default: max)")
    health_max: int | None = Field(None, ge=1, le=5, description="companion: its asset's max")
    integrity: int | None = Field(None, ge=0, le=5, description="vehicle: integrity (default: max)")
    integrity_max: int | None = Field(
        None, ge=1, le=5, description="vehicle: its asset's max (a command vehicle's is 5)"
    )
    battered: bool = Field(False, description="vehicle trouble: battered")
    cursed: bool = Field(False, description="command vehicle trouble: cursed (permanent)")
    broken: bool = Field(False, description="module: marked as broken")

    @model_validator(mode="before")
    @classmethod
    def _meters_start_full(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if data.get("category") == "command_vehicle" and data.get("integrity_max") is None:
            data["integrity_max"] = METER_MAX
        for meter in ("health", "integrity"):
            if data.get(meter) is None and data.get(f"{meter}_max") is not None:
                data[meter] = data[f"{meter}_max"]
        return data

    @model_validator(mode="after")
    def _fields_fit_category(self) -> Asset:
        allowed = _ASSET_FIELDS[self.category]
        for name in (*_OPTIONAL_FIELDS, "broken"):
            if name not in allowed and getattr(self, name) not in (None, False):
                raise ValueError(f"{name} does not apply to a {self.category.replace('_', ' ')}")
        for meter in ("health", "integrity"):
            if meter in allowed:
                top = getattr(self, f"{meter}_max")
                if top is None:
                    raise ValueError(f"a {self.category.replace('_', ' ')} needs {meter}_max")
                if getattr(self, meter) > top:
                    raise ValueError(f"{meter} exceeds {meter}_max ({top})")
        return self

    @property
    def is_vehicle(self) -> bool:
        return self.category in ("command_vehicle", "support_vehicle")

    @property
    def troubles(self) -> int:
        return int(self.battered) + int(self.cursed)


class Legacy(Frozen):
    quests: LegacyTrack = Field(default_factory=LegacyTrack)
    bonds: LegacyTrack = Field(default_factory=LegacyTrack)
    discoveries: LegacyTrack = Field(default_factory=LegacyTrack)

    @field_validator("quests", "bonds", "discoveries")
    @classmethod
    def _not_full(cls, track: LegacyTrack) -> LegacyTrack:
        if track.ticks >= MAX_TICKS:
            raise ValueError("a filled legacy track is cleared: give ticks 0 and cleared + 1")
        return track

    def track(self, name: str) -> LegacyTrack:
        if name not in get_args(LegacyName):
            raise UnknownError("legacy track", name, list(get_args(LegacyName)), "params.track")
        track: LegacyTrack = getattr(self, name)
        return track


def _impact_count(impacts: list[str], assets: list[Asset], aboard: str | None) -> int:
    vehicle = next((a for a in assets if a.name == aboard), None)
    return len(impacts) + (vehicle.troubles if vehicle else 0)


class Sheet(Frozen):
    """A Sundered Isles character. Field order matters: momentum is checked against the impacts."""

    name: str = Field("", max_length=100)
    stats: Stats
    health: int = SheetMeterField
    spirit: int = SheetMeterField
    supply: int = SheetMeterField
    impacts: list[Impact] = Field(default_factory=list, description="impacts marked")
    assets: list[Asset] = Field(default_factory=list)
    aboard: str | None = Field(
        None,
        description=(
            "the vehicle asset you are aboard or piloting: its battered/cursed count as impacts. "
            "Left out: your command vehicle; null: none"
        ),
    )
    momentum: int = Field(2, ge=MOMENTUM_MIN, le=10, description="-6 .. max momentum")
    legacy: Legacy = Field(default_factory=Legacy)
    experience: int = Field(0, ge=0, le=EXPERIENCE_MAX, description="unspent experience")
    next_roll_adds: int = Field(
        0,
        ge=0,
        le=ADDS_MAX,
        description="+N held for your next move (not a progress move), e.g. Secure an Advantage",
        json_schema_extra={"set_in_play": True},  # not asked when a character is made
    )
    position: Position | None = Field(
        None, description="in a fight: in control or in a bad spot (null: not in a fight yet)"
    )

    @model_validator(mode="before")
    @classmethod
    def _aboard_the_command_vehicle(cls, data: Any) -> Any:
        if isinstance(data, dict) and "aboard" not in data:
            for asset in data.get("assets") or []:
                category = asset.get("category") if isinstance(asset, dict) else None
                if category == "command_vehicle":
                    return {**data, "aboard": asset.get("name")}
        return data

    @field_validator("impacts")
    @classmethod
    def _impacts_once(cls, impacts: list[str]) -> list[str]:
        if len(set(impacts)) != len(impacts):
            raise ValueError("an impact is marked once")
        return impacts

    @field_validator("assets")
    @classmethod
    def _assets_named_once(cls, assets: list[Asset]) -> list[Asset]:
        names = [a.name.casefold() for a in assets]
        if len(set(names)) != len(names):
            raise ValueError("two assets have the same name")
        if sum(a.category == "command_vehicle" for a in assets) > 1:
            raise ValueError("a character has one command vehicle")
        return assets

    @field_validator("aboard")
    @classmethod
    def _aboard_a_vehicle(cls, aboard: str | None, info: ValidationInfo) -> str | None:
        assets: list[Asset] = info.data.get("assets", [])
        if aboard is not None and not any(a.name == aboard and a.is_vehicle for a in assets):
            raise ValueError(f"{aboard!r} is not a vehicle asset on the sheet")
        return aboard

    @field_validator("momentum")
    @classmethod
    def _momentum_within_max(cls, momentum: int, info: ValidationInfo) -> int:
        count = _impact_count(
            info.data.get("impacts", []), info.data.get("assets", []), info.data.get("aboard")
        )
        if momentum > momentum_max(count):
            raise ValueError(
                f"momentum {momentum} is above the max momentum {momentum_max(count)} "
                f"(10 less 1 per impact, {count} marked)"
            )
        return momentum

    @property
    def impact_count(self) -> int:
        return _impact_count(list(self.impacts), self.assets, self.aboard)

    @property
    def momentum_max(self) -> int:
        return momentum_max(self.impact_count)

    @property
    def momentum_reset(self) -> int:
        return momentum_reset(self.impact_count)

    def asset(self, name: str, field_name: str = "params.asset") -> Asset:
        for asset in self.assets:
            if asset.name == name:
                return asset
        raise UnknownError("asset", name, [a.name for a in self.assets], field_name)

    def vehicle(self, name: str | None) -> Asset:
        """The named vehicle, or the one you are aboard."""
        if name is None:
            if self.aboard is None:
                raise InvalidParameter(
                    "you are aboard no vehicle: name one of your vehicle assets", "params.asset"
                )
            name = self.aboard
        asset = self.asset(name)
        if not asset.is_vehicle:
            raise InvalidParameter(f"{name!r} is not a vehicle", "params.asset")
        return asset

    def companion(self, name: str | None) -> Asset:
        """The named companion, or your only one."""
        if name is not None:
            asset = self.asset(name)
            if asset.category != "companion":
                raise InvalidParameter(f"{name!r} is not a companion", "params.asset")
            return asset
        companions = [a for a in self.assets if a.category == "companion"]
        if len(companions) != 1:
            raise InvalidParameter(
                f"name the companion ({len(companions)} on the sheet)", "params.asset"
            )
        return companions[0]


# --- choices: the decisions an outcome leaves, in the text's words -----------------------------

_OptionText = tuple[str, dict[Any, str]]  # (prompt, value -> label)


def _suffer_text(
    meter: str, impact: str, weak: dict[str, str], miss: dict[str, str]
) -> dict[str, _OptionText]:
    return {
        "weak_hit_choice": (
            f"On a weak hit, if you are not {impact}, you may LOSE MOMENTUM (-1) in exchange for "
            f"+1 {meter}. Otherwise, press on.",
            weak,
        ),
        "miss_choice": (
            f"On a miss, it’s worse than you thought. Suffer an additional -1 {meter} or LOSE "
            "MOMENTUM (-2).",
            miss,
        ),
    }


CHOICE_TEXT: dict[str, dict[str, _OptionText]] = {
    "endure_harm": {
        "strong_hit_choice": (
            "On a strong hit, choose one.",
            {
                "shake_it_off": "Shake it off: If you are not wounded, take +1 health",
                "embrace_the_pain": "Embrace the pain: Take +1 momentum",
            },
        ),
        **_suffer_text(
            "health",
            "wounded",
            {
                "trade": "LOSE MOMENTUM (-1) in exchange for +1 health",
                "press_on": "Otherwise, press on.",
            },
            {"meter": "Suffer an additional -1 health", "momentum": "LOSE MOMENTUM (-2)"},
        ),
        "at_zero": (
            "If your health is 0, you must also mark wounded or permanently harmed, or roll on "
            "the table below.",
            {
                "mark_wounded": "mark wounded",
                "mark_permanently_harmed": "mark permanently harmed",
                "roll_table": "roll on the table below",
            },
        ),
    },
    "endure_stress": {
        "strong_hit_choice": (
            "On a strong hit, choose one.",
            {
                "shake_it_off": "Shake it off: If you are not shaken, take +1 spirit",
                "embrace_the_darkness": "Embrace the darkness: Take +1 momentum",
            },
        ),
        **_suffer_text(
            "spirit",
            "shaken",
            {
                "trade": "LOSE MOMENTUM (-1) in exchange for +1 spirit",
                "press_on": "Otherwise, press on.",
            },
            {"meter": "Suffer an additional -1 spirit", "momentum": "LOSE MOMENTUM (-2)"},
        ),
        "at_zero": (
            "If your spirit is 0, you must also mark shaken or traumatized, or roll on the table "
            "below.",
            {
                "mark_shaken": "mark shaken",
                "mark_traumatized": "mark traumatized",
                "roll_table": "roll on the table below",
            },
        ),
    },
    "companion_takes_a_hit": {
        "weak_hit_choice": (
            "On a weak hit, if your companion’s health is not 0, you may LOSE MOMENTUM (-1) and "
            "give them +1 health. Otherwise, they press on.",
            {
                "trade": "LOSE MOMENTUM (-1) and give them +1 health",
                "press_on": "Otherwise, they press on.",
            },
        ),
        "miss_choice": (
            "On a miss, it’s worse than you thought. They suffer an additional -1 health or you "
            "LOSE MOMENTUM (-2).",
            {"meter": "They suffer an additional -1 health", "momentum": "you LOSE MOMENTUM (-2)"},
        ),
    },
    "withstand_damage": {
        "strong_hit_choice": (
            "On a strong hit, choose one.",
            {
                "damage_control": "Damage control: If your vehicle is not battered, take +1 "
                "integrity",
                "hold_fast": "Hold fast: Take +1 momentum",
            },
        ),
        "weak_hit_choice": (
            "On a weak hit, if your vehicle is not battered, you may Lose Momentum (-1) in "
            "exchange for +1 integrity. Otherwise, carry on.",
            {
                "trade": "Lose Momentum (-1) in exchange for +1 integrity",
                "press_on": "Otherwise, carry on.",
            },
        ),
        "miss_choice": (
            "On a miss, it’s worse than you thought. Suffer an additional -1 integrity or Lose "
            "Momentum (-2).",
            {"meter": "Suffer an additional -1 integrity", "momentum": "Lose Momentum (-2)"},
        ),
        "at_zero": (
            "If your integrity is 0, also suffer a cost according to the vehicle type.",
            {
                "mark_battered": "Mark the vehicle as battered",
                "mark_cursed": "Mark the vehicle as cursed",
                "break_module": "mark a module as broken",
                "destroy_module": "destroy a broken module by discarding it",
                "roll_table": "roll on the table below",
            },
        ),
    },
    "heal": {
        "weak_hit_choice": (
            "On a weak hit, as above, but the recovery costs extra time or resources. Choose one: "
            "LOSE MOMENTUM (-2) or SACRIFICE RESOURCES (-2).",
            {
                "lose_momentum": "LOSE MOMENTUM (-2)",
                "sacrifice_resources": "SACRIFICE RESOURCES (-2)",
            },
        ),
    },
    "resupply": {
        "hit_choice": (
            "On a strong hit, choose one.",
            {
                "supply": "If you are unprepared, clear the impact and take +1 supply. "
                "Otherwise, take +2 supply.",
                "item": "If you are in need of a specific item, resource, or service that can "
                "reasonably be obtained, you acquire it. Take +1 momentum.",
            },
        ),
    },
}

TABLE_CHOICE_TEXT: dict[str, _OptionText] = {
    "pay_the_price": (
        "When you suffer the outcome of an action, choose one.",
        {True: "Roll on the table below", False: "Make the most obvious negative outcome happen"},
    ),
}
_TABLE_CHOICE_DEFAULT: _OptionText = (
    "Roll on the table below or choose one.",
    {True: "Roll on the table below", False: "choose one"},
)
POSITION_TEXT: _OptionText = (
    "If you are in control, check the result as normal. If you are in a bad spot, count a strong "
    "hit without a match as a weak hit, and a weak hit as a miss.",
    {"in_control": "in control", "bad_spot": "in a bad spot"},
)


def _choice(param: str, text: _OptionText, values: list[Any], citation: Citation) -> Choice:
    prompt, labels = text
    return Choice(
        param=param,
        prompt=prompt,
        options=[ChoiceOption(value=v, label=labels[v]) for v in values],
        citation=citation,
        extra_dice=param == "roll_tables" or "roll_table" in values,  # a table's d100s
    )


# --- parameters the text leaves to a game master, and track types ------------------------------

_SUFFER_KINDS = [
    "lose_momentum",
    "sacrifice_resources",
    "endure_harm",
    "endure_stress",
    "companion_takes_a_hit",
    "withstand_damage",
]
GM_PARAMS = [
    GmParam(
        param="odds",
        kinds=["oracle", "move"],
        description="Ask the Oracle: decide the odds of a yes (the move kind: ask_the_oracle)",
        default="50_50",
        choices=list(ODDS),
    ),
    GmParam(
        param="amount",
        kinds=_SUFFER_KINDS,
        description="the cost: -1 for a minor, -2 for a serious, -3 for a major one",
        default=1,
        minimum=1,
        maximum=3,
    ),
    GmParam(
        param="situation",
        kinds=["repair"],
        description="Repair: at a facility, at anchor, underway or under fire",
        choices=["facility", "anchor", "underway", "under_fire"],
    ),
]

_RANKS = dict(IRONSWORN_RANK_TICKS)
_SCENE_RANKS = {r: _RANKS[r] for r in ("troublesome", "dangerous", "formidable")}
# track type -> (name, the progress moves that resolve it, first the default, ranks, opening move)
_TRACKS: dict[str, tuple[str, tuple[str, ...], dict[str, int], str]] = {
    "vow": ("Vow", ("fulfill_your_vow",), _RANKS, "swear_an_iron_vow"),
    "connection": ("Connection", ("forge_a_bond",), _RANKS, "make_a_connection"),
    "expedition": ("Expedition", ("finish_an_expedition",), _RANKS, "undertake_an_expedition"),
    "combat": ("Combat objective", ("take_decisive_action",), _RANKS, "enter_the_fray"),
    "scene_challenge": ("Scene challenge", ("finish_a_scene",), _SCENE_RANKS, "begin_a_scene"),
}
TRACK_TYPES = [
    TrackType(id=tid, name=name, ranks=ranks, citation=get_move(opening).citation)
    for tid, (name, _, ranks, opening) in _TRACKS.items()
]


# --- applying a resolution ---------------------------------------------------------------------


@dataclass
class _Work:
    """The sheet as it changes, change by change; every change taken is recorded as applied."""

    data: dict[str, Any]
    asset_name: str | None
    applied: list[StateChange] = field(default_factory=list)
    other: list[StateChange] = field(default_factory=list)

    def _count(self) -> int:
        sheet_assets = [Asset.model_validate(a) for a in self.data["assets"]]
        return _impact_count(self.data["impacts"], sheet_assets, self.data["aboard"])

    def _take(
        self,
        where: dict[str, Any],
        key: str,
        change: StateChange,
        low: int,
        high: int,
        **extra: Any,
    ) -> None:
        """Set or add a number within ``low..high``; record the change as it was taken."""
        old = where[key]
        new = change.set_to if change.set_to is not None else old + (change.delta or 0)
        new = max(low, min(high, new))
        where[key] = new
        if new != old:
            update: dict[str, Any] = {"delta": new - old, **extra}
            if change.set_to is not None:
                update["set_to"] = new
            self.applied.append(change.model_copy(update=update))

    def momentum(self, change: StateChange) -> None:
        self._take(self.data, "momentum", change, MOMENTUM_MIN, momentum_max(self._count()))

    def meter(self, change: StateChange) -> None:
        self._take(self.data, change.target, change, 0, METER_MAX)

    def experience(self, change: StateChange) -> None:
        self._take(self.data, "experience", change, 0, EXPERIENCE_MAX)

    def next_roll_adds(self, change: StateChange) -> None:
        self._take(self.data, "next_roll_adds", change, 0, ADDS_MAX)

    def position(self, change: StateChange) -> None:
        if change.note != self.data.get("position"):
            self.data["position"] = change.note
            self.applied.append(change)

    def _asset(self) -> dict[str, Any]:
        for asset in self.data["assets"]:
            if asset["name"] == self.asset_name:
                return asset  # type: ignore[no-any-return]
        names = [a["name"] for a in self.data["assets"]]
        raise UnknownError("asset", str(self.asset_name), names, "resolution.params.asset")

    def asset_meter(self, change: StateChange) -> None:
        if self.asset_name is None:  # an incidental vehicle: not on the sheet
            self.other.append(change)
            return
        asset = self._asset()
        meter = "health" if change.target == "companion_health" else "integrity"
        note = f"{asset['name']}: {change.note}" if change.note else asset["name"]
        self._take(asset, meter, change, 0, asset[f"{meter}_max"], note=note)

    def impact(self, change: StateChange) -> None:
        before = self._count()
        marked = bool(change.set_to)
        if change.target in VEHICLE_TROUBLES:
            asset = self._asset()
            if asset[change.target] == marked:
                return
            asset[change.target] = marked
            note = f"{asset['name']}: {change.note}" if change.note else asset["name"]
            self.applied.append(change.model_copy(update={"note": note}))
        else:
            impacts: list[str] = self.data["impacts"]
            if (change.target in impacts) == marked:
                return
            if marked:
                impacts.append(change.target)
            else:
                impacts.remove(change.target)
            self.applied.append(change)
        after = self._count()
        if after != before:
            verb = "marked" if marked else "cleared"
            self.applied.append(
                StateChange(target="impacts", delta=after - before, note=f"{change.target} {verb}")
            )

    def legacy(self, name: str, ticks: int, note: str | None) -> None:
        """Mark ticks on a legacy track: Earn Experience for the boxes filled."""
        if ticks <= 0:
            return
        before = LegacyTrack.model_validate(self.data["legacy"][name])
        after, xp = before.mark(ticks)
        self.data["legacy"][name] = after.model_dump()
        target = f"legacy:{name}"
        self.applied.append(StateChange(target=target, delta=ticks, note=note or f"+{ticks} ticks"))
        if after.cleared > before.cleared:
            self.applied.append(
                StateChange(
                    target=f"{target}:cleared",
                    set_to=after.cleared,
                    note="tenth box filled: cleared",
                )
            )
        if xp:
            self.experience(StateChange(target="experience", delta=xp, note="Earn Experience"))

    def end(self) -> Sheet:
        top = momentum_max(self._count())
        if self.data["momentum"] > top:
            old = self.data["momentum"]
            self.data["momentum"] = top
            self.applied.append(
                StateChange(target="momentum", delta=top - old, note="max momentum lowered")
            )
        return Sheet.model_validate(self.data)


def _changes(resolution: Resolution) -> list[StateChange]:
    """The changes to take. Mark Legacy reports its arithmetic against the sheet's own track;
    the sheet marks the same ticks itself, so every legacy mark earns experience in one place."""
    if resolution.kind != "mark_legacy":
        return list(resolution.changes)
    params = resolution.params
    ticks = (
        params["mark"]
        if params.get("mark") is not None
        else LEGACY_REWARD_TICKS[params["reward_rank"]]
    )
    return [StateChange(target=f"legacy:{params['track']}", delta=ticks, note=f"+{ticks} ticks")]


def _waits(resolution: Resolution, change: StateChange) -> bool:
    return (
        change.target == "legacy:bonds"
        and resolution.params.get("move") == "forge_a_bond"
        and resolution.outcome == "weak_hit"
    )


# --- the rules ---------------------------------------------------------------------------------


def _as_sheet(sheet: BaseModel) -> Sheet:
    if not isinstance(sheet, Sheet):
        raise InvalidParameter("not a Sundered Isles sheet", "sheet")
    return sheet


def _action_roll(kind: str, params: dict[str, Any]) -> bool:
    """A roll that is a move but not a progress move: it takes the adds held for the next move."""
    if kind != "move":
        return True
    move_id = params.get("move")
    return isinstance(move_id, str) and move_id in MOVES and MOVES[move_id].roll == "action"


def _param_fields(kind: str) -> set[str]:
    from rules.registry import get_system  # the system imports this module

    return set(get_system(SYSTEM_ID).roll_kind(kind).params.model_fields)


class SheetRules:
    """The Sundered Isles sheet's rules (the ``rules.sheets.SheetRules`` protocol)."""

    model: type[BaseModel] = Sheet
    gm_params: list[GmParam] = GM_PARAMS
    track_types: list[TrackType] = TRACK_TYPES

    def validate(self, data: dict[str, Any]) -> Sheet:
        try:
            return Sheet.model_validate(data)
        except ValidationError as exc:
            errors = exc.errors()
            where = ".".join(str(p) for p in errors[0]["loc"])
            messages = "; ".join(
                f"sheet{''.join(f'.{p}' for p in e['loc'])}: {e['msg']}" for e in errors
            )
            raise InvalidParameter(messages, f"sheet.{where}" if where else "sheet") from None

    # -- roll parameters

    def roll_params(self, sheet: BaseModel, kind: str, given: dict[str, Any]) -> dict[str, Any]:
        s = _as_sheet(sheet)
        fields = _param_fields(kind)
        params = dict(given)
        held: dict[str, Any] = {}
        if "momentum" in fields:
            held["momentum"] = s.momentum
        if "impacts" in fields:
            held["impacts"] = s.impact_count
        for name in (*METERS, "experience"):
            if name in fields:
                held[name] = getattr(s, name)
        for name in STATS:
            if name in fields:
                held[name] = getattr(s.stats, name)
        for name in IMPACTS:
            if name in fields:
                held[name] = name in s.impacts
        if "companion_health" in fields:
            companion = s.companion(params.get("asset"))
            params["asset"] = companion.name
            held["companion_health"] = companion.health
        if "integrity" in fields and params.get("vehicle") != "incidental":
            vehicle = s.vehicle(params.get("asset"))
            params["asset"] = vehicle.name
            held["integrity"] = vehicle.integrity
            held["battered"] = vehicle.battered
            held["vehicle"] = "command" if vehicle.category == "command_vehicle" else "support"
        if kind == "mark_legacy":
            track = s.legacy.track(params.get("track", "quests"))
            held["ticks"] = track.ticks
            held["cleared"] = track.cleared > 0
        if "stat" in fields:
            self._stat(s, kind, params, held, keep_asset="asset" in fields)
        if kind == "move":
            self._legacy_progress(s, params, held)
            decisive = params.get("move") == "take_decisive_action"
            if decisive and "position" not in params and s.position is not None:
                params["position"] = s.position  # the sheet keeps it: no need to ask
        if "adds" in fields and _action_roll(kind, params):
            add_held(params, s.next_roll_adds, ADDS_MAX)
        for name, value in held.items():
            if name in given:
                raise InvalidParameter(
                    f"{name} is on the character sheet ({value!r}): leave it out", f"params.{name}"
                )
        return {**params, **held}

    def _stat(
        self, s: Sheet, kind: str, params: dict[str, Any], held: dict[str, Any], keep_asset: bool
    ) -> None:
        """Fill stat_value (or the stats of a 'whichever is higher/lower' option) from the sheet;
        a move with a single way to roll is rolled that way when no stat is given."""
        stat, stats = params.get("stat"), params.get("stats")
        if stat is None and stats is None:
            move_id = params.get("move") if kind == "move" else kind
            move = get_move(move_id) if isinstance(move_id, str) and kind != "action" else None
            if move is None or len(move.options) != 1:
                return
            option = move.options[0]
            if option.method == "single":
                stat = params["stat"] = option.using[0]
            else:
                stats = option.using
        if isinstance(stats, dict) and set(stats) & {*STATS, *METERS}:
            raise InvalidParameter(
                f"the stats are on the character sheet: give their names, e.g. {sorted(stats)}",
                "params.stats",
            )
        if isinstance(stats, list):  # names: the sheet gives their values
            values = {name: self._value(s, name, params, keep_asset) for name in stats}
            for name, value in values.items():
                if value is None:
                    raise InvalidParameter(
                        f"{name} is not on the character sheet", f"params.stats.{name}"
                    )
            params["stats"] = values
        elif isinstance(stat, str):
            value = self._value(s, stat, params, keep_asset)
            if value is not None:  # None: not on the sheet (connection_rank), the player gives it
                held["stat_value"] = value

    @staticmethod
    def _value(s: Sheet, name: str, params: dict[str, Any], keep_asset: bool) -> int | None:
        if name in STATS:
            value: int = getattr(s.stats, name)
            return value
        if name in METERS:
            return int(getattr(s, name))
        if name in ("integrity", "companion_health"):
            # the asset names whose meter; a kind without an asset parameter does not keep it
            asset_name = params.get("asset") if keep_asset else params.pop("asset", None)
            if name == "integrity":
                return s.vehicle(asset_name).integrity
            return s.companion(asset_name).health
        return None

    @staticmethod
    def _legacy_progress(s: Sheet, params: dict[str, Any], held: dict[str, Any]) -> None:
        """Overcome Destruction rolls the bonds legacy track; ``legacy_track`` names another
        (Continue a Legacy rolls each of a former character's tracks)."""
        name = params.pop("legacy_track", None)
        move = get_move(params["move"]) if isinstance(params.get("move"), str) else None
        if name is None and move is not None and move.id == "overcome_destruction":
            name = "bonds"
        if name is None:
            return
        if move is None or move.roll != "progress":
            raise InvalidParameter("legacy_track is for a progress move", "params.legacy_track")
        if "progress_score" in params:
            raise InvalidParameter(
                f"the {name} legacy track is on the character sheet: leave progress_score out",
                "params.progress_score",
            )
        track = s.legacy.track(name)
        held["progress_ticks"] = track.ticks
        held["legacy_cleared"] = track.cleared > 0

    # -- applying

    def apply(self, sheet: BaseModel, resolution: Resolution) -> SheetUpdate:
        s = _as_sheet(sheet)
        if resolution.system and resolution.system != SYSTEM_ID:
            raise InvalidParameter(
                f"a {resolution.system} resolution does not apply to a Sundered Isles sheet",
                "resolution.system",
            )
        work = _Work(data=s.model_dump(), asset_name=resolution.params.get("asset"))
        if "action_score" in resolution.scores and s.next_roll_adds:
            # roll_params added the hold to this action roll's adds: it is spent
            work.next_roll_adds(
                StateChange(target="next_roll_adds", set_to=0, note="added to this roll")
            )
        for change in _changes(resolution):
            target = change.target
            if target == "momentum":
                work.momentum(change)
            elif target in METERS:
                work.meter(change)
            elif target in ("companion_health", "integrity"):
                work.asset_meter(change)
            elif target in IMPACTS or target in VEHICLE_TROUBLES:
                work.impact(change)
            elif target == "impacts":
                continue  # the sheet counts its impacts itself
            elif target == "experience":
                work.experience(change)
            elif target == "next_roll_adds":
                work.next_roll_adds(change)
            elif target == "position":
                work.position(change)
            elif target.startswith("legacy:") and not _waits(resolution, change):
                work.legacy(target.removeprefix("legacy:"), change.delta or 0, change.note)
            else:
                work.other.append(change)
        return SheetUpdate(sheet=work.end(), applied=work.applied, other=work.other)

    # -- choices

    def choices(self, kind: str, params: dict[str, Any], resolution: Resolution) -> list[Choice]:
        details = resolution.details
        move_id = details.get("move") or kind
        pending: list[Choice] = []
        if details.get("burn_would_improve") and params.get("burn_momentum") is None:
            pending.append(
                Choice(
                    param="burn_momentum",
                    prompt=(
                        f"Burn momentum? Your momentum ({params.get('momentum')}) would replace "
                        "the action score and beat more challenge dice; then it resets."
                    ),
                    options=[
                        ChoiceOption(value=True, label="Burn momentum"),
                        ChoiceOption(value=False, label="Keep the roll"),
                    ],
                    citation=QUICK_REFERENCE,
                )
            )
            # The burn changes the outcome: what else the outcome asks follows from the outcome
            # after it, so it is asked alone (then the turn asks again).
            return pending
        for param, values in (details.get("choices") or {}).items():
            if params.get(param) is None:
                text = CHOICE_TEXT[move_id][param]
                pending.append(_choice(param, text, values, resolution.citation))
        offered = details.get("options")
        if kind == "move" and offered and params.get("options") is None:
            # "Choose one" first: a table one option names (Sojourn's "You find no relief ...
            # PAY THE PRICE") is asked only if that option is chosen.
            return [*pending, options_choice(offered, resolution.citation)]
        tables: list[str] = details.get("tables_named") or []
        if tables and not params.get("roll_tables"):  # a recover move's miss too
            text = TABLE_CHOICE_TEXT.get(tables[0], _TABLE_CHOICE_DEFAULT)
            pending.append(
                _choice("roll_tables", text, [True, False], get_move(tables[0]).citation)
            )
        if kind != "move":
            return pending
        if move_id == "take_decisive_action" and "position" not in params:
            band: Band = resolution.outcome  # type: ignore[assignment]
            if bad_spot_band(band, bool(resolution.match)) != band:
                pending.append(
                    _choice(
                        "position", POSITION_TEXT, ["in_control", "bad_spot"], resolution.citation
                    )
                )
        return pending

    # -- progress rolls

    def progress_roll(
        self, sheet: BaseModel, track_type: str, progress: int, given: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        if track_type not in _TRACKS:
            raise UnknownError("track type", track_type, list(_TRACKS), "track_type")
        if not 0 <= progress <= MAX_TICKS:
            raise InvalidParameter(f"progress is 0..{MAX_TICKS} ticks", "progress")
        moves = _TRACKS[track_type][1]
        move = given.get("move", moves[0])
        if move not in moves:
            raise UnknownError(
                f"progress move for a {track_type}", str(move), list(moves), "params.move"
            )
        for name in ("progress_score", "progress_ticks", "legacy_track"):
            if name in given:
                raise InvalidParameter(
                    f"the track gives the progress: leave {name} out", f"params.{name}"
                )
        return "move", self.roll_params(
            sheet, "move", {**given, "move": move, "progress_ticks": progress}
        )


RULES = SheetRules()
