"""The resolved ruleset of one edition: plain data, no textX, picklable.

A `Ruleset` holds every rule of an edition after `extends` is resolved, by
section, in rulebook order. The properties below are the typed views the
interpreter and the CLI read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, TypeVar, overload

from . import ast
from .types import PLAYER_ATTRS

R = TypeVar("R", bound=ast.Rule)

# a numbered rule: its heading's number, then its own parts (`407.4a`, `101.1`)
_RULE_NUMBER = re.compile(r"^(\d+)(?:\.[0-9a-z.]*[0-9a-z])?$")


@dataclass
class Ruleset:
    """An edition's rules, its own and those it inherits, by section and key."""

    name: str
    number: int
    game: str  # the game the rules are of, named by the base-most file
    source: str | None
    summary: str | None
    lineage: tuple[str, ...]
    files: tuple[str, ...]
    contents: dict[str, tuple[str, ...]]
    sections: dict[str, dict[str, ast.Rule]] = field(default_factory=dict)
    origin: ast.Origin = ast.NOWHERE
    # the rules a later edition removed and none put back, by `section key`: what
    # an edition does not have is cited where it was dropped
    removals: dict[str, ast.Removal] = field(default_factory=dict)

    # --- generic access ----------------------------------------------------------

    def rules(self, section: str | None = None) -> list[ast.Rule]:
        """The rules of one section, or of all sections, in order."""
        if section is not None:
            return list(self.sections.get(section, {}).values())
        return [r for s in ast.SECTIONS for r in self.sections.get(s, {}).values()]

    def get(self, section: str, key: str) -> ast.Rule | None:
        return self.sections.get(section, {}).get(key)

    def cites(self, edition: str, section: str) -> bool:
        """Whether `section` is a citable place of `edition`'s rulebook: one of its
        `contents` headings, or a numbered rule under one (`"411"` or `"411.4a"`
        under the heading `"411 Zones"`), for a rulebook whose rules are
        numbered. True where the edition lists no contents."""
        contents = self.contents.get(edition, ())
        if not contents or section in contents:
            return True
        number = _RULE_NUMBER.match(section)
        return number is not None and any(
            h == number[1] or h.startswith(number[1] + " ") for h in contents)

    def _of(self, section: str, cls: type[R]) -> dict[str, R]:
        return {r.name: r for r in self.rules(section) if isinstance(r, cls)}

    # A setting's name picks its rule's class (the `setting` each class of `ast`
    # names): one overload per setting, so a caller gets that class back and a
    # misspelt name is a type error (tests/dsl/test_ruleset_types.py keeps the two
    # in step).
    @overload
    def setting(self, section: str, name: Literal["players"]
                ) -> ast.PlayersRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["deck_size"]
                ) -> ast.DeckSizeRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["reserves"]
                ) -> ast.ReservesRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["ultra_points"]
                ) -> ast.UltraPointsRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["copies"]
                ) -> ast.CopiesRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["edition_indicator"]
                ) -> ast.IndicatorRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["starting_hp"]
                ) -> ast.StartingHpRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["cost"]
                ) -> ast.CostRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["ultra_points_stat"]
                ) -> ast.UltraPointsStat | None: ...
    @overload
    def setting(self, section: str, name: Literal["pawns"]
                ) -> ast.PawnRule | None: ...
    @overload
    def setting(self, section: str, name: Literal["next_turn"]
                ) -> ast.TurnPassing | None: ...
    @overload
    def setting(self, section: str, name: Literal["anytime"]
                ) -> ast.Anytime | None: ...
    @overload
    def setting(self, section: str, name: Literal["standard_activation"]
                ) -> ast.StandardActivation | None: ...
    @overload
    def setting(self, section: str, name: Literal["used_by_last_controller"]
                ) -> ast.UsedBy | None: ...
    @overload
    def setting(self, section: str, name: Literal["unpayable_costs_not_offered"]
                ) -> ast.UnpayableCosts | None: ...
    @overload
    def setting(self, section: str, name: Literal["dice_per"]
                ) -> ast.DicePer | None: ...
    @overload
    def setting(self, section: str, name: Literal["record"]
                ) -> ast.BattleRecord | None: ...
    @overload
    def setting(self, section: str, name: Literal["step_windows"]
                ) -> ast.StepWindows | None: ...
    @overload
    def setting(self, section: str, name: Literal["simultaneous_steps"]
                ) -> ast.SimultaneousSteps | None: ...
    @overload
    def setting(self, section: str, name: Literal["drop_leavers"]
                ) -> ast.DropLeavers | None: ...
    @overload
    def setting(self, section: str, name: Literal["chaining"]
                ) -> ast.ChainingActions | None: ...
    @overload
    def setting(self, section: str, name: Literal["targets_on_activation"]
                ) -> ast.TargetsOnActivation | None: ...
    @overload
    def setting(self, section: str, name: Literal["new_chain_after_resolving"]
                ) -> ast.NewChainAfterResolving | None: ...
    @overload
    def setting(self, section: str, name: Literal["respond"]
                ) -> ast.ResponseOrder | None: ...
    @overload
    def setting(self, section: str, name: Literal["resolve_last_in_first_out"]
                ) -> ast.ResolutionOrder | None: ...
    @overload
    def setting(self, section: str, name: Literal["no_chaining_while_resolving"]
                ) -> ast.NoChainWhileResolving | None: ...
    @overload
    def setting(self, section: str, name: Literal["deployed_spells_inline"]
                ) -> ast.DeployedInline | None: ...
    @overload
    def setting(self, section: str, name: Literal["popped_while_resolving"]
                ) -> ast.PoppedWhileResolving | None: ...
    @overload
    def setting(self, section: str, name: Literal["step_order"]
                ) -> ast.SetupOrder | None: ...
    @overload
    def setting(self, section: str, name: Literal["popped_by_placer"]
                ) -> ast.PoppedBy | None: ...
    @overload
    def setting(self, section: str, name: Literal["counters_on"]
                ) -> ast.CounterHosts | None: ...
    @overload
    def setting(self, section: str, name: Literal["hp_floor"]
                ) -> ast.HpFloor | None: ...
    @overload
    def setting(self, section: str, name: Literal["zombies_play_on"]
                ) -> ast.Zombies | None: ...
    @overload
    def setting(self, section: str, name: Literal["clean_slate"]
                ) -> ast.CleanSlate | None: ...
    @overload
    def setting(self, section: str, name: Literal["texts_match"]
                ) -> ast.TextsMatch | None: ...
    @overload
    def setting(self, section: str, name: Literal["sub_abilities"]
                ) -> ast.SubAbilities | None: ...
    @overload
    def setting(self, section: str, name: Literal["clauses"]
                ) -> ast.Clauses | None: ...

    def setting(self, section: str, name: str) -> ast.Rule | None:
        """A setting rule (`deck_size`, `starting_hp`...) or None where absent."""
        return self.get(section, f"setting {name}")

    # --- typed views -------------------------------------------------------------

    @property
    def piles(self) -> dict[str, ast.PileRule]:
        """The named piles a deck list may hold beside its main cards, the reserves
        (`reserves size ...`) among them, as the pile named `reserves`."""
        piles = self._of("setup", ast.PileRule)
        reserves = self.setting("setup", "reserves")
        if reserves is not None:
            piles.setdefault("reserves", ast.PileRule.of_reserves(reserves))
        return piles

    @property
    def zones(self) -> dict[str, ast.Zone]:
        return self._of("zones", ast.Zone)

    @property
    def stats(self) -> dict[str, ast.Stat]:
        return self._of("cards", ast.Stat)

    @property
    def tags(self) -> dict[str, ast.Tag]:
        return self._of("cards", ast.Tag)

    @property
    def card_types(self) -> dict[str, ast.CardType]:
        return self._of("cards", ast.CardType)

    @property
    def kept_lists(self) -> dict[str, ast.Kept]:
        """The lists the game keeps, each emptied as each phase begins."""
        return self._of("turn", ast.Kept)

    @property
    def phases(self) -> list[ast.Phase]:
        return [r for r in self.rules("turn") if isinstance(r, ast.Phase)]

    @property
    def actions(self) -> dict[str, ast.Action]:
        return self._of("actions", ast.Action)

    @property
    def modifiers(self) -> dict[str, ast.Modifier]:
        return self._of("actions", ast.Modifier)

    @property
    def setup_steps(self) -> list[ast.SetupStep]:
        return [r for r in self.rules("setup") if isinstance(r, ast.SetupStep)]

    @property
    def battle_parts(self) -> dict[str, ast.BattlePart]:
        """The programs battle steps do, by name."""
        return {r.name: r for r in self.rules("battle") if isinstance(r, ast.BattlePart)}

    @property
    def battle_record(self) -> ast.BattleRecord | None:
        """The fields a battle keeps, with the rule's citation (its end's)."""
        return self.setting("battle", "record")

    @property
    def battle_steps(self) -> list[ast.BattleStep]:
        return [r for r in self.rules("battle") if isinstance(r, ast.BattleStep)]

    @property
    def checks(self) -> list[ast.Check]:
        """The checks made before any player is asked, in the order written."""
        return [r for r in self.rules("checks") if isinstance(r, ast.Check)]

    @property
    def limits(self) -> dict[str, ast.Limit]:
        """The bounds this edition states (the rest are kotc's: `kotc.dsl.limits`)."""
        return self._of("limits", ast.Limit)

    def safety_limit(self, what: str) -> tuple[ast.Citation, ast.Origin]:
        """What a game ended by the engine's safety limit on turns or decisions cites,
        and where: the ruleset's own cap (`limit turns N`) where it states one, else
        the limit as kotc's, under the endgame."""
        cap = self.limits.get(what)
        if cap is not None and cap.cite is not None:
            return cap.cite, cap.origin
        kotc_own = ast.Citation("Endgame", f"a safety limit on {what}", self.name)
        return kotc_own, self.origin

    @property
    def counters(self) -> dict[str, ast.Counter]:
        return self._of("counters", ast.Counter)

    @property
    def keywords(self) -> dict[str, ast.Keyword]:
        return self._of("keywords", ast.Keyword)

    @property
    def terms(self) -> dict[str, ast.Term]:
        return self._of("keywords", ast.Term)

    @property
    def events(self) -> dict[str, ast.EventDecl]:
        return self._of("events", ast.EventDecl)

    @property
    def end_conditions(self) -> list[ast.EndCondition]:
        return [r for r in self.rules("endgame") if isinstance(r, ast.EndCondition)]

    @property
    def lose_conditions(self) -> list[ast.LoseCondition]:
        return [r for r in self.rules("endgame") if isinstance(r, ast.LoseCondition)]

    @property
    def criteria(self) -> list[ast.Criterion]:
        return [r for r in self.rules("endgame") if isinstance(r, ast.Criterion)]

    @property
    def phrases(self) -> list[ast.Phrase]:
        return [r for r in self.rules("phrases") if isinstance(r, ast.Phrase)]

    @property
    def invariants(self) -> list[ast.Invariant]:
        return [r for r in self.rules("invariants") if isinstance(r, ast.Invariant)]

    @property
    def concessions(self) -> set[str]:
        """Actions by which a player gives the game up: they emit an event an end or
        lose condition waits for, or one that sets a player's flag (`agreed`). The
        engine offers them only to the active player in its phase windows, so no
        player is asked at every step whether to give up."""
        watched = {c.event for c in self.end_conditions + self.lose_conditions if c.event}
        flags = {name for name, kind in PLAYER_ATTRS.items() if kind == "bool"}
        return {
            a.name
            for a in self.actions.values()
            if any(
                isinstance(s, ast.Emit) and (s.event in watched or s.event in flags)
                for s in a.body
            )
        }

    @property
    def has_chain(self) -> bool:
        """Whether the edition has a chain at all (the 11th does not)."""
        return bool(self.sections.get("chain"))

    def removal(self, section: str, key: str) -> ast.Removal | None:
        """The rule that removed an inherited rule (`setup`, `setting reserves`), if
        the edition lacks it for that reason."""
        return self.removals.get(f"{section} {key}")

    def legality(self, cls: type[R]) -> list[R]:
        return [r for r in self.rules("legality") if isinstance(r, cls)]

    def __repr__(self) -> str:
        return f"<Ruleset {self.name} ({len(self.rules())} rules)>"
