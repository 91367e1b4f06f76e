"""The sample team: ``python3 -m massim.team --host H --port P --team A --password PW --count N``.

Every agent adopts a role that may request, attach and submit (in a role
zone), fetches a block a 1-block task needs from a dispenser, carries it to a
goal zone, turns it to where the task wants it and submits.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import List, Optional

from .connection import AuthError, ServerUnavailable
from .runner import Blackboard, Team
from .sample import Worker


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m massim.team", description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="localhost")
    ap.add_argument("--port", type=int, default=12300)
    ap.add_argument("--team", default="A")
    ap.add_argument("--prefix", default="agent", help="account prefix: accounts are PREFIX+TEAM+1 … (default agent)")
    ap.add_argument("--password", default="1")
    ap.add_argument("--count", type=int, default=10, help="agents to run (default 10)")
    ap.add_argument("--give-up", type=float, default=30.0,
                    help="seconds to keep dialling an absent server before failing (default 30)")
    ap.add_argument("--log-level", default="WARNING", help="DEBUG, INFO, WARNING (default), ERROR")
    args = ap.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")

    def make(name: str, index: int, board: Blackboard) -> Worker:
        return Worker(name, index, board, args.count)

    team = Team(args.host, args.port, args.team, args.password, args.count, make,
                prefix=args.prefix, give_up_after=args.give_up)
    try:
        team.run()
    except (AuthError, ServerUnavailable) as e:
        print(f"massim.team: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
