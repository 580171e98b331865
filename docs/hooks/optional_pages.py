"""MkDocs hook: pages that other work adds to docs/ join the nav when present.

`simulation.md` (the simulation study's figures and charts) goes under Guides,
after the simulation guide; the build stays strict whether it is there or not.
"""

from __future__ import annotations

from pathlib import Path

OPTIONAL = {"simulation.md": ("Guides", "Simulation results")}


def on_config(config, **kwargs):  # noqa: ARG001 - MkDocs' hook signature
    docs = Path(config["docs_dir"])
    for page, (section, title) in OPTIONAL.items():
        if not (docs / page).is_file():
            continue
        for entry in config["nav"]:
            if isinstance(entry, dict) and section in entry:
                entry[section].append({title: page})
    return config
