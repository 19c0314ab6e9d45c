"""What a game posts in its chats: its turns' messages, their buttons, board links, the animation."""
