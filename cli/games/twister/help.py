"""Dungeon Twister in short (``cryptcrawl rules twister`` and the match's help): the rules as
engine/twister plays them (docs/rules/twister.md), in at most 60 lines of at most 79 columns."""

RULES = """\
The game
Two players, West and East, each with 8 characters and 6 objects, in a dungeon
of 8 rooms that start face down. Score 5 victory points (VP) to win: 1 for
each of your characters that escapes over the opposite starting line (2 for
the Goblin, 1 more for a Treasure it carries), and 1 whenever a character of
your opponent's is eliminated (even by its own side).
turn_cap (60 turns by default, 30 each; off for none) ends the game: more VP
wins, equal VP is a draw. A draw may also be agreed.

Set-up
Each player secretly chooses the 4 characters that start on its line (team
cleric mekanork thief troll). Then, one after the other, each places its
other 10 tokens face down on the room slots (place 3 rope): only the colour
shows. The starting teams are turned face up after all 20 placements.

A turn
Play an action card (card 3): its value is your action points (AP). A card is
playable up to one above the highest card played so far; the hand comes back
once all four are played. Each action costs 1 AP:
  move W-troll 4,6        up to the character's move value; take and drop
                          tokens on the way (drop, take E-sword)
  jump W-goblin 2,7 2,8   over a pit, with a jump card
  reveal W-goblin 3       turn room slot 3 face up: both players open their
                          tokens there and place them in the room (put ...)
  rotate W-goblin 1 cw 2  turn a room on a gear square (1 AP a quarter)
  attack W-warrior E-troll   start a combat
  heal, regenerate, open, close, break, pass, fireball, drink: the cleric,
  troll, thief, warrior, wall-walker, wand and speed potion (see docs)
  end                     end the turn (unspent AP are lost)

Characters (move / combat)
cleric 4/2 heals; goblin 4/1 scores 2 escaping; mekanork 3/2 turns rooms;
thief 5/2 opens portcullises, crosses pits; troll 2/4 regenerates;
wall_walker 4/1 passes walls; warrior 3/3 breaks portcullises; wizard 4/1
crosses pits and enemies, fires the wand.

Combat
Every unwounded character next to and connected with a fighter joins in. Each
side adds its combat values (a wounded target counts 0), +1 for each attacking
Sword and each defending Armour, and a secret combat card played at once
(combat 4; the cards leave the game, except the 0). The lower total is
wounded; a wounded loser dies. A tie changes nothing.

Hidden information
Your face-down tokens are known to you alone until their room is revealed;
the rooms are drawn only when revealed, from secrets both players commit to
in advance. A player who stops answering forfeits (no bot can open its
tokens).

Notation
Squares are x,y (0,0 north-west, 21,9 south-east); tokens W-troll, E-rope;
directions n e s w."""
