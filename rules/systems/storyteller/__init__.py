"""Storyteller: pools of d10 against a difficulty; successes, 1s cancel, botches.

Source: storyteller.txt (a summary of the Storyteller rules for a Werewolf game); the text names
no authors and no licence. The degree-of-success table is data in rules/data/storyteller/.

Start at system.py. The modules, one per concept:
  system.py   SYSTEM and its simple and extended actions; exposes RULINGS
  rulings.py  RULINGS, kept apart because contest.py and group.py cite them too
  pool.py     counting a pool: successes, 1s, botches, degree of success; shared parameters
  contest.py  resisted and extended resisted actions
  group.py    teamwork and multiple actions
  traits.py   ratings, the meters (Willpower, Rage, Gnosis) and the pool the named traits make
  sheet.py    the character sheet a session keeps: SHEET_RULES (rules/sheets.py)

This file imports none of them, so ``import rules.systems.storyteller.<module>`` stays cheap and
free of import cycles.
"""
