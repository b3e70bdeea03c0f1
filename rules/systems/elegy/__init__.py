"""Elegy: a solo vampire game on the Ironsworn chassis: stat + adds vs two d10, no action die.

Source: elegy.md (Chapter III "Playing the Game" and the optional moves chapter; the text names
no authors or licence). Move text and tables are data in rules/data/elegy/; the outcome band is
the Ironsworn family's, shared with Sundered Isles in rules/ironsworn.py.

Start at system.py. The modules, one per concept:
  system.py     SYSTEM and RULINGS; the dice roll kinds: action, power, ritual, conclusion, oracle
  mechanics.py  pure functions: challenge dice, focus, harm, stress, hunger, impact chains
  params.py     the roll parameters as strict models (a bad input names its field)
  moves.py      the ``move`` kind: any move of the optional moves chapter
  tracks.py     roll-free kinds: progress, harm to foes, harm/stress/hunger, experience
  options.py    the choose-one lists (benefits, costs, the moves' options) and their effects
  sheet.py      the character sheet a session keeps (rules/sheets.py's SheetRules)

This file imports none of them, so ``import rules.systems.elegy.<module>`` stays cheap and
free of import cycles.
"""
