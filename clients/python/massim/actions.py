"""Every action of docs/protocol.md as a function with checked parameters.

A bad parameter raises :class:`ActionError` here, before anything is sent,
instead of costing a step with ``failed_parameter``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

DIRECTIONS: Tuple[str, ...] = ("n", "e", "s", "w")
ROTATIONS: Tuple[str, ...] = ("cw", "ccw")
SURVEY_TARGETS: Tuple[str, ...] = ("dispenser", "goal", "role")
#: The unit vector of each direction; y grows to the south.
OFFSETS: Dict[str, Tuple[int, int]] = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}

_INT32 = (-(2**31), 2**31 - 1)


class ActionError(ValueError):
    """An action built with a parameter the server would refuse."""


@dataclass(frozen=True)
class Action:
    """An action name and its parameters, as they go on the wire."""

    type: str
    params: Tuple[str, ...] = ()

    def content(self, request_id: int) -> Dict[str, object]:
        return {"id": request_id, "type": self.type, "p": list(self.params)}


def _dir(d: str) -> str:
    if d not in DIRECTIONS:
        raise ActionError(f"direction must be one of n, e, s, w, not {d!r}")
    return d


def _int(v: int, what: str) -> str:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ActionError(f"{what} must be an int, not {v!r}")
    if not _INT32[0] <= v <= _INT32[1]:
        raise ActionError(f"{what} {v} does not fit in 32 bits")
    return str(v)


def _name(v: str, what: str) -> str:
    if not isinstance(v, str) or not v:
        raise ActionError(f"{what} must be a non-empty string, not {v!r}")
    return v


def skip() -> Action:
    return Action("skip")


def no_action() -> Action:
    return Action("no_action")


def move(*directions: str) -> Action:
    """Moves one cell per direction, up to the role's speed (``move("n", "n")``)."""
    if not directions:
        raise ActionError("move needs at least one direction")
    return Action("move", tuple(_dir(d) for d in directions))


def attach(direction: str) -> Action:
    return Action("attach", (_dir(direction),))


def detach(direction: str) -> Action:
    return Action("detach", (_dir(direction),))


def rotate(rotation: str) -> Action:
    if rotation not in ROTATIONS:
        raise ActionError(f"rotation must be cw or ccw, not {rotation!r}")
    return Action("rotate", (rotation,))


def connect(partner: str, x: int, y: int) -> Action:
    """Links the own block at (x, y) with a block of ``partner`` (who must connect back)."""
    return Action("connect", (_name(partner, "partner"), _int(x, "x"), _int(y, "y")))


def disconnect(x1: int, y1: int, x2: int, y2: int) -> Action:
    return Action("disconnect", (_int(x1, "x1"), _int(y1, "y1"), _int(x2, "x2"), _int(y2, "y2")))


def request(direction: str) -> Action:
    """Asks the dispenser in ``direction`` for a block."""
    return Action("request", (_dir(direction),))


def submit(task: str) -> Action:
    return Action("submit", (_name(task, "task"),))


def clear(x: int, y: int) -> Action:
    return Action("clear", (_int(x, "x"), _int(y, "y")))


def adopt(role: str) -> Action:
    return Action("adopt", (_name(role, "role"),))


def survey(target: str) -> Action:
    """Surveys the nearest ``dispenser``, ``goal`` or ``role`` zone."""
    if target not in SURVEY_TARGETS:
        raise ActionError(f"survey target must be dispenser, goal or role, not {target!r}")
    return Action("survey", (target,))


def survey_at(x: int, y: int) -> Action:
    """Surveys the agent on cell (x, y)."""
    return Action("survey", (_int(x, "x"), _int(y, "y")))


def direction_of(dx: int, dy: int) -> str:
    """The direction of a neighbouring cell (one of the four unit offsets)."""
    for d, off in OFFSETS.items():
        if off == (dx, dy):
            return d
    raise ActionError(f"({dx}, {dy}) is not a neighbouring cell")


def rotated(pos: Tuple[int, int], rotation: str) -> Tuple[int, int]:
    """Where ``pos`` (relative to the agent) goes when the agent rotates."""
    x, y = pos
    if rotation == "cw":
        return (-y, x)
    if rotation == "ccw":
        return (y, -x)
    raise ActionError(f"rotation must be cw or ccw, not {rotation!r}")


def moves(directions: Sequence[str]) -> List[Tuple[int, int]]:
    """The offsets of a sequence of directions."""
    return [OFFSETS[_dir(d)] for d in directions]
