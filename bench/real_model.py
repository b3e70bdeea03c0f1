"""The narrator against a real model: a fixed, varied corpus, every word the model wrote kept.

Where a local OpenAI-compatible server is given by ``OPENAI_BASE_URL`` (llama.cpp's server, say;
`../shared/DESIGN.md` "Facts" says how to build and start one here), this runs the service in
this process (on a loopback port, its lifespan and all) against that model and sends it a fixed
corpus of requests:

- the oracle: yes, no and matches across the odds, for the systems that have one;
- narrations of a strong hit, a weak hit, a miss and a match (or each system's own bands) for
  every system, with state changes where the move makes them;
- sparks (tables rolled and read);
- rules questions, some the texts answer and some they do not;
- two short sessions (Sundered Isles and Go Forth), with named moves and proposed ones accepted.

Every request, the model's raw text (each attempt, rejected ones included: the model is wrapped
so that every reply it sends is recorded), and what reached the player go to a JSON-lines file,
one line per request, written as each completes (a run stopped halfway keeps what it did). A
summary closes the run: narrations by narrator, guard rejections by check, proposals refused at
accept, rules answers that said "not covered" for a question the texts answer, model calls per
turn, and seconds per request.

Not part of CI (a run takes most of an hour on a CPU). Run: ``make bench-real-model`` with
``OPENAI_BASE_URL=http://127.0.0.1:8088/v1`` (and ``--out FILE``, ``--only oracle,narrate``).
``--actions other`` (or ``third`` ... ``fortieth``) tells the same rolls with other attempts: the
corpus's own words are the ones the guard was tuned on, so these measure it on unseen ones.
Settings for a CPU model: ``FATEWEAVER_MODEL_TIMEOUT=120``, ``FATEWEAVER_MODEL_MAX_TOKENS=120``
and, for llama.cpp's server, ``FATEWEAVER_MODEL_JSON_MODE=json_object_schema`` and
``FATEWEAVER_MODEL_GRAMMAR=gbnf`` (the defaults here when unset).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from narrator import free_port, serve_in_thread  # noqa: E402

from prompts import RenderedPrompt  # noqa: E402
from service.narrator.model import Calls, ChatModel  # noqa: E402

# --- the corpus --------------------------------------------------------------------------------

CHAR = "Kell"
ORACLE: list[dict[str, Any]] = [
    # (system, question, odds, d100): Sundered Isles says yes on d100 <= the odds' number, Elegy
    # yes on >= it; a double (11, 22, ... 99, 100) is a match
    {"system": "sundered_isles", "question": "Is the harbour guarded?", "odds": "50_50", "dice": [31]},
    {"system": "sundered_isles", "question": "Is the tavern crowded tonight?", "odds": "unlikely", "dice": [81]},
    {"system": "sundered_isles", "question": "Does the captain recognise me?", "odds": "likely", "dice": [44]},
    {"system": "sundered_isles", "question": "Is there a storm coming?", "odds": "small_chance", "dice": [97]},
    {"system": "sundered_isles", "question": "Is the map a forgery?", "odds": "50_50", "dice": [77]},
    {"system": "sundered_isles", "question": "Are the smugglers still aboard?", "odds": "almost_certain", "dice": [12]},
    {"system": "elegy", "question": "Is the priest awake?", "odds": "50_50", "dice": [62]},
    {"system": "elegy", "question": "Does the ghoul follow me?", "odds": "likely", "dice": [11]},
    {"system": "elegy", "question": "Is the crypt sealed?", "odds": "unlikely", "dice": [66]},
    {"system": "go_forth", "question": "Is the bridge still standing?", "odds": "likely", "seed": 3},
    {"system": "storyteller", "question": "Is the Prince in the Elysium tonight?", "odds": "50_50", "seed": 5},
]  # fmt: skip

# (system, kind, params, outcome wanted, match wanted or None, action)
NARRATE: list[tuple[str, str, dict[str, Any], str, bool | None, str]] = [
    ("sundered_isles", "move", {"move": "face_danger", "stat": "edge", "stat_value": 2}, "strong_hit", False, "I leap from the rigging to the enemy deck"),
    ("sundered_isles", "move", {"move": "face_danger", "stat": "edge", "stat_value": 2}, "weak_hit", False, "I climb the crumbling sea wall"),
    ("sundered_isles", "move", {"move": "face_danger", "stat": "edge", "stat_value": 2}, "miss", False, "I swim for the wreck before the tide turns"),
    ("sundered_isles", "move", {"move": "face_danger", "stat": "wits", "stat_value": 2}, "miss", True, "I read the reef's currents to slip past the patrol"),
    ("sundered_isles", "move", {"move": "secure_an_advantage", "stat": "wits", "stat_value": 2}, "weak_hit", False, "I study the fort's walls from the dunes"),
    ("sundered_isles", "move", {"move": "secure_an_advantage", "stat": "shadow", "stat_value": 2}, "strong_hit", True, "I hide in the fog bank and wait for the cutter"),
    ("sundered_isles", "move", {"move": "gather_information", "stat": "wits", "stat_value": 3}, "strong_hit", False, "I question the dock workers about the missing ship"),
    ("sundered_isles", "move", {"move": "compel", "stat": "heart", "stat_value": 2}, "weak_hit", False, "I try to convince the harbourmaster to let us dock"),
    ("sundered_isles", "action", {"stat": "iron", "stat_value": 3, "momentum": 2}, "miss", False, "I force the rusted hatch open"),
    ("elegy", "action", {"stat": "glamour", "stat_value": 3, "adds": 2, "focus": 3}, "strong_hit", False, "I charm the doorman into letting me pass"),
    ("elegy", "action", {"stat": "glamour", "stat_value": 2, "focus": 3}, "weak_hit", False, "I beguile the curator into showing me the vault"),
    ("elegy", "action", {"stat": "dexterity", "stat_value": 2, "focus": 3}, "miss", False, "I slip through the window before the guard turns"),
    ("elegy", "action", {"stat": "force", "stat_value": 3, "adds": 2, "focus": 3}, "strong_hit", True, "I tear the iron gate off its hinges"),
    ("elegy", "power", {"stat": "force", "stat_value": 2, "blood": 3}, "miss", None, "I call on the blood to still the hound"),
    ("go_forth", "check", {"roll_bonus": 3, "tn": 13}, "success", None, "I climb the cliff to the watchtower"),
    ("go_forth", "check", {"roll_bonus": 1, "tn": 15}, "failure", None, "I pick the lock on the armoury door"),
    ("go_forth", "effort", {"roll_bonus": 3, "effort_bonus": 2, "effort_die": 8, "tn": 13}, "hit", None, "I swing my axe at the bandit"),
    ("go_forth", "effort", {"roll_bonus": 1, "effort_bonus": 2, "effort_die": 6, "tn": 15}, "graze", None, "I loose an arrow at the wolf"),
    ("go_forth", "contest", {"roll_bonus": 2, "opponent_bonus": 1}, "loss", None, "I wrestle the guard for the key"),
    ("storyteller", "simple", {"pool": 5, "difficulty": 6}, "success", None, "I shadow the ghoul through the market"),
    ("storyteller", "simple", {"pool": 5, "difficulty": 7}, "failure", None, "I search the haven for the hidden letter"),
    ("storyteller", "simple", {"pool": 3, "difficulty": 8}, "botch", None, "I leap across the rooftops"),
    ("storyteller", "resisted", {"pool": 5, "difficulty": 6, "opponent_pool": 4, "opponent_difficulty": 6}, "win", None, "I stare down the rival Kindred"),
    ("roll_under", "save", {"ability": "finesse", "score": 12}, "success", None, "I dodge the falling portcullis"),
    ("roll_under", "save", {"ability": "brawn", "score": 9}, "failure", None, "I hold the door against the orcs"),
    ("roll_under", "deed", {"ability": "finesse", "score": 13, "weapon": {"die": 8}}, "spectacular_success", None, "I vault the table and strike at the bandit chief"),
    ("roll_under", "opposed", {"actor": {"name": CHAR, "ability": "brawn", "score": 12}, "opponent": {"name": "Orc", "ability": "brawn", "score": 14}}, "opponent_wins", None, "I arm-wrestle the orc for the map"),
    # added with the lead (issue 15): words not said as "I ...", a tie (told whole), more bands
    ("sundered_isles", "move", {"move": "face_danger", "stat": "heart", "stat_value": 2}, "strong_hit", False, "Kell steadies the frightened crew"),
    ("sundered_isles", "action", {"stat": "shadow", "stat_value": 2, "momentum": 2}, "strong_hit", False, "I pick the captain's pocket"),
    ("sundered_isles", "move", {"move": "enter_the_fray", "stat": "wits", "stat_value": 2}, "weak_hit", False, "I draw my cutlass as the boarders come over the rail"),
    ("elegy", "action", {"stat": "dexterity", "stat_value": 3, "focus": 3}, "weak_hit", False, "I scale the cathedral's bell tower"),
    ("go_forth", "check", {"roll_bonus": 2, "tn": 12}, "success", None, "I track the goblins through the marsh"),
    ("go_forth", "contest", {"roll_bonus": 1, "opponent_bonus": 1}, "tie", None, "I haggle with the dwarf over the price"),
    ("storyteller", "simple", {"pool": 4, "difficulty": 6}, "success", None, "I hack the security terminal"),
    ("roll_under", "save", {"ability": "finesse", "score": 11}, "failure", None, "I balance along the narrow ledge"),
]  # fmt: skip

# Other words for the same rolls (``--actions other``): scenarios the guard was never tuned on,
# to measure how it holds on new ones (runs 1-29 all used the words above).
OTHER_ACTIONS: list[str] = [
    "I swing across the gap on a loose halyard",
    "I scramble up the cliff path before the tide",
    "I outrun the harbour watch through the fish market",
    "I steer us between the rocks in the dark",
    "I watch the smugglers' cove from the ridge",
    "I creep along the quay to overhear the captains",
    "I search the customs ledgers for the ship's name",
    "I persuade the fisherwoman to hide us in her hold",
    "I break down the warehouse door",
    "I win over the bishop's secretary",
    "I talk my way past the night watch",
    "I snatch the letter from the courier's bag",
    "I hurl the grave robber across the crypt",
    "I call on the blood to cloud the watchman's mind",
    "I wade across the flooded ford",
    "I disarm the tripwire across the corridor",
    "I thrust my spear at the goblin chief",
    "I slash at the giant spider",
    "I race the bandit to the fallen sword",
    "I tail the informant through the subway",
    "I pick the lock of the Prince's study",
    "I jump the gap between the fire escapes",
    "I outbid the Tremere at the auction",
    "I leap clear of the collapsing floor",
    "I keep my grip on the slick rope",
    "I lunge at the cultist with my rapier",
    "I shove the ogre off the bridge",
    "Kell calms the panicking horses",
    "I slip the key from the jailer's belt",
    "I raise my pistol as the raiders storm the beach",
    "I climb the ivy to the balcony",
    "I follow the wolf tracks into the hills",
    "I bargain with the ferryman over the fare",
    "I sneak into the Elysium unseen",
    "I cross the frozen lake",
]
# ... and a third set (``--actions third``)
THIRD_ACTIONS: list[str] = [
    "I run along the yardarm to cut the enemy's flag",
    "I climb down the anchor chain into the water",
    "I dive under the jetty to lose the pursuers",
    "I pilot the skiff through the breakers at night",
    "I map the patrol routes from the lighthouse",
    "I hide among the barrels to watch the smugglers unload",
    "I ask the old sailor what sank the Morrow",
    "I bargain with the pirate captain for safe passage",
    "I wrench the iron grate off the drain",
    "I seduce the count's chamberlain",
    "I flatter the gallery owner into lending me the key",
    "I vault the garden wall before the hounds reach me",
    "I rip the coffin lid off with my bare hands",
    "I call on the blood to mend my wounds",
    "I swim across the underground river",
    "I decipher the runes on the sealed door",
    "I smash my mace into the troll's knee",
    "I throw my dagger at the fleeing thief",
    "I arm-wrestle the blacksmith for his hammer",
    "I follow the courier through the night market",
    "I track the thief's scent across the rooftops",
    "I leap from the bell tower onto the cart",
    "I face down the Sheriff in the court of Elysium",
    "I duck under the swinging blade trap",
    "I hold the rope bridge steady as it sways",
    "I stab at the wraith with my silver dagger",
    "I wrestle the troll for the stolen amulet",
    "Kell rallies the frightened villagers",
    "I lift the purse from the merchant's belt",
    "I aim my crossbow as the wolves break cover",
    "I climb the chimney onto the manor roof",
    "I search the abandoned mill for supplies",
    "I haggle with the alchemist over the potion",
    "I slip past the ghouls in the sewer unseen",
    "I resist the siren's song",
]
# ... and a fourth (``--actions fourth``)
FOURTH_ACTIONS: list[str] = [
    "I jump from the pier onto the departing sloop",
    "I cling to the rigging through the squall",
    "I row against the current to reach the island",
    "I thread the reef passage with the pursuers behind us",
    "I scout the harbour defences from a rowboat",
    "I lie in wait in the mangroves for the patrol",
    "I question the tavern keeper about the missing crew",
    "I talk the customs officer into ignoring our cargo",
    "I batter down the cellar door",
    "I persuade the abbess to open the archive",
    "I coax the stable boy into saddling the horse",
    "I slip the guard's keys from his belt before he wakes",
    "I tear the chains from the wall",
    "I call on the blood to hear the dead speak",
    "I leap the chasm to the far ledge",
    "I force the rusted portcullis winch",
    "I bring my hammer down on the skeleton's skull",
    "I loose a bolt at the harpy",
    "I out-drink the mercenary captain",
    "I shadow the hunter through the cemetery",
    "I hotwire the getaway car",
    "I scale the cathedral facade in the rain",
    "I stare down the Brujah enforcer",
    "I roll under the closing gate",
    "I hold my breath in the flooded tunnel",
    "I strike the necromancer with my mace",
    "I tug the rope against the giant in a contest of strength",
    "Kell steadies the wounded ranger",
    "I palm the signet ring from the magistrate's desk",
    "I brace my shield as the cavalry charges",
    "I squeeze through the collapsed tunnel",
    "I hunt the deer through the snowy forest",
    "I haggle with the fence over the stolen jewels",
    "I sneak past the sleeping dragon",
    "I dodge the falling rocks in the pass",
]
# ... and a fifth (``--actions fifth``)
FIFTH_ACTIONS: list[str] = [
    "I swing from the chandelier onto the smugglers' table",
    "I haul myself up the slick hull",
    "I sail through the storm to reach port before dawn",
    "I slip between the patrol boats under cover of fog",
    "I study the enemy fleet's formation from the clifftop",
    "I wait in ambush behind the dunes for the landing party",
    "I interrogate the captured pirate about the treasure",
    "I convince the governor to pardon my crew",
    "I kick open the barred shutters",
    "I enchant the baroness at the masquerade",
    "I sweet-talk the gravedigger into opening the tomb",
    "I grab the relic before the priest sees me",
    "I break the werewolf's grip on my throat",
    "I call on the blood to command the rats",
    "I jump across the rooftops to the tower",
    "I pry open the sealed sarcophagus",
    "I cleave the orc's shield with my greataxe",
    "I fling a spear at the charging boar",
    "I wrestle the bandit for the reins",
    "I follow the vampire's trail through the catacombs",
    "I crack the safe in the mayor's office",
    "I leap from the speeding train",
    "I outwit the Nosferatu in a game of riddles",
    "I dive away from the fireball",
    "I keep my footing on the crumbling stairs",
    "I swing my flail at the goblin shaman",
    "I push the cultist back from the altar",
    "Kell reassures the weeping child",
    "I pocket the map from the captain's table",
    "I level my musket as the boarders swarm aboard",
    "I climb the ruined aqueduct",
    "I scout the ridge for the orc warband",
    "I haggle with the merchant over the silk",
    "I creep past the sleeping guards",
    "I leap the spiked pit",
]
# ... and a sixth and a seventh (``--actions sixth``, ``--actions seventh``)
SIXTH_ACTIONS: list[str] = [
    "I cut the rope and ride the sail down to the deck",
    "I crawl along the bowsprit in the storm",
    "I paddle for the cave before the tide closes it",
    "I weave the ship through the burning wrecks",
    "I watch the harbourmaster's office from the rooftops",
    "I conceal myself in the cargo hold to spy on the crew",
    "I comb the shipwright's records for the stolen design",
    "I persuade the navigator to join our crew",
    "I smash the lock on the sea chest",
    "I charm the duchess into inviting me to the ball",
    "I bluff my way past the cathedral guards",
    "I pick the priest's pocket during the sermon",
    "I lift the fallen pillar off the trapped acolyte",
    "I call on the blood to quicken my steps",
    "I climb the frozen waterfall",
    "I open the puzzle box",
    "I hack at the vines choking the gate with my sword",
    "I shoot an arrow at the fleeing messenger",
    "I race the ranger to the top of the hill",
    "I trail the Ventrue's ghoul through the club",
    "I break into the evidence locker",
    "I run across the collapsing rooftop",
    "I intimidate the Anarch gang leader",
    "I jump aside from the charging bull",
    "I hold the bridge against the skeletons",
    "I hurl my javelin at the wyvern",
    "I pin the assassin to the floor",
    "Kell encourages the exhausted oarsmen",
    "I swipe the letter from the courier's satchel",
    "I draw my blade as the ambushers leap from the trees",
    "I scale the tower's ivy-covered wall",
    "I track the stolen cattle through the hills",
    "I haggle with the smith over the price of the sword",
    "I slip through the camp of sleeping bandits",
    "I swim across the icy river",
]
SEVENTH_ACTIONS: list[str] = [
    "I leap across the gap between the two ships",
    "I climb the mast in the gale to fix the sail",
    "I dive for the sunken chest before my air runs out",
    "I run the blockade at full sail",
    "I survey the bay from the crow's nest",
    "I stalk the smuggler along the docks",
    "I search the drowned man's pockets for clues",
    "I bribe the dockmaster to forget our arrival",
    "I shoulder open the jammed hatch",
    "I captivate the crowd at the salon",
    "I cajole the innkeeper into renting the attic",
    "I steal the dagger from the display case",
    "I crush the ghoul's skull against the wall",
    "I call on the blood to see through the dark",
    "I cross the rickety rope bridge",
    "I defuse the alchemical trap on the chest",
    "I drive my sword into the ogre's side",
    "I hurl a throwing axe at the bandit archer",
    "I grapple the cultist for the ritual knife",
    "I shadow the Toreador through the gallery",
    "I bypass the alarm on the warehouse",
    "I vault the railing onto the moving tram",
    "I face down the Gangrel in the woods",
    "I dodge the thrown spear",
    "I resist the vampire's mesmerising gaze",
    "I thrust my sword at the highwayman",
    "I shove the brute out of the doorway",
    "Kell comforts the grieving widow",
    "I filch the key from the sleeping jailer",
    "I shoulder my rifle as the wolves circle",
    "I climb the crumbling cliff face",
    "I follow the smugglers' trail through the woods",
    "I bargain with the hermit for the herbs",
    "I sneak past the watchful gargoyles",
    "I keep my balance on the icy ledge",
]
# ... and an eighth (``--actions eighth``)
EIGHTH_ACTIONS: list[str] = [
    "I swing aboard the merchantman on a grappling line",
    "I scramble over the rocks as the waves break",
    "I bail water from the sinking longboat",
    "I steer the ship through the whirlpool",
    "I chart the island's coves from the cliffs",
    "I hide behind the sails to spy on the mutineers",
    "I question the lighthouse keeper about the wreck",
    "I plead with the admiral to spare the prisoners",
    "I pry the boarded window open",
    "I woo the prince's confidant",
    "I persuade the sexton to let me into the crypt",
    "I pluck the ring from the sleeping noble's finger",
    "I hurl the table at the charging thralls",
    "I call on the blood to silence the bells",
    "I swing across the ravine on the old vine",
    "I unlock the warded gate",
    "I cut down the goblin archer",
    "I shoot at the bandit on the ridge",
    "I arm-wrestle the dwarf champion",
    "I tail the Malkavian through the asylum",
    "I jimmy the lock on the Sabbat's van",
    "I dive through the closing elevator doors",
    "I stare down the Sheriff's hound",
    "I duck the troll's swinging club",
    "I brace the collapsing doorway",
    "I lunge at the ghoul with my spear",
    "I tackle the thief before he reaches the door",
    "Kell calms the spooked mule",
    "I snatch the dagger from the drunk's belt",
    "I ready my bow as the goblins charge",
    "I climb the rotten ladder into the loft",
    "I hunt for herbs along the riverbank",
    "I barter with the trader for a horse",
    "I steal past the sentries at the gate",
    "I jump the crevasse",
]
# ... and a ninth (``--actions ninth``)
NINTH_ACTIONS: list[str] = [
    "I slide down the rope onto the pirate's deck",
    "I hang from the cliff edge as the rocks give way",
    "I race the storm to the harbour mouth",
    "I sail between the cliffs in the dark",
    "I watch the lighthouse signals from the hill",
    "I lurk under the pier to overhear the smugglers",
    "I ask the harbour children about the strange ship",
    "I talk the quartermaster into an extra ration of powder",
    "I hammer the rusted lock off the cage",
    "I beguile the magistrate's daughter",
    "I fast-talk the night porter into unlocking the gallery",
    "I snatch the letter from the ambassador's coat",
    "I throw the gravedigger into the open grave",
    "I call on the blood to mask my scent",
    "I wade through the bog to the island",
    "I find the hidden catch on the bookcase",
    "I chop at the spider's legs with my axe",
    "I throw my hatchet at the fleeing goblin",
    "I race the knight to the castle gate",
    "I follow the Lasombra through the cathedral",
    "I pick the lock on the Prince's safe",
    "I leap across the subway tracks",
    "I stare down the rival pack's alpha",
    "I sidestep the falling chandelier",
    "I keep hold of the runaway cart",
    "I stab at the goblin king with my dagger",
    "I wrestle the bandit for the lantern",
    "Kell soothes the frightened horses",
    "I lift the coin purse from the guard captain",
    "I draw my pistol as the mutineers rush the deck",
    "I climb the drainpipe to the attic window",
    "I track the wounded stag through the snow",
    "I dicker with the fishmonger over the catch",
    "I slip past the sleeping watchdog",
    "I balance across the narrow beam",
]
# ... a tenth and an eleventh (``--actions tenth``, ``--actions eleventh``), written at stop 26
# for the blind measure of the grammar (service/narrator/grammar.py) and the guard tuned on its
# replies
TENTH_ACTIONS: list[str] = [
    "I drop from the yardarm onto the smuggler's barge",
    "I cling to the mooring post as the tide drags at me",
    "I row hard to beat the squall to the cove",
    "I steer us through the reef at low tide",
    "I spy on the harbour fort from the bell tower",
    "I crouch behind the nets to hear the pirates plot",
    "I ask the old net-mender about the sea witch",
    "I coax the purser into lending us a longboat",
    "I kick in the warped door of the chart room",
    "I dazzle the consul's nephew with my wit",
    "I persuade the warden to open the east gate",
    "I pluck the sealed letter from the courier's bag",
    "I hurl the assassin through the stained-glass window",
    "I call on the blood to hush the crowd",
    "I ford the swollen river on foot",
    "I search the ruined chapel for the reliquary",
    "I bring my mace down on the troll's knee",
    "I fling a dagger at the retreating scout",
    "I outrun the hounds to the abbey wall",
    "I tail the Tremere through the night market",
    "I force the lock of the Primogen's desk",
    "I jump the gap between the warehouse roofs",
    "I glare down the Brujah bruiser",
    "I roll under the swinging blade",
    "I hold the rope as the bridge sways",
    "I jab at the kobold chieftain with my spear",
    "I grapple the smuggler for the ledger",
    "Kell quiets the restless prisoners",
    "I slip the signet ring from the merchant's finger",
    "I brace my pike as the raiders charge",
    "I scale the slick chimney to the roof",
    "I trail the poachers through the pine woods",
    "I bargain with the tinker over the lantern",
    "I sneak past the dozing gatekeeper",
    "I tightrope along the fallen mast",
]
ELEVENTH_ACTIONS: list[str] = [
    "I vault from the pier onto the moving ferry",
    "I hang onto the capsized dinghy in the swell",
    "I race the incoming tide across the sandbar",
    "I pilot the cutter through the fog-bound strait",
    "I watch the customs house from the dunes",
    "I hide under the dock to hear the captains bargain",
    "I quiz the ferryman about the missing crew",
    "I sweet-talk the armourer into a discount",
    "I smash the padlock on the powder store",
    "I charm the countess at the opera",
    "I talk the guard captain into letting us pass",
    "I palm the key from the sleeping steward",
    "I shove the cultist into the fountain",
    "I call on the blood to blind the watchers",
    "I climb the scree slope to the pass",
    "I hunt through the archive for the deed",
    "I swing my hammer at the skeleton's skull",
    "I loose a bolt at the fleeing thief",
    "I race the courier to the ferry landing",
    "I shadow the Nosferatu through the sewers",
    "I crack the code on the vault keypad",
    "I leap from the balcony to the awning",
    "I face down the Sabbat pack leader",
    "I duck the swinging chain",
    "I pull myself up the crumbling wall",
    "I slash at the bandit leader with my sabre",
    "I wrestle the guard for his crossbow",
    "Kell cheers the weary sailors",
    "I pinch the purse from the noble's belt",
    "I raise my shield as the archers loose",
    "I clamber up the rigging in the storm",
    "I follow the wolf tracks into the hills",
    "I haggle with the ferryman over the fare",
    "I creep through the sleeping barracks",
    "I edge along the icy parapet",
]
# ... a twelfth and a thirteenth (``--actions twelfth``, ``thirteenth``), written for stop 26's
# final measure, after the guard was tuned on the tenth and eleventh
TWELFTH_ACTIONS: list[str] = [
    "I swing down from the crow's nest onto the pirate deck",
    "I hold fast to the rigging as the mast cracks",
    "I scull the jolly boat past the rocks before dark",
    "I thread the schooner between the sandbanks at night",
    "I watch the lighthouse keeper's hut from the rocks",
    "I lie under the tarpaulin to hear the mutineers",
    "I ask the harbour pilot about the wrecked sloop",
    "I persuade the quartermaster to issue us muskets",
    "I lever the rusted grate off the bilge",
    "I enthral the ambassador's bodyguard",
    "I convince the sexton to unlock the ossuary",
    "I lift the wax seal from the bishop's letter",
    "I fling the zealot down the cellar stairs",
    "I call on the blood to silence the dogs",
    "I wade the flooded causeway at dusk",
    "I look through the smuggler's ledgers for the cargo",
    "I cleave the ghoul's arm with my axe",
    "I hurl a spear at the fleeing raider",
    "I race the ferryman's boy to the chapel bell",
    "I follow the Giovanni through the catacombs",
    "I jimmy the window of the Prince's study",
    "I vault over the moving carriage",
    "I stare down the Gangrel elder",
    "I sidestep the collapsing scaffold",
    "I hang on to the runaway horse's reins",
    "I stab at the ogre's eye with my dagger",
    "I wrestle the poacher for the snare",
    "Kell calms the panicked passengers",
    "I lift the compass from the navigator's coat",
    "I level my pistol as the smugglers draw steel",
    "I climb the slick quay ladder",
    "I track the deserter through the dunes",
    "I barter with the fishwife over the eels",
    "I sneak past the snoring bosun",
    "I inch along the wet gunwale",
]
THIRTEENTH_ACTIONS: list[str] = [
    "I leap across to the burning brig",
    "I brace against the hull as the wave hits",
    "I race the rising fog to the harbour chain",
    "I sail the sloop through the narrows under fire",
    "I spy on the admiral's barge from the breakwater",
    "I hide in the rowing boat to overhear the bosuns",
    "I question the cooper about the poisoned rum",
    "I talk the gunner into lending me his spyglass",
    "I batter the bolted hatch of the brig",
    "I captivate the duke's sister at the ball",
    "I coax the watchman into opening the postern",
    "I filch the cipher from the spymaster's desk",
    "I throw the bandit off the tower roof",
    "I call on the blood to calm the storm",
    "I cross the frozen marsh by night",
    "I search the wreck's hold for the strongbox",
    "I smash my maul into the golem's chest",
    "I shoot an arrow at the escaping spy",
    "I outpace the bailiff to the market cross",
    "I stalk the Ventrue through the opera house",
    "I break into the Sheriff's strongbox",
    "I jump the fence before the dogs arrive",
    "I face down the Lasombra in the chapel",
    "I twist away from the thrown axe",
    "I keep the cart from sliding into the gorge",
    "I strike the cult leader with my staff",
    "I grapple the thief for the stolen chalice",
    "Kell heartens the frightened townsfolk",
    "I pickpocket the harbour master",
    "I raise my blade as the boarders pour in",
    "I scramble up the wet sea cliff",
    "I trail the pirates' tracks through the jungle",
    "I haggle with the chandler over the rope",
    "I creep past the sleeping sentry",
    "I tiptoe across the creaking floorboards",
]
# ... and a fourteenth (``--actions fourteenth``), a third blind measure of the same final code
FOURTEENTH_ACTIONS: list[str] = [
    "I jump from the quay onto the departing galley",
    "I grip the anchor cable as the ship lurches",
    "I paddle the canoe ahead of the squall",
    "I bring the cog through the shoals in the storm",
    "I observe the harbour patrol from the chapel roof",
    "I hide in the net loft to hear the fishermen scheme",
    "I ask the tavern cook about the drowned sailor",
    "I cajole the dockmaster into waiving the fee",
    "I pry open the barred hatch of the lazarette",
    "I beguile the governor's aide at the salon",
    "I sweet-talk the jailer into opening the cell",
    "I slip the dagger from the sleeping mercenary's belt",
    "I hurl the thug over the balcony rail",
    "I call on the blood to cloud the hunter's sight",
    "I climb the icy ravine to the ledge",
    "I rummage through the chest for the deed",
    "I bring my flail down on the troll's head",
    "I throw a knife at the running pickpocket",
    "I race the rival courier to the toll bridge",
    "I shadow the Brujah through the docks",
    "I pick the lock on the Keeper's cabinet",
    "I leap the gap to the next rooftop",
    "I stare down the Anarch baron",
    "I dive away from the crashing chandelier",
    "I hold the rope bridge steady in the wind",
    "I thrust my spear at the bugbear",
    "I wrestle the cultist for the ritual dagger",
    "Kell rallies the tired rowers",
    "I filch the purse from the card player",
    "I raise my musket as the raiders storm the gate",
    "I climb the crumbling tower stair",
    "I track the wolves through the snow",
    "I haggle with the trader over the salt",
    "I sneak past the dozing sentries",
    "I balance along the slippery spar",
]
# ... and a fifteenth (``--actions fifteenth``), written for the first measure of the words
# barred by outcome (service/narrator/unsaid.py), slot for slot like the fourteenth
FIFTEENTH_ACTIONS: list[str] = [
    "I vault from the pier onto the moving barge",
    "I cling to the shroud as the hull heels over",
    "I scull the skiff ahead of the gale",
    "I guide the sloop past the sandbanks in the squall",
    "I watch the customs cutter from the lighthouse gallery",
    "I crouch in the sail locker to overhear the mates plotting",
    "I question the ferrywoman about the missing pilot",
    "I wheedle the harbour clerk into stamping our papers",
    "I lever open the bolted trapdoor of the bilge",
    "I charm the consul's secretary at the banquet",
    "I talk the turnkey into unbarring the gate",
    "I lift the keyring from the snoring bosun",
    "I heave the brigand off the gangplank",
    "I call on the blood to muffle the hounds' baying",
    "I scale the frozen waterfall to the cave",
    "I search the captain's desk for the ledger",
    "I drive my axe into the ogre's shoulder",
    "I loose an arrow at the fleeing smuggler",
    "I race the herald to the city gate",
    "I follow the Gangrel through the park",
    "I force the lock on the Regent's strongbox",
    "I jump the alley to the chapel roof",
    "I face down the Sheriff in the alley",
    "I throw myself aside from the toppling siege tower",
    "I hold the gate shut against the ghouls",
    "I swing my mace at the hobgoblin",
    "I wrestle the bandit for the reins",
    "Kell steadies the frightened crew",
    "I pinch the ring from the dozing innkeeper",
    "I level my pistol as the pirates rush the deck",
    "I climb the rotten ladder to the loft",
    "I follow the boar's trail through the forest",
    "I haggle with the smith over the blade",
    "I creep past the snoring watchmen",
    "I cross the icy beam above the hold",
]
# ... and a sixteenth (``--actions sixteenth``), written before the leads that say the outcome in
# the attempt's terms were measured, slot for slot like the fifteenth
SIXTEENTH_ACTIONS: list[str] = [
    "I leap from the dock onto the ferry's stern",
    "I hang onto the boom as the ketch jibes",
    "I row the jolly boat ahead of the storm front",
    "I pilot the brig between the rocks in the fog",
    "I spy on the privateers from the bell tower",
    "I hide behind the cargo nets to hear the bosun's plan",
    "I ask the fishwife about the vanished smugglers",
    "I coax the customs man into overlooking the crates",
    "I prise open the locked sea chest",
    "I flatter the duchess's steward at the ball",
    "I persuade the gaoler to unlock the cell door",
    "I slip the purse from the sleeping merchant's belt",
    "I shove the cutthroat off the pier",
    "I call on the blood to silence the watchdogs",
    "I climb the sheer rock face to the eyrie",
    "I rifle through the study for the letters",
    "I bring my hammer down on the ghoul's skull",
    "I hurl a spear at the retreating raider",
    "I race the messenger to the ford",
    "I tail the Toreador through the opera house",
    "I pick the lock on the Prince's writing desk",
    "I leap the chasm to the far ledge",
    "I glare down the rival Anarch",
    "I throw myself clear of the toppling statue",
    "I brace the cellar door against the zombies",
    "I stab at the gnoll with my shortsword",
    "I grapple the cultist for the idol",
    "Kell calms the panicking passengers",
    "I lift the seal from the snoring magistrate",
    "I aim my crossbow as the bandits charge the wagon",
    "I scale the ivy-covered wall to the window",
    "I track the deer through the pine woods",
    "I bargain with the fletcher over the arrows",
    "I sneak past the napping guards",
    "I walk the slick gangplank in the storm",
]
# ... and a seventeenth (``--actions seventeenth``), written for stop 28's final measure, slot for
# slot like the sixteenth
SEVENTEENTH_ACTIONS: list[str] = [
    "I jump from the jetty onto the sloop's deck",
    "I cling to the shrouds as the squall hits",
    "I sail the dinghy ahead of the waterspout",
    "I steer the schooner through the reef at night",
    "I watch the smugglers' cove from the cliff top",
    "I crouch behind the barrels to overhear the quartermaster",
    "I question the lamplighter about the missing courier",
    "I talk the harbour clerk into stamping my papers",
    "I pry the lid off the nailed crate",
    "I charm the baroness's chamberlain at the masquerade",
    "I convince the warden to release the prisoner",
    "I lift the key from the dozing turnkey's belt",
    "I push the brigand over the railing",
    "I call on the blood to quiet the crows",
    "I climb the crumbling aqueduct to the arch",
    "I search the archive for the sealed will",
    "I bring my mace down on the wight's helm",
    "I throw a javelin at the fleeing scout",
    "I race the smuggler to the boathouse",
    "I follow the Nosferatu through the sewers",
    "I pick the lock on the Primogen's cabinet",
    "I jump the gap between the belfries",
    "I stare down the rival Ventrue",
    "I dive clear of the collapsing scaffold",
    "I bar the chapel door against the ghouls",
    "I slash at the kobold with my scimitar",
    "I wrestle the smuggler for the lantern",
    "Kell soothes the frightened horses",
    "I slip the letter from the sleeping ambassador's coat",
    "I raise my bow as the wolves rush the camp",
    "I climb the drainpipe to the balcony",
    "I follow the stag's tracks through the snow",
    "I haggle with the tanner over the hides",
    "I tiptoe past the sleeping hounds",
    "I cross the frozen pond in the dark",
]
# ... and an eighteenth (``--actions eighteenth``), written for stop 29's final measure, slot for
# slot like the seventeenth
EIGHTEENTH_ACTIONS: list[str] = [
    "I vault from the quay onto the barge's roof",
    "I grip the yardarm as the gale strikes",
    "I scull the skiff ahead of the squall line",
    "I thread the caravel through the shoals at dusk",
    "I watch the wreckers' bonfire from the dunes",
    "I lie under the tarpaulin to hear the mate's orders",
    "I ask the ferryman about the drowned pilgrim",
    "I sweet-talk the toll keeper into waving us through",
    "I lever the lid off the sealed cask",
    "I win over the cardinal's secretary at the feast",
    "I persuade the turnkey to hand over the ledger",
    "I ease the signet from the slumbering bishop's hand",
    "I shove the cutpurse into the canal",
    "I call on the blood to calm the horses",
    "I scale the broken belfry to the bell",
    "I comb the library for the forbidden map",
    "I drive my spear into the ghast's chest",
    "I loose an arrow at the escaping thief",
    "I race the courier to the bridge",
    "I shadow the Malkavian through the asylum",
    "I open the lock on the Seneschal's strongbox",
    "I leap the ravine to the far side",
    "I face down the rival Gangrel",
    "I throw myself aside from the toppling siege tower",
    "I wedge the door shut against the wights",
    "I cut at the bugbear with my falchion",
    "I grapple the poacher for the snare",
    "Kell reassures the seasick pilgrims",
    "I take the map from the sleeping cartographer's desk",
    "I nock an arrow as the boars charge the camp",
    "I scale the trellis to the tower window",
    "I track the elk through the heather",
    "I bargain with the cooper over the barrels",
    "I steal past the dozing sentries",
    "I walk the frozen rampart in the wind",
]
# ... and a nineteenth (``--actions nineteenth``), written for stop 29's final measure, slot for
# slot like the eighteenth
NINETEENTH_ACTIONS: list[str] = [
    "I spring from the pier onto the lugger's hatch",
    "I hold fast to the bowsprit as the wave breaks",
    "I paddle the canoe ahead of the rising flood",
    "I pilot the cog past the sandbanks in the rain",
    "I observe the slavers' camp from the headland",
    "I hide in the rope locker to hear the purser's scheme",
    "I ask the net-mender about the lost fishing fleet",
    "I cajole the gate warden into letting us pass",
    "I wrench the cover off the bolted strongbox",
    "I beguile the abbess's steward at the vigil",
    "I talk the reeve into releasing the cattle",
    "I slide the ring off the drowsing countess's finger",
    "I hurl the footpad from the bridge",
    "I call on the blood to still the howling dogs",
    "I climb the ruined chimney to the rooftop",
    "I scour the vestry for the hidden relic",
    "I plunge my blade into the ghoul's side",
    "I fling a dagger at the fleeing spy",
    "I race the pedlar to the crossroads",
    "I trail the Brujah through the docks",
    "I crack the lock on the Regent's chest",
    "I jump the flooded ditch to the far bank",
    "I stare down the rival Toreador",
    "I dive away from the collapsing wall",
    "I hold the gate shut against the drowned dead",
    "I thrust at the hobgoblin with my spear",
    "I wrestle the bandit for the lantern",
    "Kell soothes the weeping children",
    "I take the letter from the sleeping abbot's table",
    "I draw my bow as the wolves rush the fold",
    "I climb the rose trellis to the balcony",
    "I follow the hart's trail through the bracken",
    "I dicker with the chandler over the candles",
    "I creep past the snoozing gatekeepers",
    "I walk the ice-slick parapet at night",
]
# ... and a twentieth (``--actions twentieth``), written for stop 29's last measure, slot for slot
# like the nineteenth
TWENTIETH_ACTIONS: list[str] = [
    "I leap from the mole onto the xebec's deck",
    "I cling to the halyard as the storm hits",
    "I pole the punt ahead of the bore tide",
    "I steer the pinnace between the wrecks at dawn",
    "I spy on the mutineers' meeting from the crow's nest",
    "I crouch in the bilge to overhear the bosun's deal",
    "I ask the lighthouse keeper about the phantom ship",
    "I persuade the tide warden to lower the chain",
    "I heave the grate off the flooded drain",
    "I charm the margrave's herald at the tourney",
    "I convince the sexton to open the crypt",
    "I lift the keys from the slumbering gaoler's hook",
    "I push the smuggler off the jetty",
    "I call on the blood to quiet the screaming mob",
    "I scale the old lighthouse to the lamp room",
    "I search the chapel for the hidden reliquary",
    "I bury my axe in the troll's shoulder",
    "I throw my knife at the running poacher",
    "I race the bailiff to the toll house",
    "I tail the Ventrue through the gallery",
    "I pick the lock on the Primogen's coffer",
    "I leap the collapsing stair to the landing",
    "I stare down the rival Nosferatu",
    "I throw myself clear of the falling chandelier",
    "I bar the cellar hatch against the ghasts",
    "I swing my flail at the orc chieftain",
    "I wrestle the cultist for the ritual knife",
    "Kell calms the frightened deckhands",
    "I slip the seal from the dozing notary's desk",
    "I aim my musket as the raiders storm the gate",
    "I climb the mossy wall to the tower window",
    "I track the boar through the brambles",
    "I haggle with the fishwife over the catch",
    "I sneak past the sleeping watchdogs",
    "I cross the rotten plank over the chasm",
]
# ... and a twenty-first (``--actions twenty_first``), for stop 29's last measure on its final
# code, slot for slot like the twentieth
TWENTY_FIRST_ACTIONS: list[str] = [
    "I jump from the wharf onto the schooner's deck",
    "I hang onto the rail as the swell lifts the bow",
    "I row the gig ahead of the gathering squall",
    "I guide the ketch through the rocks by moonlight",
    "I watch the pirates' careening beach from the ridge",
    "I hide behind the water casks to hear the captain's orders",
    "I ask the ropewalker about the missing pilot",
    "I sweet-talk the harbour guard into opening the boom",
    "I force the lid off the tarred chest",
    "I charm the bishop's chaplain at the funeral",
    "I persuade the jailer to let me see the prisoner",
    "I pluck the brooch from the napping duchess's collar",
    "I shove the brute off the gangway",
    "I call on the blood to silence the wailing crowd",
    "I scale the crumbling bastion to the battlements",
    "I search the crypt for the lost signet",
    "I smash my mace into the zombie's ribs",
    "I hurl my spear at the fleeing goblin",
    "I race the herald to the town gate",
    "I follow the Gangrel through the woods",
    "I pick the lock on the Baron's strongroom",
    "I leap the gap between the rooftops",
    "I face down the rival Lasombra",
    "I dive clear of the falling masonry",
    "I hold the postern shut against the wights",
    "I stab at the ogre with my rapier",
    "I wrestle the thug for the ledger",
    "Kell steadies the panicked rowers",
    "I lift the ring from the sleeping merchant's finger",
    "I ready my crossbow as the bandits rush the camp",
    "I climb the ivy to the chapel window",
    "I track the wolf through the snowfield",
    "I bargain with the weaver over the cloth",
    "I slip past the dozing sentry",
    "I cross the swaying rope bridge at night",
]
# ... and a twenty-second to a twenty-sixth (``--actions twenty_second`` ... ``twenty_sixth``), for
# stop 30's measures, slot for slot like the twenty-first
TWENTY_SECOND_ACTIONS: list[str] = [
    "I vault from the quay onto the brigantine's deck",
    "I brace against the mast as the wave breaks over us",
    "I scull the skiff ahead of the rising fog",
    "I pilot the sloop through the shoals at dusk",
    "I scout the raiders' cove from the cliff top",
    "I lurk under the gangplank to hear the purser's bargain",
    "I ask the net mender about the drowned bell",
    "I coax the reeve into lifting the harbour chain",
    "I lever the lid off the barnacled strongbox",
    "I charm the countess's steward at the masque",
    "I talk the warden into unlocking the cells",
    "I palm the locket from the drowsing widow's neck",
    "I kick the brigand off the pier",
    "I call on the blood to hush the rioting dockers",
    "I scale the ruined keep to the parapet",
    "I search the ossuary for the iron key",
    "I drive my hammer into the ghoul's skull",
    "I fling my hatchet at the escaping thief",
    "I race the bishop's rider to the bridge",
    "I trail the Toreador through the opera house",
    "I pick the lock on the Sheriff's chest",
    "I leap the broken span of the aqueduct",
    "I outstare the rival Tremere",
    "I roll clear of the toppling bookcase",
    "I hold the gate shut against the ghouls",
    "I lunge at the bugbear with my spear",
    "I grapple the smuggler for the key",
    "Kell rallies the wavering marines",
    "I take the dagger from the sleeping captain's belt",
    "I nock an arrow as the wolves break cover",
    "I climb the drainpipe to the attic window",
    "I track the stag through the pinewood",
    "I barter with the tinker over the lantern",
    "I tiptoe past the slumbering hounds",
    "I cross the iced-over river at dawn",
]
TWENTY_THIRD_ACTIONS: list[str] = [
    "I spring from the pier onto the caravel's deck",
    "I lash myself to the wheel as the gale rises",
    "I paddle the canoe ahead of the flood",
    "I thread the cutter between the reefs in the fog",
    "I observe the slavers' camp from the dunes",
    "I hide in the longboat to hear the first mate's plan",
    "I ask the old diver about the sunken treasury",
    "I wheedle the customs clerk into stamping our papers",
    "I wrench the bars off the cellar grating",
    "I charm the duke's falconer at the hunt",
    "I convince the abbess to open the archive",
    "I snatch the purse from the dozing banker's lap",
    "I topple the guard off the wall walk",
    "I call on the blood to calm the frenzied hounds",
    "I scale the sea cliff to the watchtower",
    "I search the wreck for the captain's log",
    "I cleave my greatsword into the wight's shoulder",
    "I hurl a javelin at the fleeing raider",
    "I race the tax collector to the mill",
    "I stalk the Brujah through the docklands",
    "I pick the lock on the Regent's cabinet",
    "I leap the chasm to the far ledge",
    "I glare down the rival Malkavian",
    "I scramble clear of the rockfall",
    "I wedge a pew against the vestry door to stop the revenants",
    "I thrust my halberd at the hill giant",
    "I wrestle the acolyte for the censer",
    "Kell soothes the terrified passengers",
    "I slip the pendant from the sleeping envoy's neck",
    "I load my pistol as the pirates board",
    "I climb the trellis to the balcony",
    "I track the bear through the birch forest",
    "I haggle with the cooper over the barrels",
    "I sneak past the drowsy porters",
    "I cross the crumbling causeway at high tide",
]
TWENTY_FOURTH_ACTIONS: list[str] = [
    "I bound from the jetty onto the dhow's deck",
    "I grip the shrouds as the squall strikes",
    "I pull the dinghy ahead of the breaking storm",
    "I steer the lugger past the sandbar at midnight",
    "I survey the wreckers' beach from the headland",
    "I crouch behind the nets to hear the harbourmaster's deal",
    "I ask the ferrywoman about the vanished lighthouse keeper",
    "I persuade the toll keeper into raising the barrier",
    "I prise the boards off the nailed crate",
    "I charm the prince's cupbearer at the banquet",
    "I coax the gravedigger to show me the vault",
    "I lift the seal ring from the snoozing magistrate's hand",
    "I shove the cutthroat off the balcony",
    "I call on the blood to silence the howling dogs",
    "I scale the crumbling belfry to the roof",
    "I search the library for the stolen deed",
    "I slam my club into the orc's jaw",
    "I throw my dagger at the fleeing spy",
    "I race the constable to the ferry",
    "I follow the Nosferatu through the sewers",
    "I pick the lock on the Seneschal's desk",
    "I leap the gap to the neighbouring roof",
    "I stare down the rival Ventrue",
    "I dive clear of the collapsing scaffold",
    "I brace the door against the zombies",
    "I slash at the troll with my sabre",
    "I wrestle the bandit for the lantern",
    "Kell calms the panicking villagers",
    "I take the map from the sleeping cartographer's table",
    "I string my bow as the goblins swarm the wall",
    "I climb the rope to the crow's nest",
    "I track the deer through the fen",
    "I dicker with the smith over the blade",
    "I creep past the dozing guards",
    "I cross the sagging bridge in the storm",
]
TWENTY_FIFTH_ACTIONS: list[str] = [
    "I jump from the dock onto the galley's deck",
    "I hold fast to the bowsprit as the wave hits",
    "I scull the punt ahead of the rising tide",
    "I guide the barge through the narrows at dawn",
    "I watch the pirate cove from the sea cliffs",
    "I hide under the pier to hear the smugglers' plans",
    "I ask the harbour witch about the cursed anchor",
    "I talk the gatekeeper into lowering the drawbridge",
    "I pry the grate off the storm drain",
    "I charm the archbishop's secretary at the feast",
    "I persuade the warden to release my brother",
    "I pinch the key from the dozing innkeeper's belt",
    "I push the thug off the parapet",
    "I call on the blood to calm the raging mob",
    "I scale the cliff face to the hermit's cave",
    "I search the crypt for the silver chalice",
    "I bring my axe down on the ghoul's neck",
    "I hurl a rock at the fleeing bandit",
    "I race the rival courier to the palace",
    "I tail the Lasombra through the cathedral",
    "I pick the lock on the Keeper's vault",
    "I leap the ravine to the far bank",
    "I face down the rival Toreador",
    "I throw myself clear of the falling beam",
    "I hold the hatch shut against the drowned dead",
    "I thrust my spear at the wyvern",
    "I grapple the cultist for the dagger",
    "Kell steadies the frightened oarsmen",
    "I slip the letter from the sleeping courier's satchel",
    "I raise my crossbow as the brigands rush the gate",
    "I climb the chain to the drawbridge tower",
    "I track the wolves through the snow",
    "I bargain with the peddler over the amulet",
    "I slip past the sleeping sentries",
    "I cross the flooded ford at night",
]
TWENTY_SIXTH_ACTIONS: list[str] = [
    "I jump from the breakwater onto the frigate's deck",
    "I cling to the yard as the storm breaks",
    "I row the jolly boat ahead of the squall line",
    "I pilot the yawl through the rocks at low tide",
    "I spy on the smugglers' inlet from the bluff",
    "I crouch in the hold to hear the bosun's scheme",
    "I ask the beachcomber about the ghost lights",
    "I coax the lockkeeper into opening the sluice",
    "I heave the lid off the sunken coffer",
    "I charm the margravine's page at the tournament",
    "I convince the sacristan to unlock the reliquary",
    "I lift the purse from the drowsing merchant's belt",
    "I shove the pirate off the gangplank",
    "I call on the blood to still the snarling wolves",
    "I scale the crumbling minaret to the gallery",
    "I search the chapel crypt for the lost psalter",
    "I drive my spear into the ogre's chest",
    "I fling my knife at the escaping assassin",
    "I race the bailiff's runner to the mill",
    "I shadow the Tzimisce through the tenements",
    "I pick the lock on the Harpy's strongbox",
    "I leap the crevasse to the far shelf",
    "I stare down the rival Gangrel",
    "I roll clear of the falling chandelier",
    "I hold the postern shut against the ghasts",
    "I stab at the gnoll with my dagger",
    "I wrestle the footpad for the satchel",
    "Kell steadies the panicked crew",
    "I slip the dagger from the sleeping sergeant's belt",
    "I aim my crossbow as the orcs charge the barricade",
    "I climb the creeper to the turret window",
    "I track the boar through the thicket",
    "I haggle with the chandler over the rope",
    "I sneak past the snoring watchmen",
    "I cross the fraying rope bridge in the gale",
]
# ... and a twenty-seventh (``--actions twenty_seventh``), written for stop 31's measures
TWENTY_SEVENTH_ACTIONS: list[str] = [
    "I spring from the longboat onto the carrack's deck",
    "I grip the shrouds as the squall hits",
    "I paddle the canoe ahead of the incoming storm",
    "I steer the cog through the reef at midnight",
    "I survey the slavers' harbour from the headland",
    "I lie under the jetty to hear the fence's deal",
    "I ask the old lighthouse keeper about the drowned bell",
    "I talk the ferryman into crossing after dark",
    "I wrench the shutters off the customs house window",
    "I charm the duchess's steward at the masquerade",
    "I persuade the jailer to let me see the prisoner",
    "I filch the signet from the napping clerk's finger",
    "I throw the smuggler off the pier",
    "I call on the blood to quiet the baying hounds",
    "I climb the scree slope to the shrine",
    "I search the abbey cellar for the forged deed",
    "I bury my hatchet in the troll's shoulder",
    "I shoot a bolt at the fleeing poacher",
    "I race the reeve's messenger to the ford",
    "I follow the Nosferatu through the sewers",
    "I pick the lock on the Prince's archive",
    "I jump the gap between the warehouse roofs",
    "I stare down the rival Brujah",
    "I dive clear of the collapsing scaffold",
    "I hold the cellar door against the ghouls",
    "I lunge at the kobold with my rapier",
    "I wrestle the brigand for the lantern",
    "Kell steadies the terrified passengers",
    "I slip the map from the dozing captain's coat",
    "I level my pistol as the raiders storm the deck",
    "I climb the drainpipe to the attic window",
    "I track the stag through the birchwood",
    "I haggle with the tinker over the lantern",
    "I sneak past the drowsy gate guards",
    "I cross the icy log over the torrent",
]
# ... and a twenty-eighth, the same way (stop 31's measures)
TWENTY_EIGHTH_ACTIONS: list[str] = [
    "I swing on a rope onto the privateer's deck",
    "I lash myself to the wheel as the wave comes",
    "I row the dinghy ahead of the gathering fog",
    "I sail the ketch through the sandbars at night",
    "I watch the rebels' camp from the ridge",
    "I hide behind the barrels to hear the quartermaster's deal",
    "I question the fishwife about the sea serpent",
    "I convince the bridge warden to raise the chain",
    "I prise the lid off the smuggler's chest",
    "I charm the baroness's maid at the ball",
    "I coax the archivist into opening the sealed room",
    "I lift the keys from the snoring turnkey's belt",
    "I hurl the brute over the balcony rail",
    "I call on the blood to calm the spooked horses",
    "I climb the rock chimney to the eyrie",
    "I search the ruined mill for the hidden ledger",
    "I cleave my sword into the wight's shoulder",
    "I sling a stone at the running thief",
    "I race the rival herald to the castle",
    "I trail the Ventrue through the opera house",
    "I pick the lock on the Sheriff's cabinet",
    "I leap the chasm to the old road",
    "I stare down the rival Malkavian",
    "I fling myself clear of the toppling statue",
    "I hold the gate against the skeletons",
    "I slash at the goblin with my sabre",
    "I wrestle the smuggler for the pistol",
    "Kell steadies the shaken gunners",
    "I palm the ring from the sleeping jeweller's tray",
    "I ready my sling as the goblins swarm the wall",
    "I climb the trellis to the balcony",
    "I track the bear through the pine forest",
    "I haggle with the fletcher over the arrows",
    "I slip past the dozing lookout",
    "I cross the rotten plank bridge over the gorge",
]

# ... and a twenty-ninth and a thirtieth (stop 31's later measures)
TWENTY_NINTH_ACTIONS: list[str] = [
    "I leap from the pinnace onto the galleass's deck",
    "I hang on to the rigging as the swell lifts the ship",
    "I scull the coracle ahead of the sea mist",
    "I thread the pinnace through the shoals by moonlight",
    "I observe the corsairs' anchorage from the dunes",
    "I squat behind the crates to hear the purser's bargain",
    "I ask the net-mender about the ghost ship",
    "I sweet-talk the customs officer into waving us through",
    "I lever the grate off the cistern",
    "I charm the cardinal's chamberlain at the banquet",
    "I persuade the abbess to open the library",
    "I pluck the letter from the dozing courier's pouch",
    "I shove the cultist down the stairwell",
    "I call on the blood to hush the screaming crowd",
    "I climb the goat path to the monastery",
    "I search the old watchtower for the signal book",
    "I drive my pick into the ghoul's back",
    "I hurl my javelin at the fleeing raider",
    "I race the abbot's rider to the bridge",
    "I stalk the Giovanni through the catacombs",
    "I pick the lock on the Seneschal's desk",
    "I leap the broken span of the aqueduct",
    "I stare down the rival Ventrue",
    "I throw myself clear of the falling bell",
    "I hold the trapdoor shut against the zombies",
    "I thrust my halberd at the ogre",
    "I wrestle the bandit for the torch",
    "Kell steadies the seasick recruits",
    "I filch the purse from the sleeping bosun's belt",
    "I load my musket as the pirates board the sloop",
    "I climb the wisteria to the tower window",
    "I track the wolfpack through the snowy pass",
    "I haggle with the cooper over the barrels",
    "I slip past the dozing porters",
    "I cross the swaying plank over the chasm",
]
THIRTIETH_ACTIONS: list[str] = [
    "I vault onto the sloop's deck from the wharf",
    "I cling to the bowsprit as the breaker hits",
    "I row the gig ahead of the coming squall",
    "I steer the lugger through the breakers at dusk",
    "I scout the privateers' bay from the cliffs",
    "I listen under the dock to the smugglers' plan",
    "I ask the old sailmaker about the sunken reef",
    "I talk the harbour guard into lifting the boom",
    "I heave the hatch off the flooded hold",
    "I charm the countess's herald at the tourney",
    "I convince the gaoler to loosen the chains",
    "I pinch the seal from the snoozing notary's desk",
    "I push the brigand off the battlement",
    "I call on the blood to calm the rioting dockhands",
    "I scale the rock face to the eagle's nest",
    "I search the burnt chapel for the reliquary",
    "I sink my axe into the wolf's flank",
    "I fire an arrow at the fleeing spy",
    "I race the duke's courier to the crossroads",
    "I shadow the Malkavian through the docks",
    "I pick the lock on the Primogen's chest",
    "I jump the gap in the broken bridge",
    "I stare down the rival Lasombra",
    "I roll clear of the falling barrel",
    "I hold the door shut against the wights",
    "I strike at the orc with my mace",
    "I grapple the thief for the ledger",
    "Kell steadies the shaking deckhands",
    "I lift the dagger from the dozing guard's belt",
    "I raise my crossbow as the goblins rush the gate",
    "I climb the rope to the belfry",
    "I track the lynx through the forest",
    "I haggle with the trader over the furs",
    "I sneak past the sleeping dogs",
    "I cross the slippery stones over the river",
]

# ... and a thirty-first and a thirty-second (stop 31's last measures)
THIRTY_FIRST_ACTIONS: list[str] = [
    "I drop from the yardarm onto the slaver's deck",
    "I hug the mainmast as the green water comes aboard",
    "I pole the raft ahead of the flash flood",
    "I pilot the caravel through the fogbound strait",
    "I spy on the wreckers' beach from the dunes",
    "I hide in the net loft to hear the harbour master's deal",
    "I ask the ferrywoman about the drowned village",
    "I flatter the toll keeper into raising the gate",
    "I prise the boards off the chapel window",
    "I charm the bishop's nephew at the wedding feast",
    "I persuade the steward to show me the ledgers",
    "I ease the locket from the dozing widow's neck",
    "I shove the mercenary over the well's edge",
    "I call on the blood to quiet the howling dogs",
    "I climb the chimney stack to the roof",
    "I search the smugglers' cave for the missing cargo",
    "I plunge my dagger into the ghoul's side",
    "I throw my hatchet at the fleeing cutpurse",
    "I race the baron's rider to the gate",
    "I follow the Tremere through the university",
    "I pick the lock on the Archon's chest",
    "I leap the gap to the neighbouring balcony",
    "I stare down the rival Nosferatu",
    "I dive clear of the rolling cart",
    "I hold the trapdoor against the rats",
    "I slash at the bandit with my cutlass",
    "I wrestle the pickpocket for the purse",
    "Kell steadies the trembling rowers",
    "I slip the seal from the sleeping clerk's desk",
    "I cock my pistol as the smugglers rush the boat",
    "I climb the rose trellis to the window",
    "I track the fox through the heath",
    "I haggle with the miller over the flour",
    "I creep past the snoring hounds",
    "I cross the crumbling wall walk at night",
]
THIRTY_SECOND_ACTIONS: list[str] = [
    "I jump from the jolly boat onto the barque's deck",
    "I brace on the taffrail as the sea breaks over the stern",
    "I row the longboat ahead of the waterspout",
    "I steer the brig through the reef gap at dawn",
    "I watch the mutineers' camp from the palms",
    "I crouch behind the sailcloth to hear the mate's plan",
    "I question the shipwright about the scuttled sloop",
    "I coax the lighthouse keeper into lighting the lamp",
    "I wrench the lid off the flooded crate",
    "I charm the magistrate's clerk at the salon",
    "I convince the turnkey to bring me the prisoner",
    "I lift the ledger from the napping factor's desk",
    "I push the footpad off the bridge",
    "I call on the blood to still the braying mules",
    "I scale the cliff path to the hermitage",
    "I search the drowned chapel for the bell rope",
    "I drive my mace into the skeleton's ribs",
    "I cast a spear at the running poacher",
    "I race the guild's runner to the docks",
    "I tail the Brujah through the rail yard",
    "I pick the lock on the Regent's cabinet",
    "I leap the flooded ditch to the road",
    "I stare down the rival Tzimisce",
    "I throw myself clear of the falling mast",
    "I hold the barricade against the ghouls",
    "I thrust at the goblin with my spear",
    "I wrestle the deckhand for the knife",
    "Kell steadies the frightened villagers",
    "I take the key from the dozing jailer's hook",
    "I nock an arrow as the wolves charge the fire",
    "I climb the ladder to the hayloft",
    "I track the deer through the bog",
    "I haggle with the glassblower over the lens",
    "I slip past the drowsy watchman",
    "I cross the ice of the frozen lake",
]

THIRTY_THIRD_ACTIONS: list[str] = [
    "I vault from the quay onto the departing ketch",
    "I cling to the bowsprit as the swell lifts the ship",
    "I paddle the canoe ahead of the tide race",
    "I guide the pinnace between the sandbars by starlight",
    "I observe the privateers' cove from the headland",
    "I lie under the jetty to overhear the smugglers' price",
    "I ask the old net-mender about the sunken galleon",
    "I sweet-talk the gatekeeper into opening the stockade",
    "I heave the grating off the hold",
    "I dazzle the countess's cousin at the masque",
    "I talk the archivist into fetching the sealed letters",
    "I slide the signet ring from the sleeping merchant's finger",
    "I shoulder the assassin down the stairwell",
    "I call on the blood to calm the snarling hounds",
    "I scramble up the scree to the watchtower",
    "I comb the abandoned mill for the hidden map",
    "I bring my warhammer down on the zombie's skull",
    "I hurl a javelin at the escaping spy",
    "I race the courier's horse to the bridge",
    "I shadow the Ventrue through the opera house",
    "I crack the safe in the Prince's study",
    "I jump from the rooftop to the moving carriage",
    "I stare down the Giovanni ambassador",
    "I roll aside from the swinging boom",
    "I brace the gate against the zombies",
    "I lunge at the highwayman with my sabre",
    "I grapple the smuggler for the map",
    "Kell soothes the wailing orphans",
    "I lift the purse from the sleeping sailor's belt",
    "I draw my cutlass as the raiders storm the beach",
    "I climb the ivy to the tower balcony",
    "I follow the boar's trail through the thicket",
    "I bargain with the tanner over the hides",
    "I tiptoe past the dozing gaolers",
    "I walk the slick beam above the mill wheel",
]

THIRTY_FOURTH_ACTIONS: list[str] = [
    "I swing from the shrouds onto the smugglers' lugger",
    "I grip the rail as the squall heels the schooner over",
    "I scull the dinghy ahead of the breaking surf",
    "I thread the cutter through the shoals at low water",
    "I watch the slavers' stockade from the mangroves",
    "I crouch beneath the pier to hear the fence's terms",
    "I question the harbour pilot about the missing brigantine",
    "I persuade the customs officer to wave our cargo through",
    "I force the iron lid off the powder keg",
    "I enchant the duchess's steward at the ball",
    "I coax the librarian into opening the restricted stacks",
    "I ease the dagger from the sleeping duellist's belt",
    "I barge the zealot over the parapet",
    "I call on the blood to silence the screeching ravens",
    "I clamber up the rockfall to the ruined keep",
    "I search the flooded crypt for the bone reliquary",
    "I cleave the ghast's neck with my greataxe",
    "I fling a dagger at the fleeing informant",
    "I race the ferryman to the far bank",
    "I trail the Malkavian through the night market",
    "I pick the lock on the Seneschal's strongroom",
    "I leap the gap between the warehouse roofs",
    "I stare down the rival Ravnos",
    "I duck the swinging chandelier",
    "I hold the hatch against the drowned men",
    "I strike at the brigand captain with my cutlass",
    "I wrestle the highwayman for the lantern",
    "Kell reassures the terrified deckhands",
    "I lift the key ring from the snoring turnkey's belt",
    "I prime my pistol as the cutthroats board",
    "I climb the belfry ladder to the bells",
    "I follow the stag's tracks through the frost",
    "I haggle with the chandler over the lamp oil",
    "I creep past the slumbering mastiffs",
    "I edge along the rotten gantry over the vat",
]

THIRTY_FIFTH_ACTIONS: list[str] = [
    "I jump from the pier onto the fishing smack's deck",
    "I lash myself to the wheel as the wave breaks over us",
    "I pull the skiff clear of the capsizing hulk",
    "I pilot the sloop past the reef in the squall",
    "I spy on the wreckers' bonfire from the rocks",
    "I hide in the sail locker to overhear the captain's orders",
    "I ask the beachcomber about the drowned sailors",
    "I sweet-talk the bosun into lending us the longboat",
    "I prise the hatch cover off the sunken lifeboat",
    "I beguile the cardinal's secretary at the banquet",
    "I persuade the gaoler to show me the prison register",
    "I slip the letter from the dozing courier's satchel",
    "I shove the cutthroat off the quay",
    "I call on the blood to calm the stampeding cattle",
    "I scale the crumbling aqueduct to the hilltop",
    "I search the collapsed chapel for the silver censer",
    "I drive my spear into the wight's chest",
    "I loose a crossbow bolt at the fleeing assassin",
    "I race the miller's son to the church door",
    "I follow the Toreador through the art gallery",
    "I pick the lock on the Sheriff's strongbox",
    "I vault the fence into the cemetery at a run",
    "I stare down the rival Setite",
    "I throw myself aside from the charging bull",
    "I hold the portcullis winch against the ogre",
    "I thrust my rapier at the masked duellist",
    "I wrestle the poacher for the crossbow",
    "Kell soothes the weeping refugees",
    "I take the seal from the sleeping bishop's desk",
    "I load my musket as the raiders row ashore",
    "I climb the mast to the crow's nest",
    "I track the wildcat through the scrubland",
    "I haggle with the saddler over the bridle",
    "I sneak past the sleeping grooms",
    "I cross the swaying rope bridge in the wind",
]

THIRTY_SIXTH_ACTIONS: list[str] = [
    "I leap from the harbour wall onto the departing galley",
    "I hang on to the shrouds as the ship rolls in the swell",
    "I row the gig ahead of the rising storm",
    "I steer the ketch through the channel in thick fog",
    "I watch the pirates' careening beach from the cliffs",
    "I lie in the bilge to hear the mutineers' plan",
    "I question the tavern keeper about the vanished crew",
    "I talk the quartermaster into sparing the powder",
    "I lever the shutters off the smugglers' warehouse",
    "I charm the baroness's chamberlain at the recital",
    "I convince the abbess to open the reliquary",
    "I lift the amulet from the sleeping priest's neck",
    "I push the brigand off the rooftop",
    "I call on the blood to hush the howling wolves",
    "I clamber up the ruined tower to the beacon",
    "I search the burnt library for the lost codex",
    "I bring my mace down on the skeleton's skull",
    "I hurl my hand axe at the fleeing cultist",
    "I race the reeve's horse to the mill bridge",
    "I tail the Nosferatu through the catacombs",
    "I pick the lock on the Primogen's strongbox",
    "I jump the gap to the speeding train",
    "I stare down the rival Lasombra elder",
    "I fling myself clear of the toppling crane",
    "I hold the chapel door against the revenants",
    "I lunge at the cult leader with my sabre",
    "I wrestle the sailor for the spyglass",
    "Kell calms the frightened children",
    "I slip the ring from the sleeping jeweller's finger",
    "I draw my pistol as the boarders swing across",
    "I climb the ship's rigging to the top yard",
    "I track the bear through the pine forest at dusk",
    "I haggle with the ropemaker over the cable",
    "I creep past the snoring watchmen at the gate",
    "I walk the narrow ledge above the waterfall",
]

THIRTY_SEVENTH_ACTIONS: list[str] = [
    "I spring from the quay onto the moving barge",
    "I cling to the bowsprit as the wave breaks over us",
    "I paddle the canoe across the bay before the squall",
    "I pilot the cutter between the sandbars at night",
    "I spy on the slavers' stockade from the mangroves",
    "I crouch under the gangplank to hear the bosun's deal",
    "I ask the net mender about the drowned pilot",
    "I coax the harbour clerk into losing the manifest",
    "I crowbar the planks off the boarded cellar door",
    "I flatter the duke's steward at the masque",
    "I persuade the archivist to unseal the crypt records",
    "I filch the seal from the dozing notary's desk",
    "I shove the zealot through the rotten railing",
    "I call on the blood to quiet the braying mules",
    "I scramble up the scree to the shepherd's hut",
    "I rummage through the abbey cellar for the missing chalice",
    "I bring my hammer down on the ghoul's shoulder",
    "I throw my spear at the charging boar",
    "I race the mayor's runner to the town gate",
    "I follow the Tremere through the opera house",
    "I crack the safe in the Sheriff's office",
    "I leap the gap between the collapsing scaffolds",
    "I stare down the Brujah enforcer at the door",
    "I throw myself aside from the rolling barrel",
    "I brace the barn door against the ghouls",
    "I thrust my spear at the ogre's belly",
    "I grapple the smuggler for the lantern",
    "Kell reassures the panicking passengers",
    "I palm the signet from the merchant's table",
    "I level my musket as the raiders charge the gate",
    "I climb the abbey's crumbling wall",
    "I follow the deer's trail across the moor",
    "I bargain with the fishmonger over the eels",
    "I steal past the dozing sentries at the postern",
    "I inch along the icy parapet",
]

THIRTY_EIGHTH_ACTIONS: list[str] = [
    "I vault from the breakwater onto the passing ketch",
    "I hold fast to the ratlines as the galleon lurches",
    "I scull the jolly boat past the rip before it turns",
    "I guide the pinnace through the wreck field in the fog",
    "I observe the privateers' camp from the headland",
    "I lie among the cargo nets to hear the purser's bargain",
    "I quiz the ferry keeper about the vanished pilgrims",
    "I persuade the harbour warden to lend us his lantern",
    "I jimmy the shutter off the chandler's back window",
    "I entrance the magistrate's clerk at the salon",
    "I talk the sexton into unlocking the bell tower",
    "I lift the ledger from the sleeping factor's lap",
    "I hurl the cultist down the cellar stairs",
    "I call on the blood to calm the snarling dogs",
    "I haul myself up the sea cliff to the lighthouse",
    "I hunt through the flooded storeroom for the lost key",
    "I smash my flail into the zombie's ribs",
    "I shoot a sling bullet at the fleeing poacher",
    "I race the courier's mule to the ford",
    "I shadow the Gangrel through the city park",
    "I force the lock on the Prince's reliquary",
    "I jump from the bell tower to the chapel roof",
    "I stare down the Ventrue's ghoul at the gate",
    "I dive clear of the collapsing hayloft",
    "I hold the crypt door against the skeletons",
    "I swing my mace at the troll's knee",
    "I wrestle the bandit for the strongbox",
    "Kell comforts the shivering castaways",
    "I pinch the key from the gaoler's hook",
    "I cock my flintlock as the pirates clamber aboard",
    "I climb the ivy to the countess's balcony",
    "I trail the wolf through the snowy woods",
    "I dicker with the cooper over the barrels",
    "I tiptoe past the drowsing guard dogs",
    "I shuffle along the slick roof ridge",
]

THIRTY_NINTH_ACTIONS: list[str] = [
    "I spring from the quay onto the departing sloop",
    "I cling to the bowsprit as the brig pitches",
    "I row for the sandbar before the fog closes in",
    "I steer the skiff between the shoals to dodge the frigate",
    "I spy on the smugglers' cove from the salt marsh",
    "I crouch in the reeds to overhear the mutineers",
    "I press the old net-mender about the sunken chapel",
    "I coax the lock keeper into opening the sluice for us",
    "I prise the nailed crate open with my dagger",
    "I enthral the bishop's steward at the masque",
    "I sweet-talk the archivist into opening the sealed stacks",
    "I take the seal from the dozing notary's desk",
    "I throw the brigand through the tavern window",
    "I call on the blood to quiet the screaming horses",
    "I scale the quarry face to the hermit's cave",
    "I rummage through the wrecked cart for the healer's satchel",
    "I drive my spear into the ogre's side",
    "I hurl a hatchet at the charging boar",
    "I race the miller's daughter to the mill gate",
    "I tail the Nosferatu through the subway tunnels",
    "I break into the Tremere chantry's vault",
    "I leap from the fire escape to the next building",
    "I face down the Sheriff's hound in the alley",
    "I throw myself aside from the rolling barrels",
    "I brace the barricade against the ghouls",
    "I bring my warhammer down on the golem's arm",
    "I grapple the smuggler for the signal lamp",
    "Kell calms the seasick passengers",
    "I filch the purse from the bosun's belt",
    "I ready my pistol as the raiders storm the quay",
    "I climb the rope ladder to the lighthouse gallery",
    "I follow the stag's trail through the pine forest",
    "I bargain with the fishwife over the eels",
    "I steal past the drowsy gate wardens",
    "I edge across the frozen beam",
]

FORTIETH_ACTIONS: list[str] = [
    "I jump from the pier onto the moving barge",
    "I grip the anchor cable as the ketch heels over",
    "I paddle for the lighthouse rock before the squall",
    "I thread the longboat through the rocks to lose the revenue cutter",
    "I survey the slavers' stockade from the mangroves",
    "I lurk behind the rum casks to hear the smugglers' deal",
    "I grill the drunken cooper about the ghost lights",
    "I talk the dockmaster into waiving our mooring fee",
    "I lever the rusted grate out of the culvert",
    "I captivate the duchess's chamberlain at the ball",
    "I flatter the librarian into lending me the forbidden tome",
    "I palm the brooch from the sleeping widow's nightstand",
    "I hurl the cutpurse into the fountain",
    "I call on the blood to silence the barking mastiffs",
    "I clamber up the ruined aqueduct to the shrine",
    "I dig through the collapsed cellar for the lost amulet",
    "I plunge my dagger into the ghoul's back",
    "I fling a javelin at the fleeing wolf",
    "I race the tinker's apprentice to the well",
    "I trail the Lasombra through the cathedral crypts",
    "I pry open the Giovanni's mausoleum door",
    "I vault from the balcony to the carriage roof",
    "I outstare the Brujah enforcer in the bar",
    "I roll clear of the toppling statue",
    "I bar the gate against the wights",
    "I smash my club into the ogre's jaw",
    "I tussle with the deckhand for the spyglass",
    "Kell reassures the weeping cabin boy",
    "I snatch the keys from the drowsing jailer's belt",
    "I prime my blunderbuss as the corsairs board",
    "I scramble up the crumbling chimney to the rooftop",
    "I track the bear through the birch wood",
    "I barter with the tanner over the hides",
    "I steal past the slumbering ogres",
    "I creep along the mossy gutter",
]

FORTY_FIRST_ACTIONS: list[str] = [
    "I hop from the jetty onto the drifting raft",
    "I hang from the yardarm as the galleon rolls",
    "I swim for the buoy before the current turns",
    "I guide the pinnace through the kelp to shake off the pirate sloop",
    "I scout the bandits' camp from the ridge line",
    "I hide under the pier to eavesdrop on the harbour guards",
    "I quiz the old lamplighter about the drowned bell",
    "I persuade the toll keeper to let our wagon through free",
    "I wrench the iron shutter off the counting house window",
    "I dazzle the countess's herald at the banquet",
    "I cajole the sexton into showing me the sealed crypt",
    "I lift the signet ring from the snoring magistrate's hand",
    "I heave the drunkard over the bar counter",
    "I call on the blood to hush the howling hounds",
    "I climb the frozen waterfall to the eagle's nest",
    "I search the flooded library for the captain's log",
    "I bury my hatchet in the troll's thigh",
    "I throw a spear at the bolting stag",
    "I race the ferryman's son to the boathouse",
    "I stalk the Malkavian through the asylum halls",
    "I force the Ventrue's strongroom door",
    "I swing from the chandelier to the gallery",
    "I stare down the Gangrel pack leader at the docks",
    "I dive clear of the runaway cart",
    "I wedge the door shut against the zombies",
    "I drive my mace into the knight's helm",
    "I wrestle the sailor for the treasure map",
    "Kell comforts the frightened stowaway",
    "I slip the dagger from the napping sentry's sheath",
    "I load my musket as the buccaneers swarm aboard",
    "I shin up the drainpipe to the attic window",
    "I follow the boar's tracks through the oak forest",
    "I haggle with the weaver over the bolts of silk",
    "I sneak past the sleeping trolls",
    "I edge along the ice-glazed battlement",
]

FORTY_SECOND_ACTIONS: list[str] = [
    "I bound from the wharf onto the passing lighter",
    "I clutch the ratlines as the schooner lurches",
    "I wade for the causeway before the flood tide",
    "I weave the dinghy through the moored hulks to escape the press gang",
    "I observe the wreckers' lanterns from the headland",
    "I crouch in the chapel loft to hear the smugglers' prayers",
    "I interrogate the one-eyed ferryman about the lost pilgrims",
    "I wheedle the river warden into lifting the chain for us",
    "I prise the iron bars from the cellar window",
    "I bewitch the margrave's steward at the feast",
    "I sweet-talk the bookbinder into showing me the hidden ledger",
    "I pinch the silver locket from the dozing abbess's table",
    "I shove the brawler down the tavern stairs",
    "I call on the blood to quell the braying mules",
    "I climb the bell rope to the belfry",
    "I hunt through the burned granary for the miller's strongbox",
    "I ram my pike into the ghast's belly",
    "I sling a stone at the fleeing hare",
    "I race the cooper's daughter to the harbour steps",
    "I shadow the Toreador through the opera house",
    "I break open the Nosferatu's sewer grate",
    "I leap from the bell tower to the chapel roof",
    "I stare down the Sabbat priest in the chapel",
    "I tumble clear of the collapsing scaffold",
    "I hold the trapdoor shut against the ghouls",
    "I slam my shield into the brigand's face",
    "I scuffle with the pickpocket for my coin purse",
    "Kell soothes the trembling novice",
    "I ease the purse from the drowsing merchant's belt",
    "I cock my pistol as the highwaymen close in",
    "I scale the ivy-covered wall to the tower window",
    "I trail the elk through the misty valley",
    "I dicker with the spice seller over the saffron",
    "I slip past the snoring bandits",
    "I tiptoe along the rotten rafter",
]

FORTY_THIRD_ACTIONS: list[str] = [
    "I hurl myself from the quay onto the drifting barge",
    "I grip the gunwale as the longboat pitches in the surf",
    "I paddle for the sandbar before the squall hits",
    "I steer the skiff through the reed beds to lose the revenue cutter",
    "I survey the slavers' stockade from the treeline",
    "I lurk behind the tavern's ale casks to catch the mercenaries' plans",
    "I question the blind net-mender about the vanished fleet",
    "I coax the bridge keeper into lowering the drawbridge for us",
    "I lever the rusted grate off the storm drain",
    "I enchant the duke's cupbearer at the masque",
    "I talk the archivist into opening the forbidden stacks",
    "I filch the brass key from the slumbering jailer's hook",
    "I hurl the thug through the shop window",
    "I call on the blood to silence the cawing crows",
    "I scramble up the scree slope to the shepherd's hut",
    "I rummage through the ruined chapel for the bishop's reliquary",
    "I plunge my dagger into the wraith's side",
    "I fire an arrow at the fleeing deer",
    "I race the smith's apprentice to the market cross",
    "I tail the Tremere through the cathedral crypts",
    "I pry open the Giovanni's mausoleum gate",
    "I vault from the granary roof to the mill loft",
    "I face down the Brujah gang leader in the alley",
    "I fling myself out from under the sliding hay cart",
    "I brace the cellar door against the ghasts",
    "I smash my cudgel into the cutthroat's knee",
    "I grapple the smuggler for the cargo manifest",
    "Kell calms the sobbing apprentice",
    "I lift the ledger from the dozing clerk's desk",
    "I prime my blunderbuss as the raiders charge the gate",
    "I clamber up the trellis to the balcony",
    "I follow the wolf's spoor through the pine forest",
    "I bargain with the potter over the glazed urns",
    "I slink past the nodding night porters",
    "I inch along the slick sea cliff path",
]

FORTY_FOURTH_ACTIONS: list[str] = [
    "I spring from the pier onto the slowing ferry",
    "I lash myself to the mast as the cog heels over",
    "I row for the lighthouse rock before the fog closes in",
    "I slip the wherry between the moored barges to lose the harbour patrol",
    "I scan the raiders' beached longships from the dune grass",
    "I hide beneath the counting table to overhear the guild masters",
    "I press the deaf bell-ringer about the midnight visitors",
    "I persuade the lock keeper to open the sluice for our barge",
    "I wrench the bolted hatch off the bilge",
    "I beguile the baroness's falconer at the hunt",
    "I sweet-talk the chandler into selling me the stolen lantern",
    "I pluck the silver whistle from the snoozing boatswain's neck",
    "I throw the footpad into the horse trough",
    "I call on the blood to still the thrashing eels",
    "I haul myself up the anchor chain to the forecastle",
    "I dig through the collapsed mine shaft for the foreman's ledger",
    "I drive my boar spear into the ghoul's ribs",
    "I hurl a javelin at the bolting boar",
    "I race the tanner's boy to the ferry landing",
    "I trail the Lasombra through the flooded catacombs",
    "I kick in the Ravnos's warehouse door",
    "I leap from the hayloft to the stable roof",
    "I stare down the Ventrue's ghoul bodyguard in the foyer",
    "I dive away from the toppling bookcase",
    "I shoulder the boathouse door closed against the drowned sailors",
    "I crack my staff across the bandit's wrist",
    "I wrestle the poacher for the brace of pheasants",
    "Kell settles the skittish foal",
    "I slide the coin pouch from the napping tollman's lap",
    "I nock an arrow as the wolves circle the camp",
    "I shin up the ship's rigging to the crow's nest",
    "I stalk the stag's trail through the birch coppice",
    "I dicker with the tinker over the copper kettle",
    "I sneak past the drowsing sentries at the postern",
    "I teeter along the slippery mill weir",
]

FORTY_FIFTH_ACTIONS: list[str] = [
    "I jump from the seawall onto the swaying fishing smack",
    "I cling to the bowline as the ketch broaches",
    "I wade across the ford before the dam breaks",
    "I thread the punt through the sunken pilings to shake off the excise men",
    "I spy on the corsairs' anchorage from the clifftop",
    "I crouch in the hay wain to eavesdrop on the drovers",
    "I quiz the half-drowned fisherman about the sea serpent",
    "I talk the gate sergeant into letting our cart through after curfew",
    "I heave the stone lid off the sarcophagus",
    "I charm the viscount's huntsman at the lodge",
    "I coax the scrivener into showing me the sealed will",
    "I lift the ring of keys from the drowsing gaoler's belt",
    "I fling the ruffian off the bridge into the canal",
    "I call on the blood to hush the barking dogs",
    "I clamber up the broken aqueduct to the watch post",
    "I search the flooded crypt for the abbot's seal",
    "I sink my war pick into the draugr's shoulder",
    "I loose a crossbow bolt at the fleeing bandit",
    "I race the cartwright's son to the well",
    "I follow the Nosferatu through the rat-infested tunnels",
    "I batter down the Tzimisce's cellar door",
    "I jump from the mill wheel to the granary ledge",
    "I stare down the Brujah bruiser at the bar",
    "I dive clear of the crashing chandelier",
    "I hold the drawbridge winch against the goblins",
    "I bring my flail down on the cultist's shoulder",
    "I wrestle the bandit for the stolen chalice",
    "Kell soothes the bleating goats",
    "I palm the wax seal from the sleeping notary's desk",
    "I ready my sling as the wolves close in",
    "I climb the castle's ivy to the chapel window",
    "I track the lynx through the snowy pines",
    "I haggle with the fishwife over the herring",
    "I creep past the sleeping hounds in the kennel yard",
    "I balance along the rotten jetty beam",
]

FORTY_SIXTH_ACTIONS: list[str] = [
    "I leap from the breakwater onto the listing coal barge",
    "I brace against the capstan as the brig rolls in the swell",
    "I swim for the buoy before the riptide drags me out",
    "I weave the sloop through the fog banks to lose the privateer",
    "I watch the slavers' caravan from the ridge of the dunes",
    "I lie under the wagon bed to listen to the muleteers",
    "I ask the one-eyed ferryman about the drowned village",
    "I convince the harbourmaster to let our ketch berth after dark",
    "I prise the iron shutter off the warehouse window",
    "I dazzle the margrave's steward at the harvest ball",
    "I wheedle the librarian into lending me the heretic's codex",
    "I tease the signet ring from the dozing alderman's finger",
    "I shove the brigand over the parapet into the moat",
    "I call on the blood to quiet the squealing pigs",
    "I scale the crumbling bell tower to the belfry",
    "I hunt through the burnt abbey for the prior's chalice",
    "I hammer my mace into the barrow-wight's helm",
    "I throw a hand axe at the escaping poacher",
    "I race the miller's daughter to the stone bridge",
    "I shadow the Malkavian through the derelict asylum",
    "I force the Toreador's gallery shutters",
    "I jump from the chapel roof to the bell house gable",
    "I stare down the Gangrel pack leader at the crossroads",
    "I roll clear of the falling portcullis",
    "I bar the crypt gate against the ghouls",
    "I slash my rapier across the duellist's forearm",
    "I wrestle the deserter for the regimental colours",
    "Kell quiets the frightened child",
    "I slip the map case from the snoring purser's bunk",
    "I cock my pistol as the boarders swarm the rail",
    "I climb the monastery's buttress to the bell window",
    "I follow the boar's tracks through the oak wood",
    "I barter with the spice seller over the saffron",
    "I sidle past the dozing turnkeys in the guardroom",
    "I edge along the icy castle ledge",
]

FORTY_SEVENTH_ACTIONS: list[str] = [
    "I hop from the wharf onto the drifting lighter",
    "I hang on to the shrouds as the pinnace lurches in the chop",
    "I pole the raft to the islet before the current takes it",
    "I run the cutter through the kelp beds to lose the customs sloop",
    "I observe the pirates' careening beach from the palm grove",
    "I squat behind the rope coils to overhear the bosun and the mate",
    "I pump the tipsy lighthouse keeper for news of the wreckers",
    "I sway the port warden into waiving our anchorage fee",
    "I wrench the barred gate off the sluice tunnel",
    "I bewitch the countess's chamberlain at the opera",
    "I flatter the sexton into unlocking the ossuary",
    "I snip the purse strings of the nodding pardoner",
    "I hurl the pickpocket down the cellar stairs",
    "I call on the blood to calm the braying donkeys",
    "I shinny up the ruined windmill to the cap",
    "I comb the gutted manor for the widow's deed box",
    "I bury my hatchet in the ogre's thigh",
    "I let fly a dart at the fleeing cutpurse",
    "I race the farrier's lad to the toll gate",
    "I stalk the Lasombra through the sunken chapel",
    "I shoulder open the Ventrue's strongroom door",
    "I spring from the tannery roof to the dyer's balcony",
    "I outstare the Tremere regent in the library",
    "I fling myself flat as the loose boom swings across",
    "I jam the mill door shut against the zombies",
    "I bring my quarterstaff down on the thief's collarbone",
    "I grapple the highwayman for the saddlebag",
    "Kell gentles the bolting mare",
    "I tease the key from the sleeping cook's apron",
    "I prime my musket as the pirates storm the beach",
    "I scramble up the lighthouse's iron ladder to the lamp room",
    "I trail the elk through the frozen fen",
    "I wrangle with the ropemaker over the hawser",
    "I pad past the slumbering watchdogs in the courtyard",
    "I shuffle along the crumbling parapet walk",
]

FORTY_EIGHTH_ACTIONS: list[str] = [
    "I bound from the jetty onto the passing wherry",
    "I clutch the bowsprit as the schooner buries her nose in a wave",
    "I wade for the sandspit before the tide covers it",
    "I slip the ketch behind the headland to lose the slaver",
    "I scout the smugglers' cove from the cliff path",
    "I huddle behind the fish barrels to hear the harbour thieves",
    "I grill the toothless oysterman about the ghost ship",
    "I persuade the ferry warden to carry our mules across for free",
    "I tear the rotten planks off the boarded well",
    "I enthral the bishop's secretary at the vespers feast",
    "I cajole the jailer's wife into lending me her keys",
    "I pilfer the ledger from the dozing factor's lap",
    "I toss the bravo over the balustrade into the fountain",
    "I call on the blood to still the howling wolves",
    "I clamber up the cathedral's gargoyles to the rose window",
    "I ransack the flooded cellar for the vintner's strongbox",
    "I thrust my glaive into the wight's chest",
    "I loose a sling stone at the fleeing pickpocket",
    "I race the cooper's apprentice to the market well",
    "I follow the Brujah through the burning tenements",
    "I kick open the Nosferatu's sewer grate",
    "I leap from the belfry to the almshouse roof",
    "I stare down the Ventrue prince's sheriff in the ballroom",
    "I duck under the swinging cargo net",
    "I brace the lych-gate against the restless dead",
    "I hack my hand axe into the brigand's shoulder",
    "I wrestle the footpad for the stolen locket",
    "Kell soothes the panicking mule",
    "I lift the silver snuffbox from the sleeping magistrate's waistcoat",
    "I load my arquebus as the bandits rush the barricade",
    "I climb the lighthouse's outer stair to the gallery",
    "I track the wild boar through the beech hanger",
    "I bicker with the cheesemonger over the wheel of cheddar",
    "I creep past the drowsing gate wardens at the barbican",
    "I tiptoe along the slick harbour mole",
]

OTHER_WORDS = {
    "other": OTHER_ACTIONS,
    "third": THIRD_ACTIONS,
    "fourth": FOURTH_ACTIONS,
    "fifth": FIFTH_ACTIONS,
    "sixth": SIXTH_ACTIONS,
    "seventh": SEVENTH_ACTIONS,
    "eighth": EIGHTH_ACTIONS,
    "ninth": NINTH_ACTIONS,
    "tenth": TENTH_ACTIONS,
    "eleventh": ELEVENTH_ACTIONS,
    "twelfth": TWELFTH_ACTIONS,
    "thirteenth": THIRTEENTH_ACTIONS,
    "fourteenth": FOURTEENTH_ACTIONS,
    "fifteenth": FIFTEENTH_ACTIONS,
    "sixteenth": SIXTEENTH_ACTIONS,
    "seventeenth": SEVENTEENTH_ACTIONS,
    "eighteenth": EIGHTEENTH_ACTIONS,
    "nineteenth": NINETEENTH_ACTIONS,
    "twentieth": TWENTIETH_ACTIONS,
    "twenty_first": TWENTY_FIRST_ACTIONS,
    "twenty_second": TWENTY_SECOND_ACTIONS,
    "twenty_third": TWENTY_THIRD_ACTIONS,
    "twenty_fourth": TWENTY_FOURTH_ACTIONS,
    "twenty_fifth": TWENTY_FIFTH_ACTIONS,
    "twenty_sixth": TWENTY_SIXTH_ACTIONS,
    "twenty_seventh": TWENTY_SEVENTH_ACTIONS,
    "twenty_eighth": TWENTY_EIGHTH_ACTIONS,
    "twenty_ninth": TWENTY_NINTH_ACTIONS,
    "thirtieth": THIRTIETH_ACTIONS,
    "thirty_first": THIRTY_FIRST_ACTIONS,
    "thirty_second": THIRTY_SECOND_ACTIONS,
    "thirty_third": THIRTY_THIRD_ACTIONS,
    "thirty_fourth": THIRTY_FOURTH_ACTIONS,
    "thirty_fifth": THIRTY_FIFTH_ACTIONS,
    "thirty_sixth": THIRTY_SIXTH_ACTIONS,
    "thirty_seventh": THIRTY_SEVENTH_ACTIONS,
    "thirty_eighth": THIRTY_EIGHTH_ACTIONS,
    "thirty_ninth": THIRTY_NINTH_ACTIONS,
    "fortieth": FORTIETH_ACTIONS,
    "forty_first": FORTY_FIRST_ACTIONS,
    "forty_second": FORTY_SECOND_ACTIONS,
    "forty_third": FORTY_THIRD_ACTIONS,
    "forty_fourth": FORTY_FOURTH_ACTIONS,
    "forty_fifth": FORTY_FIFTH_ACTIONS,
    "forty_sixth": FORTY_SIXTH_ACTIONS,
    "forty_seventh": FORTY_SEVENTH_ACTIONS,
    "forty_eighth": FORTY_EIGHTH_ACTIONS,
}
# every set of words tells the corpus's rolls slot for slot
assert all(len(words) == len(NARRATE) for words in OTHER_WORDS.values()), "a set's length"

SPARKS: list[dict[str, Any]] = [
    {"system": "sundered_isles", "table": "pay_the_price", "situation": "Kell failed to slip past the patrol", "character": "Kell", "seed": 1},
    {"system": "sundered_isles", "table": "make_a_discovery", "situation": "Kell explores a sunken temple", "character": "Kell", "seed": 2},
    {"system": "sundered_isles", "table": "begin_a_session", "situation": "a new session opens in port", "seed": 3},
    {"system": "elegy", "table": "pay_the_price", "situation": "the hunter is closing in", "seed": 4},
    {"system": "go_forth", "table": "severity", "situation": "a rockslide strikes the party", "seed": 5},
    {"system": "storyteller", "table": "degree_of_success", "situation": "tailing a ghoul", "seed": 6},
]  # fmt: skip

# (system, question, whether the texts answer it)
RULES: list[tuple[str, str, bool]] = [
    ("sundered_isles", "What happens on a weak hit when I Face Danger?", True),
    ("sundered_isles", "How do I burn momentum?", True),
    ("sundered_isles", "When do I make a progress roll?", True),
    ("elegy", "What does a match mean on an action roll?", True),
    ("go_forth", "What happens when I graze with an Effort roll?", True),
    ("roll_under", "How does advantage work on a save?", True),
    ("sundered_isles", "How much does a laser rifle cost in credits?", False),
    ("storyteller", "What are the rules for flying a starship?", False),
]  # fmt: skip

SESSIONS: list[dict[str, Any]] = [
    {
        "system": "sundered_isles",
        "sheet": {"name": CHAR, "stats": {"edge": 2, "heart": 2, "iron": 3, "shadow": 1, "wits": 1}},
        "turns": [
            {"words": "I sneak aboard the moored galleon", "move": "face_danger", "params": {"stat": "shadow"}, "seed": 4},
            {"words": "I look around the hold for the stolen charts", "move": "gather_information", "params": {"stat": "wits"}, "seed": 7},
            {"words": "I try to sweet-talk the quartermaster into letting me go", "seed": 11},
            {"words": "I cut the mooring lines and let the galleon drift", "seed": 12},
        ],
    },
    {
        "system": "go_forth",
        "sheet": {"name": "Ash", "attributes": {"might": 3, "agility": 2}},
        "turns": [
            {"words": "I force the shrine's stone door", "kind": "check", "params": {"attribute": "might", "tn": 12}, "seed": 2},
            {"words": "I climb the broken stair to the bell tower", "seed": 5},
            {"words": "I attack the skeleton guarding the reliquary", "seed": 8},
            {"words": "I sprint across the collapsing bridge", "seed": 9},
        ],
    },
]  # fmt: skip

NOT_COVERED_WORDS = ("not covered", "not in these rules", "do not cover", "don't cover")


# --- the recording model -----------------------------------------------------------------------


class Recorder:
    """Wraps the service's model: every reply (each attempt, rejected or not) is kept, in order,
    until the next request takes them."""

    def __init__(self, inner: ChatModel) -> None:
        self.inner = inner
        self.name = inner.name
        self.attempts: list[dict[str, Any]] = []

    def take(self) -> list[dict[str, Any]]:
        out, self.attempts = self.attempts, []
        return out

    def _keep(self, prompt: RenderedPrompt, text: str, mode: str, t0: float, error: str) -> None:
        self.attempts.append(
            {
                "mode": mode,
                "system_prompt": prompt.system,
                "user_prompt": prompt.user,
                "raw": text,
                "error": error,
                "seconds": round(time.monotonic() - t0, 1),
            }
        )

    async def complete(
        self,
        prompt: RenderedPrompt,
        calls: Calls,
        *,
        json_reply: bool = False,
        schema: dict[str, Any] | None = None,
        grammar: str | None = None,
    ) -> str:
        t0 = time.monotonic()
        try:
            text = await self.inner.complete(
                prompt, calls, json_reply=json_reply, schema=schema, grammar=grammar
            )
        except Exception as exc:
            self._keep(prompt, "", "json" if json_reply else "complete", t0, repr(exc))
            raise
        self._keep(prompt, text, "json" if json_reply else "complete", t0, "")
        return text

    async def stream(
        self, prompt: RenderedPrompt, calls: Calls, *, grammar: str | None = None
    ) -> AsyncIterator[str]:
        t0 = time.monotonic()
        text = ""
        try:
            async for delta in self.inner.stream(prompt, calls, grammar=grammar):
                text += delta
                yield delta
        except Exception as exc:
            self._keep(prompt, text, "stream", t0, repr(exc))
            raise
        self._keep(prompt, text, "stream", t0, "")


# --- the run -----------------------------------------------------------------------------------


class Run:
    def __init__(self, client: httpx.Client, recorder: Recorder, out: Path) -> None:
        self.client = client
        self.recorder = recorder
        self.out = out
        self.records: list[dict[str, Any]] = []
        self.narrate_from = 0
        self.other_actions = ""

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any, float]:
        t0 = time.monotonic()
        r = self.client.post(path, json=body)
        try:
            data = r.json()
        except ValueError:
            data = {"raw": r.text}
        return r.status_code, data, time.monotonic() - t0

    def keep(self, record: dict[str, Any]) -> None:
        record["attempts"] = self.recorder.take()
        self.records.append(record)
        with self.out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
        shown = (record.get("shown") or "").replace("\n", " ")
        print(
            f"[{len(self.records):3}] {record['id']:<34} {record.get('narrator') or '-':<8} "
            f"{record.get('seconds', 0):6.1f}s  {shown[:90]}",
            flush=True,
        )


def _narrated(record: dict[str, Any], data: dict[str, Any]) -> None:
    narrated = data.get("narrated") or {}
    guard = narrated.get("guard") or {}
    record.update(
        narrator=narrated.get("narrator"),
        reason=narrated.get("reason"),
        calls=narrated.get("calls"),
        rejected=narrated.get("rejected", []),
        guard_failed=guard.get("failed", []),
    )


def _expectation_facts(resolution: dict[str, Any] | None) -> dict[str, Any]:
    if not resolution:
        return {}
    return {
        "system": resolution.get("system"),
        "kind": resolution.get("kind"),
        "outcome": resolution.get("outcome"),
        "match": resolution.get("match"),
        "changes": resolution.get("changes", []),
        "dice": [d.get("value") for d in resolution.get("dice", [])],
        "seed": resolution.get("seed"),
        "details": resolution.get("details", {}),
        "params": resolution.get("params", {}),
    }


def find_seed(
    client: httpx.Client, system: str, kind: str, params: dict[str, Any], outcome: str,
    match: bool | None,
) -> dict[str, Any]:  # fmt: skip
    """The first seed whose roll gives the outcome (and match) wanted: fixed, since the engine is
    deterministic."""
    for seed in range(2000):
        r = client.post(
            "/v1/rolls", json={"system": system, "kind": kind, "params": params, "seed": seed}
        )
        if r.status_code != 200:
            raise SystemExit(f"{system} {kind} {params}: {r.status_code} {r.text[:300]}")
        res = r.json()
        if res["outcome"] == outcome and (match is None or bool(res.get("match")) == match):
            return dict(res)
    raise SystemExit(f"no seed gives {system} {kind} {outcome} match={match}")


def run_oracle(run: Run) -> None:
    for i, body in enumerate(ORACLE):
        status, data, secs = run.post("/v1/oracle", {**body, "context": f"{CHAR} at sea"})
        record = {"id": f"oracle-{i:02}-{body['system']}", "category": "oracle", "request": body,
                  "status": status, "seconds": round(secs, 1), "shown": data.get("narration"),
                  "facts": _expectation_facts(data.get("resolution")), "character": None}  # fmt: skip
        _narrated(record, data)
        run.keep(record)


def run_narrate(run: Run) -> None:
    for i, (system, kind, params, outcome, match, action) in enumerate(NARRATE):
        if i < run.narrate_from:
            continue
        if run.other_actions:
            action = OTHER_WORDS[run.other_actions][i]
        resolution = find_seed(run.client, system, kind, params, outcome, match)
        body = {"resolution": resolution, "action": action, "character": CHAR}
        status, data, secs = run.post("/v1/narrate", body)
        other = f"{run.other_actions}-" if run.other_actions else ""
        record = {"id": f"narrate-{other}{i:02}-{system}-{outcome}{'-match' if match else ''}",
                  "category": "narrate", "request": {"action": action, "kind": kind,
                  "params": params, "seed": resolution.get("seed")}, "status": status,
                  "seconds": round(secs, 1), "shown": data.get("narration"),
                  "facts": _expectation_facts(resolution), "character": CHAR}  # fmt: skip
        _narrated(record, data)
        run.keep(record)


# Roll-under attacks ("Attacks *always* hit"), the character's, rolled from these dice: told whole
# at stop 37, 8 of 11 shown were misses or the foe's harm told as the character's.
ATTACKS: list[tuple[dict[str, Any], list[int], str]] = [
    ({"weapons": [{"die": 8}], "targets": [{"name": "bosun", "armor": 1, "hp": 5, "brawn": 9}]}, [7, 17], "I drive my boarding axe at the bosun"),
    ({"weapons": [{"die": 6}], "targets": [{"name": "first mate", "armor": 1, "hp": 6, "brawn": 10}]}, [4], "I slash at the first mate with my cutlass"),
    ({"weapons": [{"die": 4}], "targets": [{"name": "knight", "armor": 5}]}, [3], "I stab at the knight's visor"),
    ({"weapons": [{"die": 6}]}, [5], "I shoot the cultist with my crossbow"),
    ({"weapons": [{"die": 10}], "targets": [{"name": "troll", "armor": 2, "hp": 12, "brawn": 14}]}, [9], "I bring my maul down on the troll"),
    ({"weapons": [{"die": 6}]}, [2], "I punch the drunk sailor"),
    ({"weapons": [{"die": 8, "enhanced": True}], "targets": [{"name": "sentry", "armor": 0, "hp": 4, "brawn": 8}]}, [6, 11, 15], "I cut the unaware sentry's throat"),
    ({"weapons": [{"die": 6}]}, [6], "I hurl a javelin at the charging boar"),
    ({"weapons": [{"die": 8}], "targets": [{"name": "ghoul", "armor": 1, "hp": 3, "brawn": 6}]}, [8, 4], "I swing my sword at the ghoul"),
    ({"weapons": [{"die": 4}], "targets": [{"name": "goblin", "armor": 2}]}, [1], "I jab my dagger at the goblin"),
    ({"weapons": [{"die": 6}]}, [4], "I fire my pistol at the fleeing smuggler"),
    ({"weapons": [{"die": 12}], "targets": [{"name": "ogre", "armor": 1, "hp": 15, "brawn": 16}]}, [11], "I drive my spear into the ogre's belly"),
]  # fmt: skip


def run_attacks(run: Run) -> None:
    for i, (params, dice, action) in enumerate(ATTACKS):
        r = run.client.post(
            "/v1/rolls",
            json={"system": "roll_under", "kind": "attack", "params": params, "dice": dice},
        )
        resolution = r.json()
        body = {"resolution": resolution, "action": action, "character": CHAR}
        status, data, secs = run.post("/v1/narrate", body)
        record = {"id": f"attack-{i:02}-roll_under-{resolution['outcome']}", "category": "narrate",
                  "request": {"action": action, "kind": "attack", "params": params, "dice": dice},
                  "status": status, "seconds": round(secs, 1), "shown": data.get("narration"),
                  "facts": _expectation_facts(resolution), "character": CHAR}  # fmt: skip
        _narrated(record, data)
        run.keep(record)


def run_sparks(run: Run) -> None:
    for i, body in enumerate(SPARKS):
        status, data, secs = run.post("/v1/oracle/spark", body)
        record = {"id": f"spark-{i:02}-{body['system']}-{body['table']}", "category": "spark",
                  "request": body, "status": status, "seconds": round(secs, 1),
                  "shown": data.get("narration"), "rows": data.get("rows"),
                  "facts": _expectation_facts(data.get("resolution")), "character": None}  # fmt: skip
        _narrated(record, data)
        run.keep(record)


def run_rules(run: Run) -> None:
    for i, (system, question, answerable) in enumerate(RULES):
        body = {"messages": [{"role": "user", "content": question}], "system": system}
        status, data, secs = run.post("/v1/rules/ask", body)
        answer = data.get("answer") or ""
        said_not_covered = data.get("covered") is False or any(
            w in answer.lower() for w in NOT_COVERED_WORDS
        )
        record = {"id": f"rules-{i:02}-{system}", "category": "rules", "request": body,
                  "status": status, "seconds": round(secs, 1), "shown": answer,
                  "answerable": answerable, "covered": data.get("covered"),
                  "said_not_covered": said_not_covered,
                  "quotations": data.get("quotations", []),
                  "worked_example": (data.get("worked_example") or {}).get("status")}  # fmt: skip
        _narrated(record, data)
        run.keep(record)


def _settle(run: Run, sid: str, body: dict[str, Any]) -> dict[str, Any]:
    while body.get("status") == "awaiting_choice":
        choices = {c["param"]: c["options"][0]["value"] for c in body["choices"]}
        _, body, _ = run.post(f"/v1/sessions/{sid}/turns/{body['number']}/choose",
                              {"choices": choices})  # fmt: skip
    return body


def run_sessions(run: Run) -> None:
    for s in SESSIONS:
        status, data, _ = run.post(
            "/v1/sessions", {"system": s["system"], "name": "real model", "sheet": s["sheet"]}
        )
        if status != 201:
            raise SystemExit(f"session: {status} {data}")
        sid = data["id"]
        for n, turn in enumerate(s["turns"]):
            proposed = "move" not in turn and "kind" not in turn
            body = {k: v for k, v in turn.items() if k != "seed" or not proposed}
            status, data, secs = run.post(f"/v1/sessions/{sid}/turns", body)
            record: dict[str, Any] = {
                "id": f"session-{s['system']}-{n}", "category": "session", "request": body,
                "proposed": proposed, "status": status, "proposal": data.get("proposal"),
                "character": s["sheet"]["name"],
            }  # fmt: skip
            calls = (data.get("narrated") or {}).get("calls", 0) or 0
            if proposed and status in (200, 201) and data.get("status") == "proposed":
                record["proposal_attempts"] = run.recorder.take()
                calls = (data.get("proposal") or {}).get("calls", calls) or 0
                status2, data, secs2 = run.post(
                    f"/v1/sessions/{sid}/turns/{data['number']}/accept", {"seed": turn["seed"]}
                )
                record["accept_status"] = status2
                record["accept_error"] = data.get("error")
                secs += secs2
            data = _settle(run, sid, data)
            record.update(
                seconds=round(secs, 1), shown=data.get("narration"),
                facts=_expectation_facts(data.get("resolution")), turn_status=data.get("status"),
            )  # fmt: skip
            _narrated(record, data)
            record["calls_turn"] = (record.get("calls") or 0) + (calls if proposed else 0)
            run.keep(record)


SECTIONS = {
    "narrate": run_narrate,
    "attacks": run_attacks,
    "oracle": run_oracle,
    "sessions": run_sessions,
    "sparks": run_sparks,
    "rules": run_rules,
}


def summary(records: list[dict[str, Any]]) -> str:
    told = [r for r in records if r.get("category") != "rules" and r.get("shown") is not None]
    by_narrator = Counter(r.get("narrator") for r in told)
    failed = Counter(c for r in records for c in r.get("guard_failed", []))
    rejected_attempts = sum(len(r.get("rejected", [])) for r in records)
    sessions = [r for r in records if r["category"] == "session"]
    proposed = [r for r in sessions if r.get("proposed")]
    refused = [r for r in proposed if r.get("accept_status") not in (200, 201)]
    rules = [r for r in records if r["category"] == "rules"]
    wrongly = [r for r in rules if r.get("answerable") and r.get("said_not_covered")]
    rightly = [r for r in rules if not r.get("answerable") and r.get("said_not_covered")]
    errors = [r for r in records if (r.get("status") or 0) >= 500]
    secs = sorted(r.get("seconds", 0) for r in records)
    lines = [
        f"requests: {len(records)} ({dict(Counter(r['category'] for r in records))}); 5xx: "
        f"{len(errors)}",
        f"narrations shown: {len(told)}: by the model {by_narrator.get('model', 0)}, offline "
        f"{by_narrator.get('offline', 0)}; offline because: "
        f"{dict(Counter(r.get('reason') for r in told if r.get('narrator') == 'offline'))}",
        f"model replies rejected by the guard: {rejected_attempts}; last failing checks: "
        f"{dict(failed)}",
        f"proposed turns: {len(proposed)}; refused at accept: {len(refused)} "
        f"{[r.get('accept_error') for r in refused]}",
        f"model calls per turn: named {[r.get('calls_turn') for r in sessions if not r.get('proposed')]}"
        f", proposed {[r.get('calls_turn') for r in proposed]}; turn narrations the guard refused "
        f"(told offline, not asked for again): {sum(len(r.get('rejected', [])) for r in sessions)}",
        f"rules: {len(rules)}; model answers {sum(r.get('narrator') == 'model' for r in rules)}; "
        f"answerable said not covered: {len(wrongly)} of {sum(bool(r['answerable']) for r in rules)}"
        f"; unanswerable said not covered: {len(rightly)} of "
        f"{sum(not r['answerable'] for r in rules)}",
        f"seconds per request: p50 {secs[len(secs) // 2] if secs else 0}, max "
        f"{secs[-1] if secs else 0}",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="JSON-lines file to write")
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    parser.add_argument("--summary", type=Path, default=None, help="only summarise this file")
    parser.add_argument("--narrate-from", type=int, default=0, help="skip the first N narrations")
    parser.add_argument(
        "--actions",
        choices=["corpus", *OTHER_WORDS],
        default="corpus",
        help="the narrations' words: the corpus's, or other words for the same rolls",
    )
    args = parser.parse_args()
    if args.summary:
        records = [json.loads(line) for line in args.summary.read_text().splitlines() if line]
        print(summary(records))
        return
    if not os.environ.get("OPENAI_BASE_URL"):
        raise SystemExit("set OPENAI_BASE_URL to a local OpenAI-compatible server's /v1")
    os.environ.setdefault("FATEWEAVER_MODEL", "local")
    os.environ.setdefault("FATEWEAVER_MODEL_TIMEOUT", "120")
    os.environ.setdefault("FATEWEAVER_MODEL_MAX_TOKENS", "120")
    # llama.cpp's server turns a schema beside json_object into a grammar (move ids, stats)
    os.environ.setdefault("FATEWEAVER_MODEL_JSON_MODE", "json_object_schema")
    os.environ.setdefault("FATEWEAVER_MODEL_GRAMMAR", "gbnf")
    os.environ.setdefault("FATEWEAVER_NARRATOR", "model")
    os.environ.setdefault("FATEWEAVER_RATE_LIMIT", "")
    os.environ.setdefault("FATEWEAVER_LOG_LEVEL", "warning")
    os.environ.setdefault("FATEWEAVER_DATA_DIR", tempfile.mkdtemp(prefix="fw-real-model-"))

    from service.app import create_app
    from service.settings import Settings

    app = create_app(Settings())
    recorder = Recorder(app.state.narrator_model)
    app.state.narrator_model = recorder
    out = args.out or ROOT / "build" / f"real_model-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("")
    port = free_port()
    server = serve_in_thread(app, port)
    print(f"writing {out}", flush=True)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=900) as client:
            run = Run(client, recorder, out)
            run.narrate_from = args.narrate_from
            run.other_actions = "" if args.actions == "corpus" else args.actions
            for name in args.only.split(","):
                SECTIONS[name](run)
    finally:
        server.should_exit = True
    print(summary(run.records))


if __name__ == "__main__":
    main()
