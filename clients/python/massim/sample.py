"""The sample team's agents: fetch a block, carry it to a goal zone, submit.

1-block tasks are submitted alone; for a 2-block task the agent holding the
first block waits in a goal zone and posts an offer on the blackboard, and
an agent holding the second block comes, connects it and lets go.
"""

from __future__ import annotations

import heapq
import logging
import random
from typing import Dict, Iterable, List, Optional, Set, Tuple

from . import actions as A
from .actions import OFFSETS, Action
from .connection import Behaviour
from .percept import InitialPercept, RequestAction, Requirement, Role, SimEnd, SimStart, StepPercept, Task
from .runner import Blackboard
from .teammap import OBSTACLE, Offer, Pos, TeamKnowledge, WorldMap, add, knowledge, sub

log = logging.getLogger("massim.sample")

#: Cost of a cell that must be cleared first (a clear may fail and costs energy).
CLEAR_COST = 4
#: Dijkstra gives up after this many cells (keeps a step's thinking short).
SEARCH_LIMIT = 6000
#: Extra cost of a cell taken now, beyond two steps.
BUSY_COST = 3
#: Extra cost of a cell marked for a clear event.
DANGER_COST = 8
#: Offers farther than this are left to others (the frame does not wrap: far may be near).
HELP_DISTANCE = 20
#: Submitters wait at least this far apart, so that helpers can reach them.
OFFER_SPACING = 3
#: At most this many submitters wait for a helper at once.
MAX_OPEN_OFFERS = 3


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
        self.heading: Pos = OFFSETS["nesw"[self.index % 4]]  # where exploring agents go
        self.danger: Set[Pos] = set()  # cells a clear event is about to hit
        self.why = ""  # what a carrying agent does (for the debug log)
        self.helping = ""  # the submitter whose offer this agent serves
        self.help_side: Optional[Pos] = None  # where the own block sits while connecting
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
            occupied = m.see(here, role.vision if role else 5, p)
            self.danger = {add(here, t.pos) for t in p.things if t.type == "marker" and t.details in ("clear", "ci")}
            if self.block is not None:  # the own block moves along: no obstacle to its agent
                occupied.discard(add(here, self.block))
            action = self.decide(req.step, p, m, here, occupied, k)
            self.note(req.step, p, here, action)
        return action

    def note(self, step: int, p: StepPercept, here: Pos, action: Action) -> None:
        """Counts what the agent did, for the summary at sim-end, and logs the step (debug)."""
        phase = ("off" if p.deactivated else "role" if p.role == "default" else
                 "fetch" if self.block is None else "carry:" + self.why)
        self.phases[phase] = self.phases.get(phase, 0) + 1
        result = f"{p.last_action}:{p.last_action_result}"
        self.results[result] = self.results.get(result, 0) + 1
        log.debug("%s step %d %s %s at %s block %s -> %s", self.name, step, result, phase, here, self.block, action)

    def sim_end(self, end: SimEnd) -> None:
        log.info("%s steps by phase %s, results %s", self.name, self.phases, self.results)

    def decide(self, step: int, p: StepPercept, m: WorldMap, here: Pos, occupied: Set[Pos],
               k: TeamKnowledge) -> Action:
        if p.deactivated:
            return A.skip()
        role = self.role(p.role)
        if role is None or not {"request", "attach", "submit"} <= set(role.actions):
            return self.get_role(m, here, occupied)
        one = [t for t in p.tasks if len(t.requirements) == 1 and t.deadline >= step + 2]
        two = [t for t in p.tasks if len(t.requirements) == 2 and t.deadline >= step + 25
               and any(r.pos == (0, 1) for r in t.requirements)]
        live = {t.name for t in p.tasks if t.deadline >= step}
        for name in [n for n, o in k.offers.items() if o.task not in live or o.deadline < step]:
            del k.offers[name]
        root = k.root[self.name]
        open_offers = [o for o in k.offers.values() if not o.helper and o.root == root]
        if self.block is None:
            self.helping = ""
            k.offers.pop(self.name, None)
            wanted = {o.type for o in open_offers}
            if not wanted:
                wanted = {t.requirements[0].type for t in one}
                for t in two:
                    wanted |= {r.type for r in t.requirements}
            return self.fetch(p, m, here, occupied, wanted, k)
        if self.helping:
            self.why = "help"
            return self.help(step, p, m, here, occupied, k)
        offer = k.offers.get(self.name)
        if offer is not None:
            self.why = "await"
            return self.await_helper(step, p, offer, k)
        mine = [t for t in one if t.requirements[0].type == self.block_type]
        if mine:
            self.why = "alone"
            return self.submit_alone(mine, p, m, here, occupied)
        fitting = [o for o in open_offers if o.type == self.block_type
                   and abs(o.at[0] - here[0]) + abs(o.at[1] - here[1]) <= HELP_DISTANCE]
        if fitting:
            o = min(fitting, key=lambda o: abs(o.at[0] - here[0]) + abs(o.at[1] - here[1]))
            o.helper, o.claimed = self.name, step
            self.helping, self.help_side = self.submitter_of(o, k), None
            return self.help(step, p, m, here, occupied, k)
        firsts = [t for t in two if self.first(t).type == self.block_type]
        if firsts and len([o for o in k.offers.values() if not o.helper]) < MAX_OPEN_OFFERS:
            self.why = "offer"
            return self.offer(step, firsts, p, m, here, occupied, k)
        wanted_any = {r.type for t in one + two for r in t.requirements}
        if wanted_any and self.block_type not in wanted_any or open_offers:
            # Of no use now, while a submitter waits for another type: fetch that.
            return A.detach(A.direction_of(*self.block))
        self.why = "idle"
        return self.goto(m, here, occupied, m.goals, stay=True)

    @staticmethod
    def first(t: Task) -> Requirement:
        return next(r for r in t.requirements if r.pos == (0, 1))

    @staticmethod
    def second(t: Task) -> Requirement:
        return next(r for r in t.requirements if r.pos != (0, 1))

    @staticmethod
    def submitter_of(o: Offer, k: TeamKnowledge) -> str:
        return next(n for n, x in k.offers.items() if x is o)

    def submit_alone(self, mine: List[Task], p: StepPercept, m: WorldMap, here: Pos, occupied: Set[Pos]) -> Action:
        assert self.block is not None
        if here not in m.goals:
            return self.goto(m, here, occupied, m.goals)
        task = min(mine, key=lambda t: t.deadline)
        want = task.requirements[0].pos
        if self.block == want:
            return A.submit(task.name)
        return self.turn(want, p, m, here, occupied)

    def offer(self, step: int, firsts: List[Task], p: StepPercept, m: WorldMap, here: Pos, occupied: Set[Pos],
              k: TeamKnowledge) -> Action:
        """Waits in a goal zone with the block at (0, 1) and offers the task."""
        assert self.block is not None
        root = k.root[self.name]
        taken = [o.at for n, o in k.offers.items() if o.root == root and n != self.name]
        goals = {g for g in m.goals if all(abs(g[0] - a[0]) + abs(g[1] - a[1]) > OFFER_SPACING for a in taken)}
        if here not in goals:
            return self.goto(m, here, occupied, goals, stay=True)
        if self.block != (0, 1):
            return self.turn((0, 1), p, m, here, occupied)
        free = [t for t in firsts if m.cells.get(add(here, self.second(t).pos)) != OBSTACLE
                and add(here, self.second(t).pos) not in occupied]
        if not free:
            return self.goto(m, here, occupied, m.goals - {here})
        t = min(free, key=lambda t: -t.deadline)
        s = self.second(t)
        k.offers[self.name] = Offer(t.name, t.deadline, k.root[self.name], here, s.pos, s.type, step)
        log.debug("%s offers %s at %s: %s at %s", self.name, t.name, here, s.type, s.pos)
        return A.skip()

    def await_helper(self, step: int, p: StepPercept, o: Offer, k: TeamKnowledge) -> Action:
        if any(t.type == "marker" and t.details in ("clear", "ci") and abs(t.x) + abs(t.y) <= 1 for t in p.things):
            log.debug("%s leaves its offer: a clear event is coming", self.name)
            del k.offers[self.name]  # a clear event would take the block and the energy
            return A.move(self.rng.choice("nesw"))
        if p.last_action == "connect" and p.last_action_result == "success":
            return A.submit(o.task)
        if p.last_action == "submit" and p.last_action_result != "success" and p.last_action_params == [o.task]:
            if any(t.pos == o.need for t in p.things if t.type == "block"):
                return A.submit(o.task)  # failed_random: again
        if o.helper and o.connect_step == step:
            return A.connect(o.helper, 0, 1)
        if o.helper and step - o.claimed > 40:
            log.debug("%s: helper %s too slow", self.name, o.helper)
            o.helper, o.connect_step = "", -1
        return A.skip()

    def help(self, step: int, p: StepPercept, m: WorldMap, here: Pos, occupied: Set[Pos],
             k: TeamKnowledge) -> Action:
        """Brings the own block to the cell an offer needs, connects it, lets go."""
        assert self.block is not None
        o = k.offers.get(self.helping)
        if p.last_action == "connect" and p.last_action_result == "success":
            self.helping = ""
            return A.detach(A.direction_of(*self.block))
        if o is None or o.helper != self.name or o.root != k.root[self.name]:
            self.helping = ""
            return A.skip()
        target = add(o.at, o.need)
        s_cells = {o.at, add(o.at, (0, 1)), target}
        if self.help_side is None or add(target, (-self.help_side[0], -self.help_side[1])) in s_cells:
            options = []
            for b in OFFSETS.values():
                cell = sub(target, b)
                if cell not in s_cells and m.cells.get(cell) != OBSTACLE:
                    options.append((abs(cell[0] - here[0]) + abs(cell[1] - here[1]), b))
            if not options:
                o.helper, self.helping = "", ""
                return A.skip()
            self.help_side = min(options)[1]
        b = self.help_side
        if self.block != b:
            for r in ("cw", "ccw"):
                if A.rotated(self.block, r) == b or A.rotated(A.rotated(self.block, r), r) == b:
                    c = add(here, A.rotated(self.block, r))
                    if c not in occupied and m.cells.get(c) != OBSTACLE:
                        return A.rotate(r)
            return self.goto(m, here, occupied, set(), stay=False)  # move on and try again
        spot = sub(target, b)
        if here != spot:
            return self.goto(m, here, occupied, {spot}, walls=s_cells)
        if o.connect_step < step:
            o.connect_step = step + 1
            return A.skip()
        return A.connect(self.helping, b[0], b[1])

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
        if A.rotated(self.block, "cw") == want:
            options = ["cw", "ccw"]
        elif A.rotated(self.block, "ccw") == want:
            options = ["ccw", "cw"]
        else:
            options = self.rng.sample(["cw", "ccw"], 2)
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
             stay: bool = False, walls: Optional[Set[Pos]] = None) -> Action:
        """A move (or clear) towards the nearest of ``targets``; ``walls`` are never crossed."""
        goal = set(targets) - occupied  # a cell taken now would draw the agent back and forth
        if here in goal and stay:
            return A.skip()
        path = self.route(m, here, occupied, goal, walls or set())
        if path is None:
            path = self.route(m, here, occupied, None, walls or set())  # explore: the nearest unknown cell
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

    def route(self, m: WorldMap, here: Pos, occupied: Set[Pos], goal: Optional[Set[Pos]],
              walls: Set[Pos]) -> Optional[List[str]]:
        """Directions to the nearest cell of ``goal`` (``None``: of the unknown), or None.

        Cells taken now block within two steps and only cost more farther
        away (they may have moved by then); ``walls`` always block.
        """
        if goal is not None and not goal:
            return None
        block = self.block
        dist: Dict[Pos, int] = {here: 0}
        prev: Dict[Pos, Tuple[Pos, str]] = {}
        heap: List[Tuple[int, int, Pos]] = [(0, 0, here)]
        order = "nesw"
        tie = 0
        fallback: Optional[Pos] = None  # exploring: the nearest unknown cell off the heading
        hx, hy = self.heading
        while heap and len(dist) < SEARCH_LIMIT:
            d, _, c = heapq.heappop(heap)
            if d > dist.get(c, 1 << 30):
                continue
            known = c in m.cells
            if goal is None and not known and c != here and fallback is None:
                fallback = c
            ahead = (c[0] - here[0]) * hx + (c[1] - here[1]) * hy > 0
            if c != here and (c in goal if goal is not None else not known and ahead):
                return self.path_to(c, here, prev)
            for s in order:
                n = add(c, OFFSETS[s])
                near = abs(n[0] - here[0]) + abs(n[1] - here[1]) <= 2
                if n in walls or n in occupied and near:
                    continue
                cost = 1 if n not in occupied else 1 + BUSY_COST
                cell = m.cells.get(n)
                if cell == OBSTACLE:
                    cost = CLEAR_COST  # cleared on the way (the agent's own cell: always in reach)
                elif cell is None:
                    cost = 2
                if n in self.danger:
                    cost += DANGER_COST
                if block is not None:
                    bc = add(n, block)
                    if m.cells.get(bc) == OBSTACLE or bc in walls or (bc in occupied and bc != here):
                        continue
                nd = d + cost
                if nd < dist.get(n, 1 << 30):
                    dist[n] = nd
                    prev[n] = (c, s)
                    tie += 1
                    heapq.heappush(heap, (nd, tie, n))
        if fallback is not None:  # nothing unknown ahead: turn
            self.heading = OFFSETS[self.rng.choice("nesw")]
            return self.path_to(fallback, here, prev)
        return None

    @staticmethod
    def path_to(c: Pos, here: Pos, prev: Dict[Pos, Tuple[Pos, str]]) -> List[str]:
        path: List[str] = []
        while c != here:
            c, step = prev[c]
            path.append(step)
        return path[::-1]
