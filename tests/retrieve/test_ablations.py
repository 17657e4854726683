"""The retriever ablations: each variant is a valid change of the settings."""

from __future__ import annotations

import pytest

from littrace.config import load_settings
from littrace.retrieve.ablations import ABLATIONS
from littrace.retrieve.run import apply_overrides


def test_every_ablation_is_a_valid_settings_override() -> None:
    settings = load_settings(environ={})
    for overrides in ABLATIONS.values():
        changed = apply_overrides(settings, overrides)
        for dotted, value in overrides.items():
            node = changed
            for part in dotted.split("."):
                node = getattr(node, part)
            assert node == value
    with pytest.raises(KeyError, match="no_such"):
        apply_overrides(settings, {"retrieve.no_such": 1})
