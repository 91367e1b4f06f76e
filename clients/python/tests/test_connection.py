"""The connection against a scripted fake server: login errors, bye, reconnection."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
import unittest
from typing import Any, Callable, Dict, List, Optional

import massim
from massim import AgentConnection, AuthError, Behaviour, RequestAction, ServerUnavailable, SimEnd, SimStart

Script = Callable[["Peer", int], None]


class Peer:
    """One accepted connection of the fake server."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""

    def send(self, type: str, content: Dict[str, Any]) -> None:
        self.sock.sendall(json.dumps({"type": type, "content": content}).encode() + b"\0")

    def read(self) -> Dict[str, Any]:
        while b"\0" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise EOFError
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        out: Dict[str, Any] = json.loads(raw)
        return out

    def login(self, ok: bool = True) -> Dict[str, Any]:
        req = self.read()
        self.send("auth-response", {"result": "ok" if ok else "fail"})
        return req


class FakeServer:
    """Accepts connections and runs ``script(peer, n)`` for the n-th (from 0)."""

    def __init__(self, script: Script) -> None:
        self.lsock = socket.socket()
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen()
        self.port = self.lsock.getsockname()[1]
        self.script = script
        self.accepted = 0
        self.errors: List[BaseException] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.lsock.accept()
            except OSError:
                return
            n = self.accepted
            self.accepted += 1
            try:
                self.script(Peer(conn), n)
            except BaseException as e:  # noqa: BLE001 - reported by the test
                self.errors.append(e)
            finally:
                conn.close()

    def close(self) -> None:
        self.lsock.close()


logging.getLogger("massim").setLevel(logging.CRITICAL)  # the tests provoke warnings

PERCEPT = {"name": "agentA1", "team": "A", "teamSize": 1, "steps": 3, "roles": []}


class Recorder(Behaviour):
    def __init__(self) -> None:
        self.events: List[str] = []

    def sim_start(self, start: SimStart) -> None:
        self.events.append(f"start {start.time}")

    def resume(self, start: SimStart) -> None:
        self.events.append(f"resume {start.time}")

    def act(self, request: RequestAction) -> massim.Action:
        self.events.append(f"act {request.id}")
        return massim.move("n")

    def sim_end(self, end: SimEnd) -> None:
        self.events.append(f"end {end.score}")

    def bye(self) -> None:
        self.events.append("bye")


def conn(server: FakeServer, give_up: Optional[float] = 2.0) -> AgentConnection:
    return AgentConnection("127.0.0.1", server.port, "agentA1", "1", give_up_after=give_up,
                           backoff_initial=0.01, backoff_max=0.05)


class Connection(unittest.TestCase):
    def test_wrong_password_raises_without_retrying(self) -> None:
        def script(p: Peer, n: int) -> None:
            p.login(ok=False)

        srv = FakeServer(script)
        with self.assertRaises(AuthError):
            conn(srv).run(Behaviour())
        time.sleep(0.1)
        self.assertEqual(srv.accepted, 1)
        srv.close()

    def test_closed_server_raises_server_unavailable(self) -> None:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()  # nothing listens there
        start = time.monotonic()
        with self.assertRaises(ServerUnavailable):
            AgentConnection("127.0.0.1", port, "agentA1", "1", give_up_after=0.3, backoff_initial=0.01).run(Behaviour())
        self.assertLess(time.monotonic() - start, 5)

    def test_bye_ends_without_reconnecting(self) -> None:
        def script(p: Peer, n: int) -> None:
            self.assertEqual(p.login(), {"type": "auth-request", "content": {"user": "agentA1", "pw": "1"}})
            p.send("sim-start", {"time": 5, "percept": PERCEPT})
            p.send("request-action", {"id": 0, "time": 1, "deadline": 2, "step": 0, "percept": {}})
            self.assertEqual(p.read(), {"type": "action", "content": {"id": 0, "type": "move", "p": ["n"]}})
            p.send("sim-end", {"time": 9, "score": 30, "ranking": 1})
            p.send("bye", {})

        srv = FakeServer(script)
        b = Recorder()
        conn(srv).run(b)
        self.assertEqual(b.events, ["start 5", "act 0", "end 30", "bye"])
        time.sleep(0.1)
        self.assertEqual(srv.accepted, 1)
        self.assertEqual(srv.errors, [])
        srv.close()

    def test_reconnection_resumes_and_answers_the_request_sent_again(self) -> None:
        def script(p: Peer, n: int) -> None:
            p.login()
            p.send("sim-start", {"time": 5, "percept": PERCEPT})
            p.send("request-action", {"id": 7, "time": 1, "deadline": 2, "step": 0, "percept": {}})
            if n == 0:
                return  # the connection breaks before the answer arrives
            self.assertEqual(p.read()["content"]["id"], 7)
            p.send("request-action", {"id": 8, "time": 1, "deadline": 2, "step": 1, "percept": {}})
            self.assertEqual(p.read()["content"]["id"], 8)
            p.send("bye", {})

        srv = FakeServer(script)
        b = Recorder()
        c = conn(srv)
        c.run(b)
        self.assertEqual(srv.errors, [])
        self.assertEqual(srv.accepted, 2)
        self.assertEqual(c.logins, 2)
        self.assertEqual(b.events[:2], ["start 5", "act 7"])
        self.assertIn("resume 5", b.events)
        self.assertEqual(b.events[-2:], ["act 8", "bye"])
        self.assertEqual(b.events.count("act 7"), 1, "the answer to 7 is sent again, not thought again")
        srv.close()

    def test_a_raising_act_answers_skip_at_once(self) -> None:
        # The server sends the next request only after an answer: a
        # connection that answered nothing would hang this script (the
        # socket's read times out and the test fails).
        def script(p: Peer, n: int) -> None:
            p.login()
            p.sock.settimeout(5)
            p.send("sim-start", {"time": 5, "percept": PERCEPT})
            for i in range(3):
                p.send("request-action", {"id": i, "time": 1, "deadline": 2, "step": i, "percept": {}})
                answers.append(p.read()["content"])
            p.send("bye", {})

        class Buggy(Behaviour):
            def act(self, request: RequestAction) -> massim.Action:
                if request.step == 1:
                    return massim.move("n")
                raise KeyError("a bug in the team's code")

        answers: List[Dict[str, Any]] = []
        srv = FakeServer(script)
        conn(srv).run(Buggy())
        self.assertEqual(srv.errors, [])
        self.assertEqual([(a["id"], a["type"]) for a in answers], [(0, "skip"), (1, "move"), (2, "skip")])
        srv.close()

    def test_a_raising_act_answers_what_is_configured(self) -> None:
        def script(p: Peer, n: int) -> None:
            p.login()
            p.sock.settimeout(5)
            p.send("sim-start", {"time": 5, "percept": PERCEPT})
            p.send("request-action", {"id": 0, "time": 1, "deadline": 2, "step": 0, "percept": {}})
            answers.append(p.read()["content"])
            p.send("request-action", {"id": 1, "time": 1, "deadline": 2, "step": 1, "percept": {}})
            p.send("bye", {})

        class Buggy(Behaviour):
            def act(self, request: RequestAction) -> massim.Action:
                raise ValueError("a bug")

        answers: List[Dict[str, Any]] = []
        srv = FakeServer(script)
        AgentConnection("127.0.0.1", srv.port, "agentA1", "1", give_up_after=2.0,
                        on_act_error=massim.no_action()).run(Buggy())
        self.assertEqual(answers, [{"id": 0, "type": "no_action", "p": []}])
        srv.close()

        # None: no answer at all (the server waits for its deadline).
        def silent(p: Peer, n: int) -> None:
            p.login()
            p.sock.settimeout(0.3)
            p.send("sim-start", {"time": 5, "percept": PERCEPT})
            p.send("request-action", {"id": 0, "time": 1, "deadline": 2, "step": 0, "percept": {}})
            try:
                answers.append(p.read())
            except socket.timeout:
                pass
            p.send("bye", {})

        answers = []
        srv = FakeServer(silent)
        AgentConnection("127.0.0.1", srv.port, "agentA1", "1", give_up_after=2.0, on_act_error=None).run(Buggy())
        self.assertEqual(answers, [])
        self.assertEqual(srv.errors, [])
        srv.close()

        # The team runner passes it on.
        team = massim.Team("127.0.0.1", 1, "A", "1", 2, lambda name, i, board: Buggy(), on_act_error=None)
        self.assertEqual([c.on_act_error for c in team.connections], [None, None])

    def test_status_request_on_the_agent_connection(self) -> None:
        def script(p: Peer, n: int) -> None:
            p.login()
            p.send("request-action", {"id": 0, "time": 1, "deadline": 2, "step": 0, "percept": {}})
            self.assertEqual(p.read()["type"], "status-request")
            p.send("status-response", {"time": 1, "teams": ["A", "B"], "teamSizes": [10], "currentSimulation": 0})
            self.assertEqual(p.read()["type"], "action")
            p.send("bye", {})

        class Asker(Recorder):
            def __init__(self, c: AgentConnection) -> None:
                super().__init__()
                self.c = c

            def act(self, request: RequestAction) -> massim.Action:
                self.c.request_status()
                return super().act(request)

            def status(self, status: massim.StatusResponse) -> None:
                self.events.append(f"status {status.teams}")

        srv = FakeServer(script)
        c = conn(srv)
        b = Asker(c)
        c.run(b)
        self.assertEqual(srv.errors, [])
        self.assertIn("status ['A', 'B']", b.events)
        srv.close()

    def test_status_query(self) -> None:
        def script(p: Peer, n: int) -> None:
            self.assertEqual(p.read()["type"], "status-request")
            p.send("status-response", {"time": 1, "teams": ["A"], "teamSizes": [2], "currentSimulation": 0})

        srv = FakeServer(script)
        s = massim.query_status("127.0.0.1", srv.port)
        self.assertEqual((s.teams, s.team_sizes, s.current_simulation), (["A"], [2], 0))
        srv.close()


class Board(unittest.TestCase):
    def test_update_is_atomic(self) -> None:
        board = massim.Blackboard()

        def bump() -> None:
            for _ in range(1000):
                board.update("n", lambda v: int(v) + 1, 0)

        threads = [threading.Thread(target=bump) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(board.get("n"), 4000)


if __name__ == "__main__":
    unittest.main()
