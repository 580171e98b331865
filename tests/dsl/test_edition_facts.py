"""Facts read from the loaded rulesets, compared with the four rulebooks.

Each test names the rulebook section it checks. Expected values are the
rulebooks' own numbers and lists, typed in here by hand from the books.
"""

from __future__ import annotations

import pytest
from kotc.dsl import ast, load_edition
from kotc.dsl.unparse import unparse, unparse_expr

EDITIONS = ("11th", "12th", "13th", "17th")


@pytest.fixture(scope="module")
def rs():
    return {name: load_edition(name) for name in EDITIONS}


def P(dotted: str) -> ast.Path:
    return ast.Path(tuple(dotted.split(".")))


def calls(block) -> list[ast.Call]:
    """Keyword calls anywhere in a program."""
    found = []

    def walk(node):
        if isinstance(node, ast.Call):
            found.append(node)
        if isinstance(node, tuple):
            for x in node:
                walk(x)
        elif isinstance(node, ast.Node):
            for value in vars(node).values():
                walk(value)

    walk(block)
    return found


# --- Setup and Deck Building -------------------------------------------------------


@pytest.mark.parametrize(
    "edition,hp", [("11th", 20), ("12th", 35), ("13th", 35), ("17th", 35)]
)
def test_starting_hp(rs, edition, hp):
    assert rs[edition].setting("setup", "starting_hp").hp == hp


@pytest.mark.parametrize(
    "edition,lo,hi",
    [("11th", 40, 40), ("12th", 40, 60), ("13th", 40, 60), ("17th", 40, 60)],
)
def test_deck_size(rs, edition, lo, hi):
    size = rs[edition].setting("setup", "deck_size").size
    assert (size.lo, size.hi) == (lo, hi)


def test_11th_reserves_are_10_of_the_40(rs):
    reserves = rs["11th"].setting("setup", "reserves")
    assert (reserves.size.lo, reserves.size.hi, reserves.source) == (10, 10, "from_deck")


def test_12th_reserves_are_a_pile_of_up_to_5(rs):
    reserves = rs["12th"].setting("setup", "reserves")
    assert (reserves.size.lo, reserves.size.hi, reserves.source) == (0, 5, "apart")
    assert 6 not in reserves.size and 5 in reserves.size


@pytest.mark.parametrize("edition", ["13th", "17th"])
def test_no_reserves_from_the_13th(rs, edition):
    assert rs[edition].setting("setup", "reserves") is None
    assert "reserves" not in rs[edition].zones


@pytest.mark.parametrize(
    "edition,cap", [("11th", None), ("12th", None), ("13th", None), ("17th", 10)]
)
def test_ultra_points_cap(rs, edition, cap):
    rule = rs[edition].setting("setup", "ultra_points")
    assert (rule.cap if rule else None) == cap


# The 12th bans cards without an indicator through its clean slate, not as invalid.
@pytest.mark.parametrize(
    "edition,need",
    [
        ("11th", "optional"),
        ("12th", "optional"),
        ("13th", "required"),
        ("17th", "required"),
    ],
)
def test_edition_indicator(rs, edition, need):
    assert rs[edition].setting("setup", "edition_indicator").need == need


@pytest.mark.parametrize("edition", EDITIONS)
def test_two_or_more_players_eight_recommended(rs, edition):
    players = rs[edition].setting("setup", "players")
    assert (players.count.lo, players.count.hi) == (2, None)
    assert (players.recommended.lo, players.recommended.hi) == (2, 8)


@pytest.mark.parametrize(
    "edition,dice", [("11th", 2), ("12th", 2), ("13th", 2), ("17th", 1)]
)
def test_first_player_roll(rs, edition, dice):
    step = next(s for s in rs[edition].setup_steps if s.first_player_dice)
    assert step.first_player_dice == dice


@pytest.mark.parametrize(
    "edition,steps",
    [
        ("11th", ["reserves", "shuffle", "opening_hand", "first_player"]),
        ("12th", ["shuffle", "opening_hand", "first_player"]),
        ("13th", ["shuffle", "opening_hand", "mulligan", "first_player"]),
        ("17th", ["shuffle", "first_player", "opening_hand", "mulligan"]),
    ],
)
def test_setup_steps_in_order(rs, edition, steps):
    assert [s.name for s in rs[edition].setup_steps] == steps


@pytest.mark.parametrize("edition", ["13th", "17th"])
def test_mulligan_buries_then_draws_as_many(rs, edition):
    mulligan = next(s for s in rs[edition].setup_steps if s.name == "mulligan")
    may = mulligan.body[0]
    assert isinstance(may, ast.May)
    choose, bury, draw = may.body
    assert choose.count.any and choose.what == P("you.hand")
    assert bury == ast.Call("bury", (P(choose.name),))
    assert draw == ast.Call("draw", (P("you"), ast.FuncCall("count", (P(choose.name),))))


# --- Card Types and Layout; level and cost --------------------------------------------


@pytest.mark.parametrize(
    "edition,types",
    [
        ("11th", {"creature", "spell"}),
        ("12th", {"minion", "spell"}),
        ("13th", {"minion", "spell"}),
        ("17th", {"minion", "spell"}),
    ],
)
def test_card_types(rs, edition, types):
    assert set(rs[edition].card_types) == types


@pytest.mark.parametrize(
    "edition,attack,defence",
    [
        ("11th", "offense", "defense"),
        ("12th", "offense", "defense"),
        ("13th", "sp", "hp"),
        ("17th", "sp", "hp"),
    ],
)
def test_stat_names(rs, edition, attack, defence):
    minion = next(t for t in rs[edition].card_types.values() if t.name != "spell")
    assert minion.stats[:2] == (attack, defence)


@pytest.mark.parametrize(
    "edition,cost",
    [("11th", "cost"), ("12th", "level"), ("13th", "level"), ("17th", "level")],
)
def test_cost_model(rs, edition, cost):
    assert rs[edition].setting("cards", "cost").stat == cost


@pytest.mark.parametrize("edition,floor", [("12th", 1), ("13th", 0), ("17th", 0)])
def test_level_floor(rs, edition, floor):
    assert rs[edition].stats["level"].floor == floor


def test_11th_has_no_level(rs):
    assert "level" not in rs["11th"].stats


def test_17th_pawns_exist_only_on_the_battlefield(rs):
    assert rs["17th"].setting("cards", "pawns").zone == "battlefield"
    assert rs["13th"].setting("cards", "pawns") is None


# --- Fields / Zones ------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition,zones",
    [
        (
            "11th",
            {
                "deck",
                "graveyard",
                "reserves",
                "creature_zone",
                "trap_zone",
                "resource_zone",
                "hand",
            },
        ),
        (
            "12th",
            {
                "deck",
                "graveyard",
                "reserves",
                "battlefield",
                "trapfield",
                "granary",
                "hand",
                "casting",  # a spell being cast, until its ability has resolved
            },
        ),
        ("13th", {"deck", "grave", "battlefield", "granary", "hand", "casting"}),
        ("17th", {"deck", "grave", "battlefield", "granary", "hand", "casting"}),
    ],
)
def test_zones(rs, edition, zones):
    assert set(rs[edition].zones) == zones


@pytest.mark.parametrize("edition", EDITIONS)
def test_deck_is_restricted_and_ordered_hand_private(rs, edition):
    zones = rs[edition].zones
    assert zones["deck"].knowledge == "restricted" and zones["deck"].ordered
    assert zones["hand"].knowledge == "private"


@pytest.mark.parametrize(
    "edition,field",
    [("11th", "creature_zone"), ("12th", "battlefield"), ("17th", "battlefield")],
)
def test_battlefield_public_face_up_in_play(rs, edition, field):
    zone = rs[edition].zones[field]
    assert (zone.knowledge, zone.face, zone.in_play) == ("public", "face_up", True)


def test_12th_trapfield_private_face_down(rs):
    zone = rs["12th"].zones["trapfield"]
    assert (zone.knowledge, zone.face, zone.holds) == ("private", "face_down", ("spell",))


# --- Turn Order -------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition,phases",
    [
        ("11th", ["resource", "action", "battle", "recovery"]),
        ("12th", ["resource", "action", "battle", "recovery"]),
        ("13th", ["draw", "resource", "action", "battle", "recovery"]),
        ("17th", ["draw", "resource", "action", "battle", "recovery"]),
    ],
)
def test_phase_order(rs, edition, phases):
    assert [p.name for p in rs[edition].phases] == phases


@pytest.mark.parametrize("edition", ["13th", "17th"])
def test_first_player_skips_the_first_draw_phase(rs, edition):
    draw = rs[edition].phases[0]
    (skip,) = draw.skips
    assert skip.cond == ast.Binary(
        "and",
        ast.Binary("==", P("game.turn"), ast.IntLit(1)),
        ast.Binary("==", P("you"), P("game.first_player")),
    )
    assert draw.run == (ast.Call("draw", (P("you"), ast.IntLit(1))),)


@pytest.mark.parametrize("edition", ["11th", "12th"])
def test_resource_phase_place_up_to_two_then_draw_two_minus(rs, edition):
    resource = rs[edition].phases[0]
    # (the 11th first ends what lasted until the end of the last turn)
    choose, place, draw = [s for s in resource.run if not isinstance(s, ast.Expire)]
    assert (choose.count.lo, choose.count.hi) == (ast.IntLit(0), ast.IntLit(2))
    assert draw == ast.Call(
        "draw",
        (
            P("you"),
            ast.Binary("-", ast.IntLit(2), ast.FuncCall("count", (P(choose.name),))),
        ),
    )
    (first_turn,) = resource.variants
    assert isinstance(first_turn.body[0], ast.Either)
    assert len(first_turn.body[0].options) == 2


@pytest.mark.parametrize("edition", ["13th", "17th"])
def test_resource_phase_may_sow_one(rs, edition):
    resource = rs[edition].phases[1]
    choose, sow = resource.run
    assert (choose.count.lo, choose.count.hi) == (ast.IntLit(0), ast.IntLit(1))
    assert sow.keyword == "sow" and not resource.variants


def test_11th_exchange_with_reserves_during_resource_phase(rs):
    assert rs["11th"].phases[0].opens == ("exchange",)
    # at any time in the phase: before the placing as well as after it
    assert rs["11th"].phases[0].opens_first == ("exchange",)
    assert "exchange" not in rs["12th"].actions


@pytest.mark.parametrize(
    "edition,opens",
    [
        ("11th", {"summon", "cast", "set_trap", "activate", "activate_trap"}),
        ("12th", {"summon", "cast", "set_trap", "activate", "activate_trap"}),
        ("13th", {"summon", "cast", "activate"}),
        # and a spell's hex-play or ghost-play ability, wherever the spell is
        ("17th", {"summon", "cast", "activate", "activate_spell"}),
    ],
)
def test_action_phase_opens(rs, edition, opens):
    action = next(p for p in rs[edition].phases if p.name == "action")
    assert set(action.opens) == opens


@pytest.mark.parametrize(
    "edition,section,actions",
    [
        # a named counter, or an ability or spell whose activation condition is met
        ("11th", "Ability Clarifications/Rulings",
         ("pop", "forfeit", "activate", "activate_trap", "cast")),
        ("12th", "Chains", ("pop", "agree_to_end", "activate", "activate_trap", "cast")),
        ("13th", "Chains", ("pop", "agree_to_end", "activate", "cast")),
        ("17th", "Chains", ("pop", "agree_to_end", "activate", "activate_spell", "cast")),
    ],
)
def test_what_is_open_at_any_time(rs, edition, section, actions):
    anytime = rs[edition].setting("turn", "anytime")
    assert anytime.actions == actions and anytime.cite.section == section


@pytest.mark.parametrize(
    "edition,stats",
    [
        ("11th", ("offense", "defense")),
        ("12th", ("offense", "defense", "level")),
        ("13th", ("sp", "hp", "level")),
        ("17th", ("sp", "hp", "level")),
    ],
)
def test_recovery_resets_stats(rs, edition, stats):
    recovery = rs[edition].phases[-1]
    resets = [s for s in recovery.run if isinstance(s, ast.Reset)]
    assert resets and resets[0].stats == stats


@pytest.mark.parametrize(
    "edition,fatigue", [("11th", False), ("12th", True), ("17th", True)]
)
def test_recovery_respects_fatigue(rs, edition, fatigue):
    recovery = rs[edition].phases[-1]
    assert any(isinstance(s, ast.Unfatigue) for s in recovery.run) == fatigue


# --- Abilities and chains ------------------------------------------------------------


@pytest.mark.parametrize(
    "edition,chain", [("11th", False), ("12th", True), ("13th", True), ("17th", True)]
)
def test_chain_exists(rs, edition, chain):
    assert rs[edition].has_chain == chain


@pytest.mark.parametrize("edition", ["12th", "13th", "17th"])
def test_chain_rules(rs, edition):
    r = rs[edition]
    assert r.setting("chain", "respond").direction == "clockwise"
    assert r.setting("chain", "resolve_last_in_first_out") is not None
    assert r.setting("chain", "no_chaining_while_resolving") is not None
    assert "pop" in r.setting("chain", "chaining").actions


@pytest.mark.parametrize(
    "edition,inline", [("12th", False), ("13th", True), ("17th", True)]
)
def test_deployed_spells_resolve_inline(rs, edition, inline):
    assert (rs[edition].setting("chain", "deployed_spells_inline") is not None) == inline


@pytest.mark.parametrize(
    "edition,link_one", [("12th", False), ("13th", False), ("17th", True)]
)
def test_standard_activation_only_as_chain_link_1(rs, edition, link_one):
    cond = rs[edition].setting("actions", "standard_activation").cond
    text = repr(cond)
    assert ("chain" in text and "open" in text) == link_one


@pytest.mark.parametrize(
    "edition,mods",
    [
        ("12th", {"ghost_play"}),
        ("13th", {"ghost_play"}),
        ("17th", {"ghost_play", "hex_play"}),
    ],
)
def test_activation_modifiers(rs, edition, mods):
    assert set(rs[edition].modifiers) == mods


# --- Counters ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition,counters",
    [
        ("11th", {"plain", "offense", "defense", "named"}),
        (
            "12th",
            {
                "offense",
                "defense",
                "weakness",
                "damage",
                "exhaustion",
                "dice",
                "immortality",
            },
        ),
        ("13th", {"sword", "shield", "weakness", "damage", "exhaustion", "dice"}),
        (
            "17th",
            {
                "sword",
                "shield",
                "voodoo",
                "weakness",
                "damage",
                "exhaustion",
                "fatigue",
                "berzerk",
                "taunt",
                "medic",
                "assassin",
                "dice",
                "trap",
                "undying",
            },
        ),
    ],
)
def test_counter_list(rs, edition, counters):
    assert set(rs[edition].counters) == counters


def test_11th_named_counters_are_removed_for_their_stated_effect(rs):
    # the offense and defense counters the 11th edition's cards place: proactive,
    # removed by whoever placed them, each raising its stat (an interpretation)
    for name, stat in (("offense", "offense"), ("defense", "defense")):
        counter = rs["11th"].counters[name]
        assert counter.counter_kind == "proactive" and not counter.from_card
        assert counter.cite.interpretation
        (add,) = counter.body
        assert isinstance(add, ast.AddOp) and add.op == "add"
        assert add.target.parts == ("host", stat) and add.amount == ast.IntLit(1)


@pytest.mark.parametrize(
    "edition,kinds",
    [
        (
            "12th",
            {"dice": "reactive", "immortality": "reactive", "weakness": "proactive"},
        ),
        ("13th", {"shield": "reactive", "dice": "reactive", "sword": "proactive"}),
        (
            "17th",
            {
                "voodoo": "reactive",
                "taunt": "reactive",
                "berzerk": "proactive",
                "undying": "reactive",
                "fatigue": "proactive",
            },
        ),
    ],
)
def test_proactive_and_reactive(rs, edition, kinds):
    counters = rs[edition].counters
    assert {name: counters[name].counter_kind for name in kinds} == kinds


@pytest.mark.parametrize(
    "edition,effect",
    [
        ("12th", ast.AddOp("subtract", ast.IntLit(1), P("host.offense"))),
        ("13th", ast.AddOp("subtract", ast.IntLit(1), P("host.sp"))),
        ("17th", ast.SetOp(P("host.sp"), ast.IntLit(0))),
    ],
)
def test_weakness_counter(rs, edition, effect):
    assert rs[edition].counters["weakness"].body == (effect,)


def test_13th_shield_reduces_damage_by_2(rs):
    shield = rs["13th"].counters["shield"]
    assert shield.trigger.timing == "would" and shield.trigger.events == ("inflict",)
    assert shield.body == (
        ast.SetOp(
            P("event.amount"),
            ast.FuncCall(
                "max", (ast.Binary("-", P("event.amount"), ast.IntLit(2)), ast.IntLit(0))
            ),
        ),
    )


def test_17th_shield_zeroes_one_die(rs):
    shield = rs["17th"].counters["shield"]
    assert shield.body == (ast.SetOp(P("event.amount"), ast.IntLit(0)),)
    assert "die" in repr(shield.trigger.cond)


def test_17th_taunt_and_assassin_watch_attack_formation(rs):
    counters = rs["17th"].counters
    assert counters["taunt"].trigger.events == ("attack_formation",)
    assert counters["assassin"].body == (ast.Skip("defense_formation"),)


# --- Damage, battles ------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition,piercing", [("11th", False), ("12th", False), ("13th", True), ("17th", True)]
)
def test_piercing_damage_from_the_13th(rs, edition, piercing):
    inflict = rs[edition].keywords["inflict"]
    assert any(c.keyword == "pierce" for c in calls(inflict.body)) == piercing


def test_piercing_goes_to_the_controller(rs):
    pierce = rs["13th"].keywords["pierce"]
    (call,) = calls(pierce.body)
    assert call.keyword == "inflict_player" and call.args[0] == P("target.controller")


@pytest.mark.parametrize(
    "edition,steps",
    [
        (
            "11th",
            [
                "attack_formation",
                "defense_formation",
                "roll",
                "allocate",
                "leftover_attack",
                "leftover_defense",
            ],
        ),
        (
            "12th",
            ["attack_formation", "defense_formation", "battle_dice", "battle_damage"],
        ),
        ("13th", ["attack_formation", "defense_formation", "damage_allocation"]),
        ("17th", ["attack_formation", "defense_formation", "damage_allocation"]),
    ],
)
def test_battle_steps(rs, edition, steps):
    assert [s.name for s in rs[edition].battle_steps] == steps


@pytest.mark.parametrize(
    "edition,hits_attacker",
    [("11th", True), ("12th", True), ("13th", False), ("17th", False)],
)
def test_leftover_defender_dice_hit_the_attacking_player(rs, edition, hits_attacker):
    r = rs[edition]
    ops = [op for s in r.battle_steps for op in s.ops]
    assert ("leftover_defense" in ops) == hits_attacker
    # the part hits the attacking player, by the defender, when the victim is one
    body = unparse(r.battle_parts["leftover_defense"])
    assert "inflict_player(battle.attacker, leftover, none) by battle.defender" in body
    assert "battle.victim is player" in body


@pytest.mark.parametrize(
    "edition,from_13th",
    [("11th", False), ("12th", False), ("13th", True), ("17th", True)],
)
def test_leftover_attacker_dice(rs, edition, from_13th):
    # the victim, if still in the battle's zone; from the 13th, else the player who
    # controlled it there
    part = rs[edition].battle_parts["leftover_attack"]
    assert part.cite.edition == ("13th" if from_13th else "11th")
    assert ("target.last_controller" in unparse(part)) == from_13th


@pytest.mark.parametrize(
    "edition,who,dice",
    [
        ("11th", "owner", "offense"),
        ("12th", "owner", "offense"),
        ("13th", "controller", "sp"),
        ("17th", "controller", "sp"),
    ],
)
def test_defender_and_dice(rs, edition, who, dice):
    # who defends a minion victim: the `defender_of` term
    assert unparse_expr(rs[edition].terms["defender_of"].value) == f"v.{who}"
    assert rs[edition].setting("battle", "dice_per").stat == dice


@pytest.mark.parametrize("edition", EDITIONS)
def test_victims_once_per_battle_phase(rs, edition):
    # no one declared the victim since the phase began is a victim again, and the
    # attack's part keeps who was declared
    victims = unparse_expr(rs[edition].terms["victims"].value)
    assert victims.count("in game.victims") == 2
    assert "append declared to game.victims" in unparse(
        rs[edition].battle_parts["form_attack"])


def test_17th_withdraws_minions_that_leave(rs):
    # the 17th says so (Battles); before, the rulebooks are silent: an interpretation
    assert rs["17th"].setting("battle", "withdraw_on_leave").cite.interpretation is None
    for edition in ("11th", "12th", "13th"):
        assert rs[edition].setting("battle", "withdraw_on_leave").cite.interpretation


# --- Endgame ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["12th", "13th", "17th"])
def test_winner_criteria_order(rs, edition):
    assert [c.name for c in rs[edition].criteria] == [
        "not_decked",
        "most_hp",
        "most_levels",
        "largest_deck",
    ]
    assert rs[edition].criteria[0].keep and not rs[edition].criteria[1].keep


@pytest.mark.parametrize("edition", ["12th", "13th", "17th"])
def test_endgame_conditions_and_zombies(rs, edition):
    r = rs[edition]
    assert [c.name for c in r.end_conditions] == [
        "all_zero",
        "all_but_one",
        "decked",
        "agreement",
    ]
    assert r.setting("endgame", "hp_floor").floor == 0
    assert r.setting("endgame", "zombies_play_on") is not None


def test_11th_players_lose_and_leave(rs):
    r = rs["11th"]
    assert [c.name for c in r.lose_conditions] == ["hp_zero", "empty_deck", "forfeit"]
    assert r.setting("endgame", "zombies_play_on") is None


# --- Keywords -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition,present,absent",
    [
        (
            "12th",
            {"batch_add", "batch_subtract", "dice_damage", "silo", "deploy"},
            {"sheathe", "clone"},
        ),
        (
            "13th",
            {"sheathe", "self_bury", "self_sheathe", "pierce"},
            {"batch_add", "sacrifice", "dice_damage"},
        ),
        (
            "17th",
            {
                "clone",
                "conscript",
                "craft",
                "embody",
                "dice_burn",
                "dice_wound",
                "distract",
                "gift_summon",
                "negate_card",
                "pay_hp",
                "petrify",
            },
            {"batch_add"},
        ),
    ],
)
def test_keywords(rs, edition, present, absent):
    keywords = set(rs[edition].keywords)
    assert present <= keywords and not absent & keywords


@pytest.mark.parametrize(
    "edition,floor_keyword", [("12th", "down_level"), ("17th", "down_level")]
)
def test_down_level_lasts_until_recovery(rs, edition, floor_keyword):
    (op,) = rs[edition].keywords[floor_keyword].body
    assert op.op == "subtract" and op.until == "recovery"


def test_12th_draw_may_take_from_the_reserves(rs):
    text = repr(rs["12th"].keywords["draw"].body)
    assert "reserves" in text and "reserves" not in repr(rs["13th"].keywords["draw"].body)


def test_17th_terms_on_field_replaces_in_play(rs):
    assert "on_field" in rs["17th"].terms and "in_play" not in rs["17th"].terms
    assert "in_play" in rs["13th"].terms


# --- Legality -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition,slate", [("11th", None), ("12th", 12), ("13th", 13), ("17th", 13)]
)
def test_clean_slate_edition(rs, edition, slate):
    rule = rs[edition].setting("legality", "clean_slate")
    assert (rule.edition if rule else None) == slate


def test_17th_refurbished_texts(rs):
    table = {r.text: r.new for r in rs["17th"].legality(ast.Refurbish)}
    assert table == {
        "x of your resources": "x cards in your granary",
        "ghost-play, must pay resource cost": "hex-play",
        "in-play card": "on-field minion",
        "self-exhaust x minions": "self-exhaust x on-field minions",
        "summon x level y pawns": "craft x level y pawns",
        "this card as a resource": "this card in your granary",
        "When this on-field minion is damaged:": "When your on-field minion(s) is damaged:",  # noqa: E501
        "When this on-field minion is destroyed (ghost-play):": "When this card in your battlefield is destroyed (ghost-play):",  # noqa: E501
        "When your on-field minion(s) (excluding this card) is damaged:": "When your on-field minion(s) is damaged:",  # noqa: E501
    }


def test_17th_revised_levels(rs):
    revised = {r.text: r.edition for r in rs["17th"].legality(ast.RevisedLevel)}
    assert revised == {
        "See enemy's hand and target up to x cards therein": 16,
        "sheathe the targets": 16,
        "silo the targets": 16,
    }


def test_11th_lists(rs):
    r = rs["11th"]
    bans = [b.text for b in r.legality(ast.Ban)]
    assert len(bans) == 17 and "Pay [x] hitpoints." in bans
    assert len(r.legality(ast.Refurbish)) == 13
    assert all(x.verb == "revise" for x in r.legality(ast.Refurbish))
    costs = {c.text: c.edition for c in r.legality(ast.RevisedCost)}
    assert len(costs) == 10 and costs["Draw [x] cards."] == 9
    assert costs["Destroy all targets."] == 11


def test_12th_commented_out_lists_are_not_in_force(rs):
    r = rs["12th"]
    assert not r.legality(ast.Ban) and not r.legality(ast.Refurbish)
    assert all("Remove x counters" not in x.name for x in r.rules("legality"))


# --- Citations and inheritance ----------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_rule_cites_its_edition_and_section(rs, edition):
    r = rs[edition]
    for rule in r.rules():
        assert rule.cite is not None, rule.key
        assert rule.cite.section in r.contents[rule.cite.edition], rule.key


def test_interpretations_are_labelled(rs):
    step = next(s for s in rs["11th"].setup_steps if s.name == "first_player")
    assert step.cite.interpretation and "interpretation" in str(step.cite)


def test_lineage_and_inherited_citations(rs):
    r = rs["17th"]
    assert r.lineage == ("17th", "13th", "12th", "11th")
    assert r.counters["sword"].cite.edition == "13th"
    assert r.counters["voodoo"].cite.edition == "17th"
    assert r.zones["deck"].cite.edition == "11th"
