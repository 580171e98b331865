"""kotc for bot writers: integer actions, observations, explicit chance, fair copies.

`BotGame` is a game as a bot plays it (`kotc.bots.play`); `ActionSpace` and
`ActionSpec` the integer encoding of actions and their typed fields
(`kotc.bots.encoding`); `ObservationSpec` and `observation_string` what a seat
observes (`kotc.bots.observe`); `ExplicitChance` and `ChanceEvent` chance as
decisions (`kotc.bots.chance`); `Knowledge` and `resample` what a seat knows and
a game drawn from it (`kotc.bots.knowledge`, `kotc.bots.resample`).
`kotc.openspiel` and `kotc.pettingzoo` wrap `BotGame` for those frameworks.
"""

from .chance import ChanceEvent, ChanceNeeded, ExplicitChance
from .encoding import ActionSpace, ActionSpec
from .knowledge import Knowledge
from .observe import ObservationSpec, observation_string
from .play import CHANCE, EXPLICIT, SAMPLED, TERMINAL, BotGame, Table, outcome_returns
from .resample import resample, unknown_cards

__all__ = [
    "CHANCE", "EXPLICIT", "SAMPLED", "TERMINAL", "ActionSpace", "ActionSpec", "BotGame",
    "ChanceEvent", "ChanceNeeded", "ExplicitChance", "Knowledge", "ObservationSpec",
    "Table", "observation_string", "outcome_returns", "resample", "unknown_cards",
]
