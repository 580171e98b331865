"""The rulebooks' worked examples, played through the engine.

Positions are built by hand (`Game.position`), dice are scripted, and every
decision is taken explicitly, the way the rulebook narrates it.
"""

from __future__ import annotations

import pytest
from kotc.dsl import load_edition
from kotc.dsl.ast import Origin
from kotc.dsl.cards import CardDesign, StatValue
from kotc.dsl.scenario_words import Vocabulary
from kotc.engine.game import Game
from kotc.runtime.actions import Action
from kotc.runtime.values import Seat

HERE = Origin("<test>", 0, 0)


def minion(rs, name: str, attack: int, defence: int, level: int = 1) -> CardDesign:
    kind = next(t for t in rs.card_types.values() if t.name != "spell")
    cost = rs.setting("cards", "cost").stat
    dice = rs.setting("battle", "dice_per").stat
    stats = [
        StatValue(s, level if s == cost else attack if s == dice else defence, HERE)
        for s in kind.stats
    ]
    return CardDesign(name, kind.name, rs.number, tuple(stats), (), None, HERE)


def choose(g: Game, label_or_kind: str) -> None:
    """Take the legal action with this label (or kind); fail loudly if there is none."""
    for a in g.legal_actions():
        if a.label == label_or_kind or (a.kind == label_or_kind and a.value is None):
            g.apply(a)
            return
    raise AssertionError(
        f"{label_or_kind!r} not legal at {g.decision.prompt}: "
        f"{[a.label for a in g.legal_actions()]}"
    )


def pick(g: Game, card: int) -> None:
    g.apply(Action("pick", card))


def enlist(g: Game, cards) -> None:
    """Enlist in formation order; say done if any minion is left to enlist."""
    for card in cards:
        pick(g, card)
    if any(a.kind == "done" for a in g.legal_actions()):
        choose(g, "done")


def allocate(g: Game, value: int) -> None:
    die = next(a for a in g.legal_actions() if g.dice[a.value][0] == value)
    g.apply(die)


def with_decks(g: Game, design: str) -> None:
    """Give both players a few cards in their decks: the 11th ends a game at once
    for a player whose deck is empty."""
    start = next(z.name for z in g.engine.rs.zones.values() if "starting" in z.flags)
    for seat in (0, 1):
        for _ in range(5):
            g.put(design, seat, start)


def field_zone(rs) -> str:
    return Vocabulary(rs).zone_roles["field"]


def toughness(rs) -> str:
    kind = next(t for t in rs.card_types.values() if t.name != "spell")
    dice = rs.setting("battle", "dice_per").stat
    cost = rs.setting("cards", "cost").stat
    return next(s for s in kind.stats if s not in (dice, cost))


@pytest.mark.parametrize("edition", ["11th", "12th"])
def test_battle_example_six_dice_against_two(edition):
    """11th/12th §Battles: C survives with 2 defense, D and E destroyed, the
    defending player loses 6."""
    rs = load_edition(edition)
    designs = [
        minion(rs, "Minion A", 2, 5),
        minion(rs, "Minion B", 2, 5),
        minion(rs, "Minion C", 2, 10),
        minion(rs, "Minion D", 1, 10),
        minion(rs, "Minion E", 1, 10),
    ]
    g = Game.position(rs, designs, dice=[1, 6, 5, 5, 3, 6, 6, 2])
    zone = field_zone(rs)
    a, b, c = (g.put(n, 0, zone) for n in ("Minion A", "Minion B", "Minion C"))
    d, e = (g.put(n, 1, zone) for n in ("Minion D", "Minion E"))
    with_decks(g, "Minion A")
    hp = g.players[1].hp
    g.resume("battle")
    choose(g, "battle")
    enlist(g, (c, a, b))  # formation order C -> A -> B
    g.apply(Action("pick", Seat(1)))  # the victim: the defending player
    enlist(g, (d, e))  # D -> E
    for value in (6, 3, 1, 5, 5):  # attacker: 6, 3, 1 on D; the 5s on E
        allocate(g, value)
    for value in (6, 2):  # defender: both on C
        allocate(g, value)
    stat = toughness(rs)
    assert g.cards[c].stats[stat] == 2 and g.cards[c].zone == zone
    grave = next(z for z in rs.zones if "grave" in z)
    assert g.cards[d].zone == grave and g.cards[e].zone == grave
    assert g.players[1].hp == hp - 6
    assert g.players[0].hp == g.engine.rs.setting("setup", "starting_hp").hp


@pytest.mark.parametrize("edition", ["13th", "17th"])
def test_piercing_damage_example(edition):
    """13th/17th §Minions: 6 damage to a 4-HP minion destroys it and 2 pierce."""
    rs = load_edition(edition)
    # One attacking die, scripted to 6, and no defenders: all of it is leftover
    # damage to the victim.
    g = Game.position(
        rs, [minion(rs, "Attacker", 1, 10), minion(rs, "Victim", 0, 4)], dice=[6]
    )
    zone = field_zone(rs)
    attacker = g.put("Attacker", 0, zone)
    victim = g.put("Victim", 1, zone)
    with_decks(g, "Victim")
    hp = g.players[1].hp
    g.resume("battle")
    choose(g, "battle")
    enlist(g, [attacker])
    pick(g, victim)
    choose(g, "done")  # the defender enlists nobody
    assert [e for e in g.events if e.kind == "roll"][-1].data["dice"] == [6]
    assert g.cards[victim].zone == "grave"
    assert g.players[1].hp == hp - 2
    assert g.players[0].hp == hp


def spell(rs, name: str, *sentences: str) -> CardDesign:
    from kotc.dsl.cards import AbilityText, Text

    cost = rs.setting("cards", "cost").stat
    ability = AbilityText(None, None, None, tuple(Text(s, HERE) for s in sentences), HERE)
    return CardDesign(
        name, "spell", rs.number, (StatValue(cost, 1, HERE),), (ability,), None, HERE
    )


# One sentence, the target selection and its effect: from the 13th, a sentence
# with no selection of its own has no targets (Target).
DESTROY_ONE_MINION = {
    "12th": "Target up to 1 in-play minion; destroy it.",
    "13th": "Target up to 1 in-play card; destroy it.",
    "17th": "Target up to 1 on-field minion; destroy it.",
}


@pytest.mark.parametrize("edition,weakened", [("12th", 2), ("13th", 2), ("17th", 0)])
def test_chain_example_weakness_resolves_before_destroy(edition, weakened):
    """§Chains: link 1 destroys the targets, link 2 is a Weakness Counter popped in
    response; link 2 resolves first (12th/13th: -1; 17th: to 0), then link 1."""
    rs = load_edition(edition)
    doom = spell(rs, "Doom", DESTROY_ONE_MINION[edition])
    g = Game.position(rs, [minion(rs, "Brute", 3, 5), doom])
    with_decks(g, "Brute")
    zone = field_zone(rs)
    brute = g.put("Brute", 1, zone, counters=[["weakness", 1]])
    cast = g.put("Doom", 0, "hand")
    resources = next(z.name for z in rs.zones.values() if "resources" in z.flags)
    g.put("Brute", 0, resources)
    g.resume("action")
    g.apply(
        next(a for a in g.legal_actions() if a.kind == "act" and a.value[1] == (cast,))
    )
    early = rs.setting("chain", "targets_on_activation") is not None
    if early:  # the 12th chooses the target as the spell is cast
        pick(g, brute)
    assert g.chain is not None and g.node == "chain:respond" and g.decision.player == 1
    pop = next(a for a in g.legal_actions() if a.kind == "act" and a.value[0] == "pop")
    g.apply(pop)  # link 2
    assert len(g.chain.links) == 2
    choose(g, "pass")  # player 0
    choose(g, "pass")  # player 1: all passed in a row
    if not early:
        pick(g, brute)  # link 1 resolves: its target
    attack = rs.setting("battle", "dice_per").stat
    kinds = [
        (e.kind, e.data.get("card"))
        for e in g.events
        if e.kind in ("stat", "move") and e.data.get("card") == brute
    ]
    assert kinds[0] == ("stat", brute) and kinds[-1] == ("move", brute)
    stat = next(e for e in g.events if e.kind == "stat" and e.data["card"] == brute)
    assert stat.data == {"card": brute, "stat": attack, "value": weakened}
    assert g.cards[brute].zone == next(z for z in rs.zones if "grave" in z)
    resolved = [e.data["link"] for e in g.events if e.kind == "resolve"]
    assert resolved == [2, 1]


def test_batch_subtract_example_12th():
    """12th §Batch Subtract: subtract 3 offense from targets with 1 and 5 offense;
    the first can lose only 1, so the second loses at least 2."""
    rs = load_edition("12th")
    drain = spell(
        rs,
        "Drain",
        "Target up to 2 in-play minions.",
        "Batch subtract 3 offense from the targets.",
    )
    g = Game.position(rs, [minion(rs, "Weak", 1, 5), minion(rs, "Strong", 5, 5), drain])
    with_decks(g, "Weak")
    weak, strong = g.put("Weak", 1, "battlefield"), g.put("Strong", 1, "battlefield")
    cast = g.put("Drain", 0, "hand")
    g.put("Weak", 0, "granary")
    g.resume("action")
    g.apply(
        next(a for a in g.legal_actions() if a.kind == "act" and a.value[1] == (cast,))
    )
    pick(g, weak)  # the targets, as the spell is cast
    pick(g, strong)
    choose(g, "pass")
    choose(g, "pass")
    pick(g, weak)  # 1 from the first: it is at 0 now
    assert [a.value for a in g.legal_actions()] == [strong]
    pick(g, strong)
    pick(g, strong)
    assert g.cards[weak].stats["offense"] == 0 and g.cards[strong].stats["offense"] == 3


@pytest.mark.parametrize("edition", ["12th", "13th", "17th"])
def test_dice_heal_example(edition):
    """§Dice-heal: 3-dice-heal with 4, 1 and 3 gains 8 HP."""
    rs = load_edition(edition)
    heal = spell(rs, "Mend", "3-dice-heal you.")
    g = Game.position(rs, [heal, minion(rs, "Filler", 1, 1)], dice=[4, 1, 3])
    with_decks(g, "Filler")
    g.players[0].hp = 10
    cast = g.put("Mend", 0, "hand")
    resources = next(z.name for z in rs.zones.values() if "resources" in z.flags)
    g.put("Filler", 0, resources)
    g.resume("action")
    g.apply(
        next(a for a in g.legal_actions() if a.kind == "act" and a.value[1] == (cast,))
    )
    choose(g, "pass")
    choose(g, "pass")
    assert g.players[0].hp == 18
