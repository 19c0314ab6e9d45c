"""Getting posts out: the durable outbox, flood pacing, pictures drawn off the move path."""
