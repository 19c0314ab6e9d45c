"""Write the gallery of example images: ``python -m renderers.gallery [folder]``.

Every game's sample pictures (its ``samples.gallery``), each from a seeded game, so the gallery
is reproducible; the default folder is docs/gallery/.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .registry import sample_modules


def pictures():
    """(file name, PNG bytes) for each gallery picture of every game."""
    for samples in sample_modules().values():
        yield from samples.gallery()


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "docs" / "gallery"
    folder.mkdir(parents=True, exist_ok=True)
    for name, png in pictures():
        (folder / name).write_bytes(png)
        print(f"{folder / name}  {len(png) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
