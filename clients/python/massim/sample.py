"""The sample team's agents: fetch one block, carry it to a goal zone, submit 1-block tasks.

Each agent counts its own moves (its own frame of reference, starting at
(0, 0)). Teammates that see each other in the same step (and nobody else at
that offset) merge their maps on the team's blackboard, so that dispensers,
goal zones and role zones found by one are known to all of its group.
"""

from __future__ import annotations

import heapq
import os
import logging
import random
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Set, Tuple

from . import actions as A
from .actions import OFFSETS, Action
from .connection import Behaviour
from .percept import InitialPercept, RequestAction, Role, SimEnd, SimStart, StepPercept, Task
from .runner import Blackboard

Pos = Tuple[int, int]
log = logging.getLogger("massim.sample")

FREE, OBSTACLE = 0, 1
#: Cost of a cell that must be cleared first (a clear may fail and costs energy).
CLEAR_COST = 4
#: Dijkstra gives up after this many cells (keeps a step's thinking short).
SEARCH_LIMIT = 6000


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
        self.claims: Dict[str, str] = {}  # agent -> block type it fetches

    def join(self, agent: str) -> None:
        if agent not in self.root:
            self.root[agent], self.offset[agent] = agent, (0, 0)
            self.groups[agent] = Group(WorldMap(), {agent})

    def report(self, step: int, agent: str, pos: Pos, mates: List[Pos]) -> None:
        self.sightings.setdefault(step, {})[agent] = (pos, mates)
        for s in [s for s in self.sightings if s < step - 3]:
            del self.sightings[s]
        done = self.sightings.get(step - 1)
        if os.environ.get("MASSIM_NOMERGE"):
            return
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


class Worker(Behaviour):
    """One agent of the sample team."""

    def __init__(self, name: str, index: int, board: Blackboard, count: int) -> None:
        self.name, self.index, self.board, self.count = name, index, board, count
        self.rng = random.Random(index)
        self.info: Optional[InitialPercept] = None
        self.reset()

    def reset(self) -> None:
        self.pos: Pos = (0, 0)
        self.block: Optional[Pos] = None  # where the own block is, relative to the agent
        self.block_type = ""
        self.stuck = 0
        self.current_role = ""
        self.asked = ""  # the direction of the block this agent requested
        self.phases: Dict[str, int] = {}
        self.results: Dict[str, int] = {}

    def sim_start(self, start: SimStart) -> None:
        self.info = start.percept
        self.reset()
        with self.board.locked() as d:
            if d.get("sim") != start.time:  # the first agent of a new simulation
                d["sim"] = start.time
                d["knowledge"] = TeamKnowledge(start.percept.team_size or self.count)
            k = d["knowledge"]
            assert isinstance(k, TeamKnowledge)
            k.join(self.name)

    def resume(self, start: SimStart) -> None:
        if self.info is None:  # this process restarted: start afresh
            self.sim_start(start)

    # -- bookkeeping ------------------------------------------------------

    def role(self, name: str) -> Optional[Role]:
        return self.info.role(name) if self.info else None

    def track(self, p: StepPercept) -> None:
        """Applies the result of the previous action to the own position and block."""
        ok = p.last_action_result in ("success", "partial_success")
        if p.last_action == "move" and ok:
            n = len(p.last_action_params) if p.last_action_result == "success" else 1
            for d in p.last_action_params[:n]:
                self.pos = add(self.pos, OFFSETS.get(d, (0, 0)))
        if p.last_action == "rotate" and ok and self.block is not None:
            self.block = A.rotated(self.block, p.last_action_params[0])
        if p.last_action == "attach" and ok:
            self.block = OFFSETS[p.last_action_params[0]]
        if p.last_action == "detach" and ok:
            self.block = None
        if p.last_action == "submit" and ok:
            self.block = None
        if self.block is not None:
            mine = [t for t in p.things if t.type == "block" and t.pos == self.block]
            if not mine or self.block not in p.attached:
                self.block = None
            else:
                self.block_type = mine[0].details
        if p.last_action in ("move", "rotate") and not ok:
            self.stuck += 1
        elif p.last_action in ("move", "rotate"):
            self.stuck = 0

    # -- deciding ----------------------------------------------------------

    def act(self, req: RequestAction) -> Action:
        p = req.percept
        self.current_role = p.role
        self.track(p)
        mates = [t.pos for t in p.things if t.type == "entity" and t.pos != (0, 0)
                 and self.info is not None and t.details == self.info.team]
        with self.board.locked():
            k = knowledge(self.board, self.count)
            k.join(self.name)
            k.report(req.step, self.name, self.pos, mates)
            m, off = k.view(self.name)
            here = add(self.pos, off)
            role = self.role(p.role)
            if log.isEnabledFor(logging.DEBUG):
                obst = {add(here, t.pos) for t in p.things if t.type == "obstacle"}
                v = role.vision if role else 5
                bad = sum(1 for c, val in m.cells.items() if abs(c[0]-here[0]) + abs(c[1]-here[1]) <= v
                          and (val == OBSTACLE) != (c in obst))
                if p.absolute_position is not None:
                    ap = p.absolute_position
                    log.debug("%s step %d abscheck root %s delta %s", self.name, req.step, k.root[self.name],
                              ((ap[0] - here[0]) % 40, (ap[1] - here[1]) % 40))
                if bad:
                    log.debug("%s step %d: %d cells disagree with the map (root %s)", self.name, req.step, bad, k.root[self.name])
            occupied = m.see(here, role.vision if role else 5, p)
            action = self.decide(req.step, p, m, here, occupied, k)
            phase = ("off" if p.deactivated else "role" if p.role == "default" else
                     "fetch" if self.block is None else "carry")
            self.phases[phase] = self.phases.get(phase, 0) + 1
            res = f"{p.last_action}:{p.last_action_result}"
            self.results[res] = self.results.get(res, 0) + 1
            log.debug("%s step %d %s %s at %s block %s -> %s", self.name, req.step, res, phase, here, self.block, action)
        return action

    def sim_end(self, end: SimEnd) -> None:
        log.info("%s phases %s results %s", self.name, self.phases, self.results)

    def decide(self, step: int, p: StepPercept, m: WorldMap, here: Pos, occupied: Set[Pos],
               k: TeamKnowledge) -> Action:
        if p.deactivated:
            return A.skip()
        role = self.role(p.role)
        if role is None or not {"request", "attach", "submit"} <= set(role.actions):
            return self.get_role(m, here, occupied)
        tasks = [t for t in p.tasks if len(t.requirements) == 1 and t.deadline >= step + 2]
        wanted = {t.requirements[0].type for t in tasks}
        if self.block is None:
            return self.fetch(p, m, here, occupied, wanted, k)
        mine = [t for t in tasks if t.requirements[0].type == self.block_type]
        if not mine:
            if wanted:
                return A.detach(A.direction_of(*self.block))
            return self.goto(m, here, occupied, m.goals, stay=True)
        if here not in m.goals:
            return self.goto(m, here, occupied, m.goals)
        task = min(mine, key=lambda t: t.deadline)
        want = task.requirements[0].pos
        if self.block == want:
            return A.submit(task.name)
        return self.turn(want, p, m, here, occupied)

    def get_role(self, m: WorldMap, here: Pos, occupied: Set[Pos]) -> Action:
        if here in m.role_zones:
            workers = [r.name for r in (self.info.roles if self.info else [])
                       if {"request", "attach", "submit"} <= set(r.actions)]
            if workers:
                return A.adopt(workers[0])
        return self.goto(m, here, occupied, m.role_zones)

    def fetch(self, p: StepPercept, m: WorldMap, here: Pos, occupied: Set[Pos], wanted: Set[str],
              k: TeamKnowledge) -> Action:
        if not wanted:
            wanted = set(m.dispensers.values())
        attached = set(p.attached)
        if p.last_action == "request" and p.last_action_result == "success":
            self.asked = p.last_action_params[0]
        elif p.last_action != "attach":
            self.asked = ""
        if self.asked:
            # Only the block this agent asked for: a teammate attaching it too
            # would join the two agents into one structure.
            d = self.asked
            if any(t.type == "block" and t.pos == OFFSETS[d] and t.pos not in attached for t in p.things):
                return A.attach(d)
        for d, o in OFFSETS.items():
            c = add(here, o)
            if m.dispensers.get(c) in wanted and c not in occupied and m.cells.get(c) != OBSTACLE:
                return A.request(d)
        spots: Set[Pos] = set()
        for c, t in m.dispensers.items():
            if t in wanted:
                spots |= {add(c, o) for o in OFFSETS.values()}
        return self.goto(m, here, occupied, spots)

    def turn(self, want: Pos, p: StepPercept, m: WorldMap, here: Pos, occupied: Set[Pos]) -> Action:
        assert self.block is not None
        options = ["cw", "ccw"] if A.rotated(self.block, "cw") == want or self.rng.random() < 0.5 else ["ccw", "cw"]
        for r in options:
            to = A.rotated(self.block, r)
            c = add(here, to)
            if c not in occupied and m.cells.get(c) != OBSTACLE:
                return A.rotate(r)
        for r in options:  # clear the way for the block
            to = A.rotated(self.block, r)
            if m.cells.get(add(here, to)) == OBSTACLE and abs(to[0]) + abs(to[1]) == 1:
                return A.clear(*to)
        others = m.goals - {here}
        return self.goto(m, here, occupied, others)

    # -- moving -------------------------------------------------------------

    def goto(self, m: WorldMap, here: Pos, occupied: Set[Pos], targets: Iterable[Pos],
             stay: bool = False) -> Action:
        goal = set(targets)
        if here in goal and stay:
            return A.skip()
        path = self.route(m, here, occupied, goal)
        if path is None:
            path = self.route(m, here, occupied, None)  # explore: the nearest unknown cell
        if not path or self.stuck > 3 and self.rng.random() < 0.5:
            d = self.rng.choice("nesw")
            self.stuck = 0
            return A.move(d)
        first = add(here, OFFSETS[path[0]])
        if m.cells.get(first) == OBSTACLE:
            o = OFFSETS[path[0]]
            return A.clear(o[0], o[1])
        speed = 1
        role = self.role(self.current_role)
        if self.block is None and role is not None:
            speed = max(role.speed_with(0), 1)
        steps = [path[0]]
        if speed > 1 and len(path) > 1 and m.cells.get(add(first, OFFSETS[path[1]])) != OBSTACLE:
            steps.append(path[1])
        return A.move(*steps)

    def route(self, m: WorldMap, here: Pos, occupied: Set[Pos], goal: Optional[Set[Pos]]) -> Optional[List[str]]:
        """Directions to the nearest cell of ``goal`` (``None``: of the unknown), or None."""
        if goal is not None and not goal:
            return None
        block = self.block
        dist: Dict[Pos, int] = {here: 0}
        prev: Dict[Pos, Tuple[Pos, str]] = {}
        heap: List[Tuple[int, int, Pos]] = [(0, 0, here)]
        order = "nesw"
        tie = 0
        while heap and len(dist) < SEARCH_LIMIT:
            d, _, c = heapq.heappop(heap)
            if d > dist.get(c, 1 << 30):
                continue
            known = c in m.cells
            if c != here and (c in goal if goal is not None else not known):
                path: List[str] = []
                while c != here:
                    c, step = prev[c]
                    path.append(step)
                return path[::-1]
            for s in order:
                n = add(c, OFFSETS[s])
                if n in occupied and abs(n[0] - here[0]) + abs(n[1] - here[1]) <= 2:
                    continue
                cost = 1
                cell = m.cells.get(n)
                if cell == OBSTACLE:
                    if block is not None:
                        continue
                    cost = CLEAR_COST
                elif cell is None:
                    cost = 2
                if block is not None:
                    bc = add(n, block)
                    if m.cells.get(bc) == OBSTACLE or (bc in occupied and bc != here):
                        continue
                nd = d + cost
                if nd < dist.get(n, 1 << 30):
                    dist[n] = nd
                    prev[n] = (c, s)
                    tie += 1
                    heapq.heappush(heap, (nd, tie, n))
        return None
