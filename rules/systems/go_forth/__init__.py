"""Go Forth: d20 + roll bonus vs a Target Number, an Effort die, Hearts and a Momentum pool.

Source: go_forth.txt ("Basics of Play"); the text names no authors or licence. The wound and
severity tables are data in rules/data/go_forth/.

Start at system.py. The modules, one per concept:
  system.py      SYSTEM and RULINGS
  checks.py      checks, Encounter TNs, Easy/Hard, Effort against Hearts, Contests
  attributes.py  attributes and their +Roll / +Effort split
  momentum.py    the Momentum dice pool as an immutable state machine
  wounds.py      Wounds (severity roll, wound tables) and Conditions
  sheet.py       the character sheet a session keeps (rules/sheets.py)
  gm.py          the parameters a GM sets (TN, Easy/Hard, the attribute called...)
  choices.py     the decisions an outcome leaves to the player

This file imports none of them, so ``import rules.systems.go_forth.<module>`` stays cheap and
free of import cycles.
"""
