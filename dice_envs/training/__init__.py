"""Learning: the YAML config schema, the backend-neutral trainer, the Gymnasium single-agent view
and its opponent pool, Stable-Baselines3 (``sb3``) and RLlib (``rllib``) backends, and
distillation of a search into a policy.  Everything here needs the ``train`` extra; the
single-agent view's Gymnasium ids are registered by ``import dice_envs``.
"""
