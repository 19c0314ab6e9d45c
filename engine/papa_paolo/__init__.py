"""Papà Paolo (PAPA_PAOLO.md): an adaptation with components of our own design."""
