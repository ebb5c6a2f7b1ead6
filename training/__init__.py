"""Training and evaluation tools and the ``dice-envs`` command line.

So far: the command line with ``list``, ``match`` and ``demo``.  Training with MaskablePPO and
masked DQN comes with its issue.
"""
