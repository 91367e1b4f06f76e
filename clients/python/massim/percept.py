"""Typed messages of the MASSim 2022 protocol (docs/protocol.md).

Every message the server sends becomes a frozen dataclass. Keys this module
does not know are kept in ``extra`` (never fatal), so that a newer server
cannot break a client built from this page; keys that are missing get an
empty default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

JSON = Any
Pos = Tuple[int, int]


class ProtocolError(Exception):
    """A frame that is not a message of the protocol (not an object, no type …)."""


def _int(v: JSON, default: int = 0) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return default


def _float(v: JSON, default: float = 0.0) -> float:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return default


def _str(v: JSON, default: str = "") -> str:
    return v if isinstance(v, str) else default


def _list(v: JSON) -> List[JSON]:
    return v if isinstance(v, list) else []


def _obj(v: JSON) -> Dict[str, JSON]:
    return v if isinstance(v, dict) else {}


def _pos(v: JSON) -> Pos:
    if isinstance(v, list) and len(v) >= 2:
        return (_int(v[0]), _int(v[1]))
    return (0, 0)


def _extra(d: Mapping[str, JSON], known: Tuple[str, ...]) -> Dict[str, JSON]:
    return {k: v for k, v in d.items() if k not in known}


@dataclass(frozen=True)
class Thing:
    """One thing on one visible cell: entity, block, obstacle, dispenser or marker."""

    x: int
    y: int
    type: str
    details: str

    @property
    def pos(self) -> Pos:
        return (self.x, self.y)

    @staticmethod
    def parse(d: JSON) -> "Thing":
        o = _obj(d)
        return Thing(_int(o.get("x")), _int(o.get("y")), _str(o.get("type")), _str(o.get("details")))


@dataclass(frozen=True)
class Requirement:
    """A block of a task: type ``type`` at (x, y) relative to the submitting agent."""

    x: int
    y: int
    type: str
    details: str = ""

    @property
    def pos(self) -> Pos:
        return (self.x, self.y)

    @staticmethod
    def parse(d: JSON) -> "Requirement":
        t = Thing.parse(d)
        return Requirement(t.x, t.y, t.type, t.details)


@dataclass(frozen=True)
class Task:
    name: str
    deadline: int
    reward: int
    requirements: List[Requirement]
    extra: Dict[str, JSON] = field(default_factory=dict)

    @staticmethod
    def parse(d: JSON) -> "Task":
        o = _obj(d)
        return Task(
            name=_str(o.get("name")),
            deadline=_int(o.get("deadline")),
            reward=_int(o.get("reward")),
            requirements=[Requirement.parse(r) for r in _list(o.get("requirements"))],
            extra=_extra(o, ("name", "deadline", "reward", "requirements")),
        )


@dataclass(frozen=True)
class NormRequirement:
    """``type`` is ``block`` (Carry: at most ``quantity`` attached) or ``role``."""

    type: str
    name: str
    quantity: int

    @staticmethod
    def parse(d: JSON) -> "NormRequirement":
        o = _obj(d)
        return NormRequirement(_str(o.get("type")), _str(o.get("name")), _int(o.get("quantity")))


@dataclass(frozen=True)
class Norm:
    name: str
    start: int
    until: int
    level: str
    requirements: List[NormRequirement]
    punishment: int
    extra: Dict[str, JSON] = field(default_factory=dict)

    def active(self, step: int) -> bool:
        return self.start <= step <= self.until

    @staticmethod
    def parse(d: JSON) -> "Norm":
        o = _obj(d)
        return Norm(
            name=_str(o.get("name")),
            start=_int(o.get("start")),
            until=_int(o.get("until")),
            level=_str(o.get("level")),
            requirements=[NormRequirement.parse(r) for r in _list(o.get("requirements"))],
            punishment=_int(o.get("punishment")),
            extra=_extra(o, ("name", "start", "until", "level", "requirements", "punishment")),
        )


@dataclass(frozen=True)
class Event:
    """``hit`` (origin, damage) or ``surveyed`` (target, distance; or name, role, energy)."""

    type: str
    origin: Optional[Pos] = None
    damage: Optional[int] = None
    target: Optional[str] = None
    distance: Optional[int] = None
    name: Optional[str] = None
    role: Optional[str] = None
    energy: Optional[int] = None
    extra: Dict[str, JSON] = field(default_factory=dict)

    @staticmethod
    def parse(d: JSON) -> "Event":
        o = _obj(d)
        return Event(
            type=_str(o.get("type")),
            origin=_pos(o["origin"]) if "origin" in o else None,
            damage=_int(o["damage"]) if "damage" in o else None,
            target=_str(o["target"]) if "target" in o else None,
            distance=_int(o["distance"]) if "distance" in o else None,
            name=_str(o["name"]) if "name" in o else None,
            role=_str(o["role"]) if "role" in o else None,
            energy=_int(o["energy"]) if "energy" in o else None,
            extra=_extra(o, ("type", "origin", "damage", "target", "distance", "name", "role", "energy")),
        )


@dataclass(frozen=True)
class Role:
    name: str
    vision: int
    actions: List[str]
    speed: List[int]
    clear_chance: float
    clear_max_distance: int
    extra: Dict[str, JSON] = field(default_factory=dict)

    def speed_with(self, attached: int) -> int:
        """Cells per step with ``attached`` things in the structure besides the agent."""
        if not self.speed:
            return 0
        return self.speed[min(attached, len(self.speed) - 1)]

    @staticmethod
    def parse(d: JSON) -> "Role":
        o = _obj(d)
        clear = _obj(o.get("clear"))
        return Role(
            name=_str(o.get("name")),
            vision=_int(o.get("vision")),
            actions=[_str(a) for a in _list(o.get("actions"))],
            speed=[_int(s) for s in _list(o.get("speed"))],
            clear_chance=_float(clear.get("chance")),
            clear_max_distance=_int(clear.get("maxDistance")),
            extra=_extra(o, ("name", "vision", "actions", "speed", "clear")),
        )


@dataclass(frozen=True)
class InitialPercept:
    """The percept of sim-start."""

    name: str
    team: str
    team_size: int
    steps: int
    roles: List[Role]
    extra: Dict[str, JSON] = field(default_factory=dict)

    def role(self, name: str) -> Optional[Role]:
        for r in self.roles:
            if r.name == name:
                return r
        return None

    @staticmethod
    def parse(d: JSON) -> "InitialPercept":
        o = _obj(d)
        return InitialPercept(
            name=_str(o.get("name")),
            team=_str(o.get("team")),
            team_size=_int(o.get("teamSize")),
            steps=_int(o.get("steps")),
            roles=[Role.parse(r) for r in _list(o.get("roles"))],
            extra=_extra(o, ("name", "team", "teamSize", "steps", "roles")),
        )


_STEP_KEYS = (
    "score", "lastAction", "lastActionParams", "lastActionResult", "energy", "deactivated", "role",
    "things", "attached", "goalZones", "roleZones", "events", "tasks", "norms", "violations",
    "absolutePosition",
)


@dataclass(frozen=True)
class StepPercept:
    """What an agent perceives in a step; positions relative to the agent at (0, 0)."""

    score: int
    last_action: str
    last_action_params: List[str]
    last_action_result: str
    energy: int
    deactivated: bool
    role: str
    things: List[Thing]
    attached: List[Pos]
    goal_zones: List[Pos]
    role_zones: List[Pos]
    events: List[Event]
    tasks: List[Task]
    norms: List[Norm]
    violations: List[str]
    absolute_position: Optional[Pos] = None
    extra: Dict[str, JSON] = field(default_factory=dict)

    def things_of(self, type: str) -> List[Thing]:
        return [t for t in self.things if t.type == type]

    @staticmethod
    def parse(d: JSON) -> "StepPercept":
        o = _obj(d)
        return StepPercept(
            score=_int(o.get("score")),
            last_action=_str(o.get("lastAction")),
            last_action_params=[_str(p) for p in _list(o.get("lastActionParams"))],
            last_action_result=_str(o.get("lastActionResult")),
            energy=_int(o.get("energy")),
            deactivated=o.get("deactivated") is True,
            role=_str(o.get("role")),
            things=[Thing.parse(t) for t in _list(o.get("things"))],
            attached=[_pos(p) for p in _list(o.get("attached"))],
            goal_zones=[_pos(p) for p in _list(o.get("goalZones"))],
            role_zones=[_pos(p) for p in _list(o.get("roleZones"))],
            events=[Event.parse(e) for e in _list(o.get("events"))],
            tasks=[Task.parse(t) for t in _list(o.get("tasks"))],
            norms=[Norm.parse(n) for n in _list(o.get("norms"))],
            violations=[_str(v) for v in _list(o.get("violations"))],
            absolute_position=_pos(o["absolutePosition"]) if "absolutePosition" in o else None,
            extra=_extra(o, _STEP_KEYS),
        )


@dataclass(frozen=True)
class AuthResponse:
    result: str
    extra: Dict[str, JSON] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.result == "ok"


@dataclass(frozen=True)
class SimStart:
    time: int
    percept: InitialPercept
    extra: Dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class RequestAction:
    id: int
    time: int
    deadline: int
    step: int
    percept: StepPercept
    extra: Dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class SimEnd:
    time: int
    score: int
    ranking: int
    extra: Dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Bye:
    extra: Dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class StatusResponse:
    time: int
    teams: List[str]
    team_sizes: List[int]
    current_simulation: int
    extra: Dict[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Unknown:
    """A message of a type this module does not know; kept whole."""

    type: str
    content: Dict[str, JSON]


Message = Union[AuthResponse, SimStart, RequestAction, SimEnd, Bye, StatusResponse, Unknown]


def parse_message(frame: JSON) -> Message:
    """Turns one decoded frame (``{"type": …, "content": {…}}``) into its message."""
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise ProtocolError(f"not a message: {str(frame)[:80]!r}")
    kind: str = frame["type"]
    c = _obj(frame.get("content"))
    if kind == "auth-response":
        return AuthResponse(_str(c.get("result")), _extra(c, ("result",)))
    if kind == "sim-start":
        return SimStart(_int(c.get("time")), InitialPercept.parse(c.get("percept")), _extra(c, ("time", "percept")))
    if kind == "request-action":
        if not isinstance(c.get("id"), int):
            raise ProtocolError("request-action without an integer id")
        return RequestAction(
            id=_int(c.get("id")),
            time=_int(c.get("time")),
            deadline=_int(c.get("deadline")),
            step=_int(c.get("step")),
            percept=StepPercept.parse(c.get("percept")),
            extra=_extra(c, ("id", "time", "deadline", "step", "percept")),
        )
    if kind == "sim-end":
        return SimEnd(_int(c.get("time")), _int(c.get("score")), _int(c.get("ranking")),
                      _extra(c, ("time", "score", "ranking")))
    if kind == "bye":
        return Bye(dict(c))
    if kind == "status-response":
        return StatusResponse(
            time=_int(c.get("time")),
            teams=[_str(t) for t in _list(c.get("teams"))],
            team_sizes=[_int(s) for s in _list(c.get("teamSizes"))],
            current_simulation=_int(c.get("currentSimulation"), -1),
            extra=_extra(c, ("time", "teams", "teamSizes", "currentSimulation")),
        )
    return Unknown(kind, dict(c))
