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
objectives in secret and keeps one of each (the objective sealed until the
end). The styles say which dice train each hero, in the order warrior/
wizard/cleric/rogue, B black or W white; an objective scores more with its
own styles:   power 1 assassin A5 F7; styles B/W/W/B; objective 0

A round
Six dice are rolled (rolled again with 3 skulls or 3 clovers). Each skull
hurts every player by 1. Then everyone plans three uses of three different
non-skull dice, in order, all at once:
  4 move C2 C3 D3 {evolve cleric}; 2 evolve rogue; 5 potions
  evolve HERO   the die shows the hero's symbol in its training colour (a
                clover counts as any symbol); level up to 6
  item ITEM     one of the two steps of a magic item
  potions       two potions, each 2 hearts: a heart absorbs 1 damage
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
At the end (the score letters): A-C the three fights, D the lowest hero's
level, E items, F gems, G minions, H damage, I -9 once resurrected, J the
objective and the power, K missions, L the total. Solo: missing gems on.

Powers (the one you keep acts from the set-up on)
  alchemist: 3 potions a potions use     craftsman: 2 item steps at set-up
  assassin: 2 minions defeated at set-up scout: traps deal you no damage
  barbarian: villains deal no damage     healer: 2 potions at set-up
  beastmaster: item step per 3rd minion  merchant: a potion per gem taken
  noble: item step when a hero reaches 5 ranger: +1 step crossing water
  psionic: a die counts as the other colour once a round
  berserker: +2 combat level vs villains treasure_hunter: a gem letter
  veteran: 2 evolutions at set-up       fortune_teller: 1 less skull damage
  shaman: a potion per 3rd minion"""
