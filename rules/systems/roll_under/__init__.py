"""roll_under: d20 roll-under ability saves (Brawn, Finesse, Intellect), always-hit damage.

Source: roll_under.md, "Playing the Game" (the text names no game, authors or licence). This
system has no random tables (its Scars table is not part of the source).

Start at system.py. The modules, one per concept:
  system.py        SYSTEM and RULINGS
  saves.py         ability saves, advantage, opposed, aid, interfere, initiative
  damage.py        attacks (they always hit), armour, harm to HP and Brawn, ability loss, deeds
  sheet.py         the character sheet's rules a session calls (rules/sheets.py)
  character.py     the character sheet's model, validated
  sheet_params.py  the values the sheet holds, filled into each roll kind's params

This file imports none of them, so ``import rules.systems.roll_under.<module>`` stays cheap and
free of import cycles.
"""
