"""The Tzolk'in model: field indices of the flat state, frame codes and precomputed tables.

A player's goods and markers are one flat ``list[int]`` (cheap to copy); the
indices below name its fields. Pending decisions are a stack of typed frames
(:mod:`mayagames.tzolkin.flow`); each frame class carries one of the ``K_*`` codes
below (its position in :data:`FRAME_NAMES`, the order the observation encoders use).
"""

from __future__ import annotations

from .components import ARCHITECTURE, AGRICULTURE, DATA, EXTRACTION, GEARS, THEOLOGY, UXMAL

# --- player fields (one flat list per player) ---------------------------------------
CORN, WOOD, STONE, GOLD, SKULL = range(5)   # same order as components.GOODS
VP = 5            # victory points (integer; the 1/4 VP per corn is added at the very end)
WORKERS = 6       # workers in play (not in the bank)
READY = 7         # workers in front of the player (available to place)
ON_GEARS = 8      # workers on the gears
TECH = 9          # 9..12: technology levels (agriculture, extraction, architecture, theology)
TEMPLE = 13       # 13..15: temple steps (chaac, quetzalcoatl, kukulcan); -1 is the bottom
LIGHT = 16        # 1 while the player board is lighter side up
CTILES = 17       # Corn Harvest Tiles collected
WTILES = 18       # Wood Harvest Tiles collected (burned ones are not)
FARM_FREE = 19    # workers fed for free on each Food Day
FARM_DISC = 20    # corn less per worker on each Food Day
NFIELDS = 21
RES = (WOOD, STONE, GOLD)

EMPTY = -1        # an empty space, slot or seat marker
HIDDEN = -2       # an item the viewer cannot see (building, tile, monument)
DUMMY = 4         # occupant code of a dummy worker on a gear

# --- phases and decision frames --------------------------------------------------------
DRAFT, PLAY, SPEED, OVER = range(4)
PHASES = ("draft", "play", "speed", "over")

K_DRAFT = 0
K_TURN = 1   # first decision of a turn
K_PLACING = 2   # placing workers
K_PICKING = 3   # picking workers up
K_CHOOSE = 4   # the picked worker's action
K_HARVEST = 5   # Palenque 3-5: corn, wood or burn
K_ANGER = 6   # step down on a temple
K_TEMPLE = 7   # step up on a temple of your choice
K_TWO = 8   # Tikal 5
K_TECH = 9
K_PAY = 10   # pay a technology's cost block by block
K_BUILD = 11
K_GAIN = 12   # take blocks of your choice
K_MARKET = 13   # market exchanges
K_MIRROR = 14   # Uxmal 5 / building A2-T4
K_OFFER = 15   # Theology 2 offering
K_SPEED = 16   # Starting Player Space: 1 or 2 days
FRAME_NAMES = ("draft", "turn", "placing", "picking", "choose action", "harvest", "anger the gods",
               "temple step", "two temples", "technology", "pay blocks", "build", "take blocks",
               "market", "mirror", "offering", "advance calendar")

# build modes
B_TIKAL, B_UXMAL, B_EXTRA = range(3)

# --- precomputed tables ------------------------------------------------------------------
GEAR = DATA.gears
HOLES = tuple(g.holes for g in GEAR)
SPACES = tuple(g.spaces for g in GEAR)
ACTIONS = tuple(g.actions for g in GEAR)
LAST_NORMAL = tuple(s - 2 for s in SPACES)    # 6 / 9: where a speed-up would push a worker off
ACT = tuple(tuple(g.action_list) for g in GEAR)
MIRROR_GEARS = tuple(GEARS.index(name) for name in ACT[UXMAL][4]["gears"])

TEMPLE_TOP = tuple(t.top for t in DATA.temples)
TEMPLE_VP = tuple(t.vp for t in DATA.temples)
TEMPLE_REWARD = tuple(t.rewards for t in DATA.temples)

TECH_COST = DATA.tech_cost


def _mod(track: int, name: str) -> tuple[int, ...]:
    return DATA.tracks[track].modifiers[name]


HARVEST_BONUS = _mod(AGRICULTURE, "harvest_corn")
FISHING_BONUS = _mod(AGRICULTURE, "fishing_corn")
IRRIGATION = _mod(AGRICULTURE, "irrigation")
EXTRACT_BONUS = (_mod(EXTRACTION, "wood"), _mod(EXTRACTION, "stone"), _mod(EXTRACTION, "gold"))
BUILD_CORN = _mod(ARCHITECTURE, "build_corn")
BUILD_VP = _mod(ARCHITECTURE, "build_vp")
WAIVE = _mod(ARCHITECTURE, "waive_block")
UXMAL_DISCOUNT = _mod(ARCHITECTURE, "uxmal_discount")
CHICHEN_AHEAD = _mod(THEOLOGY, "chichen_ahead")
OFFERING = _mod(THEOLOGY, "offering")
YAX_SKULL = _mod(THEOLOGY, "yaxchilan_skull")
BONUS = tuple((t.bonus_kind, t.bonus_count) for t in DATA.tracks)

# building instances: one entry per physical tile (32), mapping to its type index
INSTANCE_TYPE = tuple(i for i, b in enumerate(DATA.buildings) for _ in range(b.qty))
INSTANCES_OF_AGE = tuple(tuple(n for n, t in enumerate(INSTANCE_TYPE) if DATA.buildings[t].age == age)
                         for age in (1, 2))
FOOD_DAYS = tuple(fd[0] for fd in DATA.food_days)
FOOD_KIND = tuple(fd[1] for fd in DATA.food_days)
FOOD_AGE = tuple(fd[2] for fd in DATA.food_days)
GEAR_INDEX = {name: i for i, name in enumerate(GEARS)}
