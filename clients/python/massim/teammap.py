"""The sample team's shared knowledge: maps in the frames of agent groups, and offers.

Each agent counts its own moves (its own frame, starting at (0, 0)).
Teammates that see each other in the same step (and nobody else at that
offset) merge their maps, so that dispensers, goal zones and role zones
found by one are known to all of its group. Everything here runs under the
team blackboard's lock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from .percept import StepPercept
from .runner import Blackboard

Pos = Tuple[int, int]
log = logging.getLogger("massim.sample")
FREE, OBSTACLE = 0, 1


def add(a: Pos, b: Pos) -> Pos:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Pos, b: Pos) -> Pos:
    return (a[0] - b[0], a[1] - b[1])


@dataclass
class WorldMap:
    """What a group of agents knows, in the frame of its first agent."""

    cells: Dict[Pos, int] = field(default_factory=dict)
    dispensers: Dict[Pos, str] = field(default_factory=dict)
    goals: Set[Pos] = field(default_factory=set)
    role_zones: Set[Pos] = field(default_factory=set)

    def absorb(self, other: "WorldMap", shift: Pos) -> None:
        for c, v in other.cells.items():
            self.cells.setdefault(add(c, shift), v)
        for c, t in other.dispensers.items():
            self.dispensers[add(c, shift)] = t
        self.goals |= {add(c, shift) for c in other.goals}
        self.role_zones |= {add(c, shift) for c in other.role_zones}

    def see(self, at: Pos, vision: int, p: StepPercept) -> Set[Pos]:
        """Records the percept seen from ``at``; returns the cells occupied right now."""
        obstacles: Set[Pos] = set()
        dispensers: Set[Pos] = set()
        occupied: Set[Pos] = set()
        attached = set(p.attached)
        for t in p.things:
            c = add(at, t.pos)
            if t.type == "obstacle":
                obstacles.add(c)
            elif t.type == "dispenser":
                self.dispensers[c] = t.details
                dispensers.add(c)
            elif t.type in ("entity", "block") and t.pos != (0, 0):
                occupied.add(c)
            if t.type == "block" and t.pos in attached:
                occupied.add(c)
        goals = {add(at, g) for g in p.goal_zones}
        roles = {add(at, r) for r in p.role_zones}
        for dx in range(-vision, vision + 1):
            r = vision - abs(dx)
            for dy in range(-r, r + 1):
                c = (at[0] + dx, at[1] + dy)
                self.cells[c] = OBSTACLE if c in obstacles else FREE
                if c not in dispensers:
                    self.dispensers.pop(c, None)
                if c in goals:
                    self.goals.add(c)
                else:
                    self.goals.discard(c)
                if c in roles:
                    self.role_zones.add(c)
                else:
                    self.role_zones.discard(c)
        return occupied


@dataclass
class Offer:
    """A submitter in a goal zone holding the (0, 1) block of a 2-block task, waiting for the other."""

    task: str
    deadline: int
    root: str  # the group whose frame ``at`` is in
    at: Pos  # the submitter's cell
    need: Pos  # where the second block goes, relative to the submitter
    type: str  # its block type
    since: int  # the step of the offer
    helper: str = ""
    claimed: int = 0  # the step the helper claimed it
    connect_step: int = -1  # both send connect in this step


@dataclass
class Group:
    map: WorldMap
    members: Set[str]


class TeamKnowledge:
    """The team's maps and the agents' frames; every method runs under the board's lock."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.root: Dict[str, str] = {}  # agent -> its group's name
        self.offset: Dict[str, Pos] = {}  # agent's frame -> its group's frame
        self.groups: Dict[str, Group] = {}
        # step -> agent -> (position in its own frame, teammates seen at offsets)
        self.sightings: Dict[int, Dict[str, Tuple[Pos, List[Pos]]]] = {}
        self.offers: Dict[str, Offer] = {}  # by submitter

    def join(self, agent: str) -> None:
        if agent not in self.root:
            self.root[agent], self.offset[agent] = agent, (0, 0)
            self.groups[agent] = Group(WorldMap(), {agent})

    def report(self, step: int, agent: str, pos: Pos, mates: List[Pos]) -> None:
        self.sightings.setdefault(step, {})[agent] = (pos, mates)
        for s in [s for s in self.sightings if s < step - 3]:
            del self.sightings[s]
        done = self.sightings.get(step - 1)
        if done is not None and len(done) == self.count:
            self._resolve(done)
            del self.sightings[step - 1]

    def _resolve(self, seen: Dict[str, Tuple[Pos, List[Pos]]]) -> None:
        for a, (pa, mates) in seen.items():
            for d in mates:
                back = (-d[0], -d[1])
                partners = [b for b, (_, ms) in seen.items() if b != a and back in ms]
                seers = [x for x, (_, ms) in seen.items() if d in ms]
                if len(partners) != 1 or len(seers) != 1:
                    continue  # ambiguous: two pairs at the same offset
                b = partners[0]
                ra, rb = self.root[a], self.root[b]
                if ra == rb:
                    continue
                pb = seen[b][0]
                # b stands at pa + d in a's frame and at pb in its own.
                where_b = add(add(pa, d), self.offset[a])
                shift = sub(where_b, add(pb, self.offset[b]))
                small, big, s = (rb, ra, shift)
                if len(self.groups[rb].members) > len(self.groups[ra].members):
                    small, big, s = ra, rb, (-shift[0], -shift[1])
                g = self.groups.pop(small)
                self.groups[big].map.absorb(g.map, s)
                for m in g.members:
                    self.root[m], self.offset[m] = big, add(self.offset[m], s)
                for o in self.offers.values():  # offers are in their group's frame
                    if o.root == small:
                        o.root, o.at = big, add(o.at, s)
                self.groups[big].members |= g.members
                log.debug("maps of %s and %s merged by %s/%s seeing at %s, shift %s", ra, rb, a, b, d, s)

    def view(self, agent: str) -> Tuple[WorldMap, Pos]:
        return self.groups[self.root[agent]].map, self.offset[agent]


def knowledge(board: Blackboard, count: int) -> TeamKnowledge:
    with board.locked() as d:
        k = d.get("knowledge")
        if not isinstance(k, TeamKnowledge):
            k = TeamKnowledge(count)
            d["knowledge"] = k
        return k


