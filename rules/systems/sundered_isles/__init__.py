"""Sundered Isles (Ironsworn: Starforged family): d6 action die + stat + adds vs two d10.

Source: sundered_isles.md (Sundered Isles moves reference, Shawn Tomkin, CC BY 4.0), completed
where the text defers to the Starforged rulebook by the published Starforged core rules. Move text
and tables are data in rules/data/sundered_isles/; the outcome band, momentum and the burn are the
Ironsworn family's, shared with Elegy in rules/ironsworn.py.

Start at system.py. The modules, one per concept:
  system.py   SYSTEM (stats, meters, roll kinds) and RULINGS, assembled from the modules below
  core.py     action roll, progress roll, yes/no oracle
  moves.py    any move of moves.yaml: its roll, outcome text and tables
  meters.py   suffer moves (and the running sheet): meter arithmetic as changes
  recover.py  recover moves: Heal, Hearten, Resupply, Repair, Sojourn
  legacy.py   legacy tracks, experience, Advance, recommitting to a challenge
  tracks.py   marking progress by rank, filling clocks (no dice)
  sheet.py    the character sheet a session keeps: roll parameters, applying changes, choices

This file imports none of them, so ``import rules.systems.sundered_isles.<module>`` stays cheap and
free of import cycles.
"""
