"""Game engines: pure Python, no I/O, no global randomness.

``engine.interface`` is what every game provides; ``engine.registry`` lists the games;
each game is a package (``engine.paris_paris``). ``python -m engine replay FILE`` replays
any game's record; ``python -m engine.bench`` measures every game.
"""
