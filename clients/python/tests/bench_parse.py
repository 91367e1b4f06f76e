"""CPU per step of percept parsing for a team of 20 agents (run once, by hand).

    python3 tests/bench_parse.py [--agents 20] [--steps 500]

Each step decodes and parses one recorded request-action frame per agent
(the frames of testdata/frames.jsonl, in turn) and reports the CPU time per
step: JSON decoding alone and decoding plus parse_message.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import List

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from massim import RequestAction, parse_message  # noqa: E402

FRAMES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "frames.jsonl")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--agents", type=int, default=20)
    ap.add_argument("--steps", type=int, default=500)
    args = ap.parse_args()
    raws: List[bytes] = []
    with open(FRAMES, encoding="utf-8") as f:
        for line in f:
            frame = json.loads(line)["frame"]
            if isinstance(parse_message(json.loads(frame)), RequestAction):
                raws.append(frame.encode())
    report("recorded request-actions", raws, args.agents, args.steps)
    report("a crowded view (a thing on each of the 61 cells, 30 markers)", [crowded()], args.agents, args.steps)


def crowded() -> bytes:
    """A request-action whose every visible cell holds a thing: the worst case of vision 5."""
    things = [{"x": x, "y": y, "type": "obstacle" if (x + y) % 3 else "block", "details": "" if (x + y) % 3 else "b1"}
              for x in range(-5, 6) for y in range(-5, 6) if abs(x) + abs(y) <= 5]
    things += [{"x": x, "y": 0, "type": "marker", "details": "clear"} for x in range(-5, 6)] * 3
    task = {"name": "task1", "deadline": 150, "reward": 40,
            "requirements": [{"x": 0, "y": 1, "type": "b1", "details": ""}, {"x": 0, "y": 2, "type": "b0", "details": ""}]}
    percept = {"score": 0, "lastAction": "move", "lastActionResult": "success", "lastActionParams": ["n"],
               "energy": 90, "deactivated": False, "role": "worker", "things": things, "attached": [[0, 1]],
               "goalZones": [[x, 2] for x in range(-3, 4)], "roleZones": [], "events": [], "tasks": [task] * 3,
               "norms": [], "violations": []}
    frame = {"type": "request-action", "content": {"id": 9, "time": 1, "deadline": 2, "step": 9, "percept": percept}}
    return json.dumps(frame, separators=(",", ":")).encode()


def report(what: str, raws: List[bytes], agents: int, steps: int) -> None:
    sizes = sorted(len(r) for r in raws)
    n = agents * steps

    start = time.process_time()
    for i in range(n):
        json.loads(raws[i % len(raws)])
    decode = time.process_time() - start

    start = time.process_time()
    for i in range(n):
        parse_message(json.loads(raws[i % len(raws)]))
    full = time.process_time() - start

    print(f"{what}: {len(raws)} frames of {sizes[0]}-{sizes[-1]} bytes; "
          f"{agents} agents x {steps} steps, Python {sys.version.split()[0]}")
    print(f"  JSON decoding:            {decode / steps * 1000:.3f} ms CPU per step")
    print(f"  decoding + parse_message: {full / steps * 1000:.3f} ms CPU per step "
          f"({full / n * 1e6:.1f} µs per percept)")


if __name__ == "__main__":
    main()
