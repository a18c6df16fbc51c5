"""Dungeons of Kards in short (``cryptcrawl rules kards`` and the match's help): the rules as
engine/kards plays them (docs/rules/kards.md), in at most 60 lines of at most 79 columns."""

RULES = """\
The game
Characters walk a map of dungeon cards laid as they explore it, fight the
monsters that appear, and pick up weapons, pets, stones and gold. Content: the
cryptcrawl original pack (not the publisher's cards).
Modes (option mode): Arena - 1v1, teams (team_size) or free-for-all up to 8,
the last team with characters in play wins, or whoever defeats the Boss; co-op
campaign (2-4) and solo - everyone wins by defeating the Boss, the Gate Warden,
and everyone loses if no character is left. round_cap (40 by default) ends the
game after that many rounds: a draw in Arena, a loss in the campaign.

Set-up
A first player is drawn; in reverse turn order each seat picks a character
(pick mage) and, in Arena, a free gate to start on (gate D02).

A turn (one character)
1 Equip weapons or pets carried since before the turn (equip longsword, then
  equip done). 2 One action. In combat (an enemy on your card): attack, or
  your ability (wait only while stunned). Out of combat, a walk - explore,
  move N E (1 to AP steps), or search - or your ability. 3 end.
Free actions in their windows: stones (stone restoration_4 mage), portal hops
(hop D05 gold) and yellow-portal services (service heal).

Exploring
Reveal the next dungeon card onto a free exit of your card (place E). A card
that cannot join with an exit is a paradox: 1 life lost, no move. Otherwise
you move onto it and draw an orange card: a monster appears, a trap hurts, a
weapon or pet (10 uses) or a stone is yours. Moving can also make a monster
appear (a roll of 5: level 1; 6: level 2). When nothing is left to explore,
search draws an orange card where you stand.

Combat
An attack is AP rolls: each hits when 2d6 + ATK is above the target's DEF and
deals DMG. A surviving target strikes back (counter_budget limits that). At 0
life a monster goes to the lair (its first defeat may pay a treasure roll); a
character leaves the map - a Resurrection Stone may save it - and in Arena the
opponent that defeated it takes its items and gold. Attributes follow the life
table: as life falls, ATK, DEF and DMG change.

Abilities (option abilities)
Once charged, an ability stuns or weakens an enemy, or heals or empowers you or
an ally, within line of sight; a yellow portal recharges it for 6 gold.

Events (option events)
At 5, 10, 15 and 20 revealed cards (twice that with two copies), a die picks an
event of that level: it hits you, every character, or opens new cards.

The Boss
The Portal Stone, taken to a black portal, brings the Gate Warden there (in
co-op with one escort per character). It cannot be attacked while another
monster shares its card. Defeating it ends the game.

Notation
Every move has one canonical text: the list before each prompt shows them; a
move may also be written as its destination (move D23)."""
