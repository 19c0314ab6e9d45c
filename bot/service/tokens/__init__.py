"""What a chat or a browser hands back, signed: button payloads and board passes."""
