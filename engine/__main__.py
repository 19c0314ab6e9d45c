"""``python -m engine replay FILE``: replay a game record and print its result as JSON.

Exit status 0 with the result on stdout; 2 with one line on stderr naming the move
index and the rule when the record breaks a rule (1 when the file cannot be read).
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import InvalidRecord
from .record import from_record, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="replay a JSON game record and print the result")
    replay.add_argument("file", help="path of the record, or - for standard input")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            record = json.load(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as f:
                record = json.load(f)
    except (OSError, json.JSONDecodeError) as exc:
        print(f"cannot read record: {exc}", file=sys.stderr)
        return 1
    try:
        game = from_record(record)
    except InvalidRecord as exc:
        print(f"{exc} [rule: {exc.rule}]", file=sys.stderr)
        return 2
    json.dump(result(game), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
