"""kotc.dsl: the rules language, in which each edition of a card game is written.

Load an edition with `load_edition(name_or_path)`; the result is a plain,
validated, picklable `Ruleset`. Problems raise `RulesetError`, whose
`diagnostics` each read `file:line:col: message`.
"""

from .errors import Diagnostic, RulesetError
from .load import check_paths, edition_files, find_edition, load_edition, load_path
from .ruleset import Ruleset

__all__ = [
    "Diagnostic", "Ruleset", "RulesetError", "check_paths", "edition_files",
    "find_edition", "load_edition", "load_path",
]
