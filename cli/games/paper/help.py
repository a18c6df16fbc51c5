"""Paper Dungeons in short (``cryptcrawl rules paper`` and the match's help): the rules as
engine/paper plays them (docs/rules/paper.md), in at most 60 lines of at most 79 columns."""

RULES = """\
The game
A roll-and-write for 1 to 8 players who all plan at once: 8 rounds in 3
seasons, each season ending with a fight against its villain. Everyone has a
sheet of the same dungeon (6 x 7 rooms, A1 to F7) and four heroes - warrior,
wizard, cleric, rogue - who start at level 1. Most glory wins; a tie goes to
more explored rooms, then is shared.

Set-up
A dungeon card sets the extra walls, the three lairs and the villains; three
missions are drawn (option missions). Each player is dealt 2 powers and 2
objectives in secret and keeps one of each; the kept objective stays sealed
until the end, and marks which heroes train with black dice:
  power 1 assassin A5 F7; styles B/W/W/B; objective 0

A round
Six dice are rolled (rolled again with 3 skulls or 3 clovers). Each skull
hurts every player by 1. Then everyone plans three uses of three different
non-skull dice, in order, all at once:
  4 move C2 C3 D3 {evolve cleric}; 2 evolve rogue; 5 potions
  evolve HERO   the die shows the hero's symbol in its training colour (a
                clover counts as any symbol); level up to 6
  item ITEM     one of the two steps of a magic item
  potions       two potions: each absorbs 2 damage; full rows give bonuses
  move ROOMS    up to 2 rooms (3 with boots); the first move enters from
                below (move entryC C1)
Answers in braces settle what a use triggers (a free evolution or item step,
the scepter's minions).

Rooms
Entering a room: a lair is reached; a minion is fought (damage = its level
above the matching hero's); a trap hurts (every entry); on the first entry
potions, an item step, an evolution and the gem are collected. A gem taken
this round is crossed out for everyone else at the round's end.

Villains (rounds 3, 6 and 8)
Unless you never reached its lair, your combat level is your HP plus the
level of its weak hero (and items, powers); it sets the glory and damage of
the fight, or you flee with a penalty. The one highest combat level (no tie)
gets the villain's reward.

Missions and scoring
A mission met during a round scores for everyone who met it that round.
At the end: the three fights, the lowest hero's level, items, gems, minions,
damage (and -9 once resurrected), the objective and the power, the missions.

Solo, variants and story mode
Alone, with the missing-gems variant always on; options missions,
missing_gems, story and chapter."""
