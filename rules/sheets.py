"""Character sheets: what a session keeps between turns, and how a system reads and changes it.

Each system's ``rules/systems/<id>/sheet.py`` defines a frozen pydantic ``Sheet`` and a
``SheetRules`` for it, set on the system as ``GameSystem.sheet``. Everything here is pure: a
session (``service/``) stores the sheet as JSON and calls these functions around the engine:

    sheet = rules.validate(data)                          # bad data: RulesError naming "sheet.<field>"
    params = rules.roll_params(sheet, kind, given)        # the values the sheet holds, filled in
    resolution = resolve_roll(system, kind, params, dice=..., seed=...)
    pending = rules.choices(kind, params, resolution)     # decisions left to the player
    # ... if pending: the player picks an option of each; the engine resolves again with the
    #     same dice (or seed) and params | {choice.param: option.value}, and only then:
    update = rules.apply(sheet, resolution)               # new sheet + the changes it took

A choice is always a parameter of the same roll kind (``burn_momentum``, ``weak_hit_choice``,
``roll_tables``...), so the engine, not the session, applies it, and a journal replays it.
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from rules.errors import InvalidParameter, RulesError, UnknownError
from rules.models import Citation, Frozen, Resolution, StateChange


class ChoiceOption(Frozen):
    value: Any = Field(description="the parameter's value when this option is chosen")
    label: str = Field(description="the option in the text's words")


class Choice(Frozen):
    """A decision an outcome leaves to the player, made by setting one parameter of the roll."""

    param: str = Field(description="the roll kind's parameter this choice sets")
    prompt: str = Field(description="what the text asks the player to decide")
    options: list[ChoiceOption] = Field(min_length=2)
    citation: Citation
    extra_dice: bool = Field(
        False, description="choosing some option rolls more dice (e.g. on a table)"
    )


class GmParam(Frozen):
    """A parameter the text leaves to a game master (Go Forth's TN, Storyteller's difficulty,
    which ability a roll-under save uses): proposed for the player, who sees and may override."""

    param: str
    kinds: list[str] = Field(description="the roll kinds that take it")
    description: str
    default: Any = None
    choices: list[Any] | None = Field(None, description="its allowed values, when a list")
    minimum: int | None = None
    maximum: int | None = None


class TrackType(Frozen):
    """A kind of progress track a session can open (a vow, an expedition, a fight, an extended
    action...): how far one mark of progress moves it, and which roll resolves it."""

    id: str = Field(pattern=r"^[a-z0-9_]+$", examples=["vow"])
    name: str
    ranks: dict[str, int] = Field(
        default_factory=dict,
        description="rank -> ticks per mark of progress (4 ticks a box, 10 boxes); empty when "
        "progress is counted in other units (then `units` and `target` apply)",
    )
    target: int | None = Field(None, description="units needed, for a counted track")
    hearts: bool = Field(
        False, description="the track counts a target's Hearts (Go Forth): open it with `hearts`"
    )
    citation: Citation


class SheetUpdate(Frozen):
    sheet: Any = Field(description="the new sheet (a system's Sheet model)")
    applied: list[StateChange] = Field(
        default_factory=list, description="changes taken by the sheet, as applied (clamped)"
    )
    other: list[StateChange] = Field(
        default_factory=list,
        description="changes the sheet does not hold (progress, legacy tracks, clocks): the "
        "session's tracks take them",
    )


class SheetRules(Protocol):
    """How one system reads and changes its character sheet (all pure functions)."""

    model: type[BaseModel]
    gm_params: list[GmParam]
    track_types: list[TrackType]

    def validate(self, data: dict[str, Any]) -> BaseModel:
        """A sheet from JSON, defaults filled in; RulesError naming ``sheet.<field>``."""
        ...

    def roll_params(self, sheet: BaseModel, kind: str, given: dict[str, Any]) -> dict[str, Any]:
        """The roll kind's parameters: ``given`` (the player's: stat name, adds, move, choices,
        GM parameters...) plus every value the sheet holds (the stat's value, momentum, focus,
        meters, impacts...). A given value the sheet holds is an InvalidParameter naming it."""
        ...

    def apply(self, sheet: BaseModel, resolution: Resolution) -> SheetUpdate:
        """The resolution's state changes applied to the sheet, within the sheet's ranges."""
        ...

    def choices(self, kind: str, params: dict[str, Any], resolution: Resolution) -> list[Choice]:
        """The decisions this outcome leaves to the player, each not yet made in ``params``."""
        ...

    def progress_roll(
        self, sheet: BaseModel, track_type: str, progress: int, given: dict[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """The roll kind and parameters that resolve a track of this type with this much
        progress (ticks, or units for a counted track); ``given`` may name a move."""
        ...


# --- what a session may ask of a system's sheet rules -----------------------------------------


def track_type(rules: SheetRules, type_id: str) -> TrackType:
    """The system's track type of this id (UnknownError naming ``type`` otherwise)."""
    types = {t.id: t for t in rules.track_types}
    if type_id not in types:
        raise UnknownError("track type", type_id, list(types), field="type")
    return types[type_id]


def track_rank(spec: TrackType, rank: str | None) -> str | None:
    """A ranked track's rank (one of its type's), or None for a counted track."""
    if not spec.ranks:
        return None
    if rank not in spec.ranks:
        raise UnknownError("rank", str(rank), list(spec.ranks), field="rank")
    return rank


def track_hearts(spec: TrackType, hearts: int | None) -> None:
    """``hearts`` is for a track that counts a target's Hearts (Go Forth)."""
    if hearts is not None and not spec.hearts:
        raise InvalidParameter(f"hearts is for a heart track, not a {spec.name} track", "hearts")


def track_target(spec: TrackType, target: int | None) -> int | None:
    """A counted track's target: its type's, or the one given when the type has none."""
    if spec.ranks:
        return None
    if spec.target is None and target is None:
        raise InvalidParameter(
            f"a {spec.name} track needs its target (how many it takes)", "target"
        )
    return target if target is not None else spec.target


def check_choices(offered: list[Choice], chosen: dict[str, Any]) -> dict[str, Any]:
    """The player's choices, each one of the options offered: a choice that was not offered,
    or a value that is not one of its options, is an InvalidParameter naming it."""
    by_param = {c.param: c for c in offered}
    chosen = {p: _as_offered(by_param.get(p), v) for p, v in chosen.items()}
    for param, value in chosen.items():
        if param not in by_param:
            raise InvalidParameter(
                f"{param!r} was not offered; the choices are: {', '.join(by_param) or 'none'}",
                f"choices.{param}",
            )
        values = [o.value for o in by_param[param].options]
        if value not in values:
            raise InvalidParameter(
                f"{value!r} is not an option of {param!r}; the options are: "
                + ", ".join(repr(v) for v in values),
                f"choices.{param}",
            )
    missing = [p for p in by_param if p not in chosen]
    if missing:
        raise InvalidParameter(f"choose {', '.join(missing)} as well", f"choices.{missing[0]}")
    return chosen


def _as_offered(choice: Choice | None, value: Any) -> Any:
    """A pick of options as the choice lists it: one option id alone (``"take_2_momentum"``)
    for a one-option pick, and two ids in any order."""
    if choice is None:
        return value
    for option in choice.options:
        listed = option.value
        if isinstance(listed, list) and (
            listed == [value] or (isinstance(value, list) and sorted(listed) == sorted(value))
        ):
            return listed
    return value


# --- shared by the sheets ----------------------------------------------------------------------


def add_held(params: dict[str, Any], held: int, most: int) -> None:
    """Add the +N a sheet holds for the next roll to the roll's adds (Sundered Isles' "Add +1 on
    your next move", Elegy's next roll). The sheet's ``apply`` spends it when the roll is made."""
    adds = params.get("adds", 0)
    if held and isinstance(adds, int) and not isinstance(adds, bool):
        params["adds"] = min(most, adds + held)


def options_choice(offered: dict[str, Any], citation: Citation) -> Choice:
    """The ``options`` parameter of a move whose outcome says "choose one" (or two), as a choice:
    ``offered`` is the resolution's ``details.options`` (count, picks, labels)."""
    labels: dict[str, str] = offered["labels"]
    count = offered["count"]
    return Choice(
        param="options",
        prompt="Choose one." if count == 1 else f"Choose {count}.",
        options=[
            ChoiceOption(value=pick, label=" + ".join(labels[i] for i in pick))
            for pick in offered["picks"]
        ],
        citation=citation,
        extra_dice=any("roll both challenge dice" in label.lower() for label in labels.values()),
    )


class RestKind(Frozen):
    """A way to rest or recover that a system's text gives (a session operation, no dice)."""

    id: str = Field(pattern=r"^[a-z0-9_]+$", examples=["short"])
    name: str
    text: str = Field(description="the sentence of the source it applies")
    citation: Citation


def rest_kinds(rules: SheetRules) -> list[RestKind]:
    """The rests a system's sheet knows (none where its text gives none)."""
    kinds: list[RestKind] = getattr(rules, "rest_kinds", [])
    return kinds


def rest(rules: SheetRules, sheet: BaseModel, kind: str) -> SheetUpdate:
    """The sheet after a rest of this kind (UnknownError naming ``kind`` for another)."""
    known = [k.id for k in rest_kinds(rules)]
    if kind not in known:
        raise UnknownError("rest", kind, known, field="kind")
    update: SheetUpdate = rules.rest(sheet, kind)  # type: ignore[attr-defined]
    return update


# --- editing a sheet by hand --------------------------------------------------------------------


def _one_change_of(*names: str) -> dict[str, Any]:
    """JSON Schema: exactly one of these is given (and not null)."""
    kinds = {"delta": "integer", "set_to": "integer", "add": "string", "remove": "string"}
    return {
        "oneOf": [
            {"required": [name], "properties": {name: {"type": kinds[name]}}} for name in names
        ]
    }


class SheetEdit(Frozen):
    """One change a player makes by hand, as Iron Vault allows: take or suffer on a meter, mark
    or clear an impact, spend or gain experience. ``field`` is the sheet's field, dotted into a
    nested one (``health``, ``meters.blood``, ``abilities.brawn``, ``impacts``)."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        json_schema_extra=_one_change_of("delta", "set_to", "add", "remove"),
    )

    field: str = Field(
        min_length=1, max_length=80, pattern=r"^[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*$",
        examples=["health"],
    )  # fmt: skip
    delta: int | None = Field(None, ge=-100, le=100, description="add this (a number field)")
    set_to: int | None = Field(None, ge=-100, le=1000, description="or set it (a number field)")
    add: str | None = Field(None, max_length=80, description="or add this to a list (an impact)")
    remove: str | None = Field(None, max_length=80, description="or take this from a list")


def edit_sheet(rules: SheetRules, sheet: BaseModel, edits: list[SheetEdit]) -> SheetUpdate:
    """The sheet with the player's edits, each within its field's range (a meter taken past
    its top stops there, as the rules do); a field the sheet lacks, or a value its rules refuse,
    is an InvalidParameter naming ``edits[i]``."""
    data = sheet.model_dump(mode="json")
    applied: list[StateChange] = []
    for i, edit in enumerate(edits):
        where = f"edits[{i}]"
        given = [v for v in (edit.delta, edit.set_to, edit.add, edit.remove) if v is not None]
        if len(given) != 1:
            raise InvalidParameter("give one of delta, set_to, add or remove", where)
        *path, leaf = edit.field.split(".")
        holder: Any = data
        for part in path:
            holder = holder.get(part) if isinstance(holder, dict) else None
        if not isinstance(holder, dict) or leaf not in holder:
            raise InvalidParameter(f"the sheet has no field {edit.field!r}", f"{where}.field")
        old = holder[leaf]
        if edit.add is not None or edit.remove is not None:
            if not isinstance(old, list):
                raise InvalidParameter(f"{edit.field} is not a list", f"{where}.field")
            item = edit.add if edit.add is not None else edit.remove
            if old and all(isinstance(v, dict) for v in old):
                holder[leaf] = _without_record(old, edit, where)
                applied.append(StateChange(target=f"{edit.field}.{item}", set_to=0,
                                           note="by hand"))  # fmt: skip
                continue
            if (item in old) == (edit.add is not None):
                continue  # marked already, or not marked: nothing to do
            holder[leaf] = [*old, item] if edit.add is not None else [v for v in old if v != item]
            applied.append(StateChange(target=f"{edit.field}.{item}", set_to=int(bool(edit.add)),
                                       note="by hand"))  # fmt: skip
            continue
        if not isinstance(old, int) or isinstance(old, bool):
            raise InvalidParameter(f"{edit.field} is not a number", f"{where}.field")
        low, high = _field_bounds(type(sheet), [*path, leaf])
        new = edit.set_to if edit.set_to is not None else old + (edit.delta or 0)
        new = max(low, new) if low is not None else new
        new = min(high, new) if high is not None else new
        if new != old:
            holder[leaf] = new
            applied.append(StateChange(target=edit.field, delta=new - old, note="by hand"))
    try:
        edited = rules.validate(data)
    except RulesError as exc:
        told = f"the edited sheet is refused ({exc.field}): {exc.message}"
        raise InvalidParameter(told, "edits") from None
    return SheetUpdate(sheet=edited, applied=applied)


def _without_record(records: list[Any], edit: SheetEdit, where: str) -> list[Any]:
    """A list of records (Go Forth's wounds) less the first one ``remove`` names by one of its
    values ("shallow": a Shallow Wound healed by a Reason check). A record is added by the roll
    that makes it, not by hand."""
    if edit.remove is None:
        raise InvalidParameter(
            f"{edit.field} holds records that a roll adds: only remove one by hand", f"{where}.add"
        )
    for at, record in enumerate(records):
        if edit.remove in record.values():
            return records[:at] + records[at + 1 :]
    raise InvalidParameter(f"no entry of {edit.field} is {edit.remove!r}", f"{where}.remove")


def _field_bounds(model: Any, path: list[str]) -> tuple[int | None, int | None]:
    """The ``ge``/``le`` the sheet model states for a (nested) number field, when it states one."""
    info = None
    for part in path:
        fields = getattr(model, "model_fields", None)
        if not fields or part not in fields:
            return None, None
        info = fields[part]
        model = info.annotation
    low = high = None
    for rule in info.metadata if info is not None else []:
        low = getattr(rule, "ge", low)
        high = getattr(rule, "le", high)
    return low, high
