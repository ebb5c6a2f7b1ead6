"""Age of Craft (``dice_envs.age_of_craft_v1``).

Modules import one way: data <- actions, state <- abilities <- validation <- rules <- encoding,
rendering, picture.  ``validation`` is imported here, whatever module is asked for, because it
installs ``AgeOfCraftState.validate``: the state's checks read ``state.py`` and the ability
table, so ``state.py`` cannot import them.
"""

from dice_envs.age_of_craft import validation as validation
