"""What every game needs once: the engine protocol, states, chance, encoding, rendering, the AEC adapter."""
