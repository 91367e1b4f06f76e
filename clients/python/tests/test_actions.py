"""Actions: the wire form of each, and refusal of bad parameters before sending."""

from __future__ import annotations

import unittest
from typing import Any, Callable

import massim as m
from massim import ActionError


class Actions(unittest.TestCase):
    def test_wire_form(self) -> None:
        cases = [
            (m.skip(), "skip", []), (m.no_action(), "no_action", []),
            (m.move("n", "e"), "move", ["n", "e"]), (m.attach("s"), "attach", ["s"]),
            (m.detach("w"), "detach", ["w"]), (m.rotate("ccw"), "rotate", ["ccw"]),
            (m.connect("agentA2", 0, -1), "connect", ["agentA2", "0", "-1"]),
            (m.disconnect(0, 1, 0, 2), "disconnect", ["0", "1", "0", "2"]),
            (m.request("e"), "request", ["e"]), (m.submit("task3"), "submit", ["task3"]),
            (m.clear(2, -1), "clear", ["2", "-1"]), (m.adopt("worker"), "adopt", ["worker"]),
            (m.survey("goal"), "survey", ["goal"]), (m.survey_at(1, 1), "survey", ["1", "1"]),
        ]
        for action, name, params in cases:
            with self.subTest(name):
                self.assertEqual(action.content(7), {"id": 7, "type": name, "p": params})

    def test_bad_parameters_raise(self) -> None:
        bad: list[Callable[[], Any]] = [
            lambda: m.move(), lambda: m.move("north"), lambda: m.attach("x"), lambda: m.detach(""),
            lambda: m.rotate("left"), lambda: m.connect("", 0, 1), lambda: m.connect("a", 1.5, 0),  # type: ignore[arg-type]
            lambda: m.disconnect(0, 0, 0, True), lambda: m.request("up"), lambda: m.submit(""),
            lambda: m.clear(2**31, 0), lambda: m.adopt(""), lambda: m.survey("dispensers"),
            lambda: m.survey_at(0, "1"),  # type: ignore[arg-type]
            lambda: m.direction_of(1, 1),
        ]
        for i, f in enumerate(bad):
            with self.subTest(i), self.assertRaises(ActionError):
                f()

    def test_rotation(self) -> None:
        self.assertEqual(m.rotated((1, 0), "cw"), (0, 1))
        self.assertEqual(m.rotated((0, 1), "ccw"), (1, 0))
        self.assertEqual(m.direction_of(0, -1), "n")


if __name__ == "__main__":
    unittest.main()
