"""A retired environment version (``dice_envs.RETIRED_ENVS``) is refused by every way in, with
an error that names the version replacing it, as PettingZoo refuses its retired versions."""

from __future__ import annotations

import pytest

import dice_envs
from dice_envs import RETIRED_ENVS, RetiredEnvError


@pytest.mark.parametrize("old", sorted(RETIRED_ENVS))
def test_a_retired_name_raises_an_error_naming_its_successor(old: str) -> None:
    new = RETIRED_ENVS[old]
    assert new in dice_envs.list_envs() and old not in dice_envs.list_envs()
    module = getattr(dice_envs, old)  # from dice_envs import <old>
    for create in (lambda: dice_envs.make(old), lambda: dice_envs.env_module(old), module.env, module.raw_env):
        with pytest.raises(RetiredEnvError, match=f"^{old} is retired: its behaviour changed in {new}; use {new} "):
            create()


def test_dice_age_v0_is_retired_for_v1() -> None:
    assert RETIRED_ENVS["dice_age_v0"] == "dice_age_v1"
    assert "dice_age_v0" in (dice_envs.dice_age_v1.__doc__ or "")
