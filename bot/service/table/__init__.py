"""A table's life in a chat: lobby, moves and AI seats, timers, players away, the chat's settings."""
