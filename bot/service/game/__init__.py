"""One game as the service keeps it beside the engine's record: seats, turn state, phase, bank."""
