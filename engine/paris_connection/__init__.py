"""Paris Connection rules engine (Queen Games 2011; PARIS_CONNECTION.md): pure Python, no I/O.

``definition.GAME`` is the game behind the interface (engine/interface.py); ``board`` is our
own map of France; ``view`` holds what a seat may see.
"""
