"""Parsing every message type from frames recorded from massim-go (testdata/frames.jsonl)."""

from __future__ import annotations

import json
import os
import unittest
from typing import Dict

import massim
from massim import (AuthResponse, Bye, RequestAction, SimEnd, SimStart, StatusResponse, Unknown,
                    parse_message)

FRAMES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "frames.jsonl")


def load() -> Dict[str, object]:
    out: Dict[str, object] = {}
    with open(FRAMES, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            out[rec["name"]] = json.loads(rec["frame"])
    return out


class RecordedFrames(unittest.TestCase):
    frames = load()

    def msg(self, name: str) -> massim.Message:
        return parse_message(self.frames[name])

    def test_every_message_type_is_recorded_and_parses(self) -> None:
        kinds = {type(parse_message(f)).__name__ for f in self.frames.values()}
        self.assertEqual(kinds, {"AuthResponse", "SimStart", "RequestAction", "SimEnd", "Bye", "StatusResponse"})

    def test_auth_responses(self) -> None:
        ok, fail = self.msg("auth-response ok"), self.msg("auth-response fail")
        assert isinstance(ok, AuthResponse) and isinstance(fail, AuthResponse)
        self.assertTrue(ok.ok)
        self.assertFalse(fail.ok)
        self.assertEqual(fail.result, "fail")

    def test_status_response(self) -> None:
        s = self.msg("status-response")
        assert isinstance(s, StatusResponse)
        self.assertEqual(s.team_sizes, [10])
        self.assertGreater(s.time, 0)
        self.assertIn(s.current_simulation, (-1, 0))

    def test_sim_start(self) -> None:
        s = self.msg("sim-start")
        assert isinstance(s, SimStart)
        p = s.percept
        self.assertEqual((p.name, p.team, p.team_size), ("agentA1", "A", 10))
        self.assertGreater(p.steps, 0)
        self.assertEqual([r.name for r in p.roles], ["default", "worker", "constructor", "explorer", "digger"])
        worker = p.role("worker")
        assert worker is not None
        self.assertIn("submit", worker.actions)
        self.assertEqual(worker.speed, [2, 1, 1, 0])
        self.assertEqual(worker.speed_with(1), 1)
        self.assertAlmostEqual(p.roles[0].clear_chance, 0.7)
        self.assertEqual(p.roles[0].clear_max_distance, 1)
        self.assertEqual(p.extra, {})

    def test_request_actions(self) -> None:
        for name, frame in self.frames.items():
            m = parse_message(frame)
            if not isinstance(m, RequestAction):
                continue
            with self.subTest(name):
                raw = frame["content"]["percept"]  # type: ignore[index]
                p = m.percept
                self.assertEqual(m.deadline > m.time, True)
                self.assertEqual(len(p.things), len(raw["things"]))
                self.assertIn((0, 0), [t.pos for t in p.things_of("entity")])
                self.assertEqual(p.attached, [tuple(a) for a in raw["attached"]])
                self.assertEqual(p.goal_zones, [tuple(a) for a in raw["goalZones"]])
                self.assertEqual(p.role_zones, [tuple(a) for a in raw["roleZones"]])
                self.assertEqual([t.name for t in p.tasks], [t["name"] for t in raw["tasks"]])
                self.assertEqual([n.name for n in p.norms], [n["name"] for n in raw["norms"]])
                self.assertEqual(p.violations, raw["violations"])
                self.assertEqual(p.last_action_params, raw["lastActionParams"])
                self.assertEqual((p.energy, p.role, p.score), (raw["energy"], raw["role"], raw["score"]))
                self.assertIsNone(p.absolute_position)
                self.assertEqual(p.extra, {})

    def test_step_zero_has_empty_last_action(self) -> None:
        m = self.msg("request-action step 0")
        assert isinstance(m, RequestAction)
        self.assertEqual((m.step, m.percept.last_action, m.percept.last_action_result), (0, "", ""))

    def test_norms(self) -> None:
        m = self.msg("request-action with norms")
        assert isinstance(m, RequestAction)
        n = m.percept.norms[0]
        self.assertTrue(n.name.startswith("n"))
        self.assertIn(n.level, ("individual", "team"))
        self.assertIn(n.requirements[0].type, ("block", "role"))
        self.assertGreater(n.punishment, 0)

    def test_protocol_page_example(self) -> None:
        m = self.msg("request-action of docs/protocol.md")
        assert isinstance(m, RequestAction)
        p = m.percept
        self.assertEqual((m.id, m.step), (17, 2))
        self.assertEqual(p.events[0].type, "hit")
        self.assertEqual(p.events[0].origin, (2, 1))
        self.assertEqual(p.events[0].damage, 16)
        self.assertEqual(p.violations, ["n1"])
        self.assertEqual(p.tasks[0].requirements[1].pos, (0, 2))
        self.assertEqual(p.tasks[0].reward, 40)
        self.assertTrue(p.norms[0].active(5))
        self.assertEqual(p.last_action_params, ["cw"])

    def test_sim_end_and_bye(self) -> None:
        e = self.msg("sim-end")
        assert isinstance(e, SimEnd)
        self.assertEqual(e.ranking, 1)
        self.assertIsInstance(self.msg("bye"), Bye)


class Tolerance(unittest.TestCase):
    def test_unknown_keys_are_kept(self) -> None:
        m = parse_message({"type": "request-action", "content": {
            "id": 3, "step": 1, "future": 1, "percept": {"absolutePosition": [4, 5], "newKey": [1],
                                                         "events": [{"type": "surveyed", "target": "agent",
                                                                     "name": "agentB2", "role": "worker",
                                                                     "energy": 40, "more": True}]}}})
        assert isinstance(m, RequestAction)
        self.assertEqual(m.extra, {"future": 1})
        self.assertEqual(m.percept.extra, {"newKey": [1]})
        self.assertEqual(m.percept.absolute_position, (4, 5))
        e = m.percept.events[0]
        self.assertEqual((e.target, e.name, e.role, e.energy, e.extra), ("agent", "agentB2", "worker", 40, {"more": True}))
        self.assertEqual(m.percept.things, [])

    def test_unknown_type(self) -> None:
        m = parse_message({"type": "news", "content": {"x": 1}})
        self.assertEqual(m, Unknown("news", {"x": 1}))

    def test_not_a_message(self) -> None:
        for bad in ([], {"content": {}}, {"type": 3}):
            with self.assertRaises(massim.ProtocolError):
                parse_message(bad)
        with self.assertRaises(massim.ProtocolError):
            parse_message({"type": "request-action", "content": {"id": "1"}})


if __name__ == "__main__":
    unittest.main()
