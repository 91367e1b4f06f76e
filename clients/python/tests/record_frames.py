"""Records real frames from a massim-go server into tests/testdata/frames.jsonl.

Run against a server playing the demo config (team A of 10 agents):

    python3 tests/record_frames.py --port 12300

It plays the sample team as team A, keeps frames of agentA1 (the first
sim-start, request-actions showing every kind of percept content, sim-end,
bye), a failed login and status-responses, one JSON object per line:
{"name": what the frame shows, "frame": the frame re-encoded compactly, as the
server writes it}. The last line, the request-action of docs/protocol.md
(a hit event and a violation, which a short game rarely shows), is added by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import threading
from typing import Any, Dict, List, Set

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from massim import FrameSocket, Team  # noqa: E402
from massim.sample import Worker  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "frames.jsonl")


def raw_frame(sock: socket.socket, first: bytes) -> bytes:
    buf = bytearray()
    sock.sendall(first)
    while b"\0" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            break
        buf += chunk
    return bytes(buf.split(b"\0")[0])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=12300)
    args = ap.parse_args()
    kept: List[Dict[str, str]] = []
    seen: Set[str] = set()
    lock = threading.Lock()

    def keep(name: str, raw: bytes) -> None:
        with lock:
            if name not in seen:
                seen.add(name)
                kept.append({"name": name, "frame": raw.decode()})

    with socket.create_connection(("localhost", args.port)) as s:
        keep("status-response", raw_frame(s, b'{"type":"status-request","content":{}}\0'))
    with socket.create_connection(("localhost", args.port)) as s:
        keep("auth-response fail", raw_frame(s, b'{"type":"auth-request","content":{"user":"agentA1","pw":"wrong"}}\0'))

    original = FrameSocket.read_frame

    def recording(self: FrameSocket) -> Any:
        frame = original(self)
        if threading.current_thread().name == "agentA1":
            raw = json.dumps(frame, separators=(",", ":")).encode()
            kind = frame.get("type", "")
            if kind == "request-action":
                p = frame["content"]["percept"]
                step = frame["content"]["step"]
                if step == 0:
                    keep("request-action step 0", raw)
                for key in ("events", "norms", "violations", "attached", "goalZones", "roleZones"):
                    if p.get(key):
                        keep(f"request-action with {key}", raw)
                if p.get("lastActionResult", "success") not in ("success", ""):
                    keep("request-action after a failed action", raw)
                if any(t["type"] == "marker" for t in p.get("things", [])):
                    keep("request-action with markers", raw)
            else:
                keep(f"{kind} {frame.get('content', {}).get('result', '')}".strip(), raw)
        return frame

    setattr(FrameSocket, "read_frame", recording)
    team = Team("localhost", args.port, "A", "1", 10, lambda n, i, b: Worker(n, i, b, 10))
    team.run()
    with open(OUT, "w", encoding="utf-8") as f:
        for k in kept:
            f.write(json.dumps(k) + "\n")
    print(f"{len(kept)} frames in {OUT}: {', '.join(k['name'] for k in kept)}")


if __name__ == "__main__":
    main()
