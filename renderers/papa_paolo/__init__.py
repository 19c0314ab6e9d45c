"""Pictures and words for a game of Papà Paolo.

Pictures (PNG bytes, Pillow): the shared board after a round (board.py, public view only), one
seat's own neighbourhood while it chooses (hoodimage.py, that seat's view), the final image
(final.py). Words: text.py; the bot's interface: presenter.py (``PRESENTER``).
"""
