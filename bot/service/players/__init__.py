"""Players across chats: ratings, the rating board, a person's games."""
