"""Training and evaluation: the Gymnasium single-agent view, MaskablePPO and masked DQN runs,
tournaments, trained policies as agents, and the ``dice-envs`` command line.

Importing ``training`` registers every game's single-agent view with Gymnasium::

    import gymnasium, training
    env = gymnasium.make("dice_envs/DinoHunt-v0", opponents={"cup_counter": 1})

Modules: ``single_agent`` (the view and its opponent pool), ``masked_dqn``, ``config`` (YAML
schema), ``train`` (run directories, callbacks, resume), ``tournament``, ``policy_agent``,
``cli``.  Only ``single_agent`` and ``cli`` load on import; the rest import torch.
"""

from training.single_agent import register_gymnasium_envs

register_gymnasium_envs()
