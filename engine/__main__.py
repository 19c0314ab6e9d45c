"""``python -m engine replay FILE``: replay any game's record and print its result as JSON.

The record's ``format`` picks the game (engine/registry.py).

Exit status 0 with the result on stdout; 2 with one line on stderr naming the move
index and the rule when the record breaks a rule or is not a valid record (1 when the
file cannot be read).
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import InvalidRecord
from .registry import DEFAULT_GAME, GAMES, by_record_format


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="replay a JSON game record and print the result")
    replay.add_argument("file", help="path of the record, or - for standard input")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        _say(f"cannot read record: {exc}")
        return 1
    try:
        record = json.loads(text)
    except (ValueError, RecursionError) as exc:
        _say(f"setup: the record is not valid JSON ({exc}) [rule: malformed]")
        return 2
    # Records written before there were several games carry no format: they are Paris Paris's.
    fmt = record.get("format", GAMES.record_format(DEFAULT_GAME)) if isinstance(record, dict) else None
    definition = by_record_format(fmt)      # imports that game's engine only
    if definition is None:
        formats = ", ".join(GAMES.record_format(game_id) for game_id in GAMES)
        _say(f"setup: unknown record format {_shown(record)}; this tool reads {formats} [rule: format]")
        return 2
    try:
        match = definition.from_record(record)
    except InvalidRecord as exc:
        _say(f"{exc} [rule: {exc.rule}]")
        return 2
    json.dump(definition.result(match), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _shown(record: object) -> str:
    fmt = record.get("format") if isinstance(record, dict) else None
    return repr(fmt)[:60] if isinstance(fmt, str) else ("(none)" if fmt is None else "(not text)")


def _say(message: str) -> None:
    """One line on stderr, whatever the names and values in the message hold."""
    print(" ".join(message.split()), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
