"""A team runner: one thread per agent and a shared, lock-protected blackboard.

Threads, not asyncio: each agent's ``act`` is plain blocking code (no
``async`` to learn), the work between messages is short, and the sockets
spend nearly all their time waiting, which threads do well despite the GIL.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Dict, Iterator, List, Optional, TypeVar
from contextlib import contextmanager

from .actions import Action, skip
from .connection import AgentConnection, AuthError, Behaviour, account_names

T = TypeVar("T")
log = logging.getLogger("massim.team")


class Blackboard:
    """Data shared by a team's agents. Every access holds one lock.

    ``get``/``set``/``update`` are atomic one by one; ``with board.locked() as d:``
    makes several reads and writes atomic together.
    """

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._data: Dict[str, Any] = {}

    def get(self, key: str, default: Any = None) -> Any:
        with self._lock:
            return self._data.get(key, default)

    def set(self, key: str, value: Any) -> None:
        with self._lock:
            self._data[key] = value

    def update(self, key: str, fn: Callable[[Any], T], default: Any = None) -> T:
        """Replaces the value of ``key`` by ``fn(old value)`` atomically; returns it."""
        with self._lock:
            new = fn(self._data.get(key, default))
            self._data[key] = new
            return new

    @contextmanager
    def locked(self) -> Iterator[Dict[str, Any]]:
        with self._lock:
            yield self._data


#: Makes an agent's behaviour: (account name, index from 0, the team's blackboard).
BehaviourFactory = Callable[[str, int, Blackboard], Behaviour]


_SKIP = skip()


class Team:
    """Runs ``count`` agents of one team, each in its own thread, until bye.

    ``on_act_error`` is what an agent answers at once when its behaviour's
    ``act`` raises (default ``skip()``; ``None``: no answer, see
    :class:`AgentConnection`).
    """

    def __init__(
        self,
        host: str,
        port: int,
        team: str,
        password: str,
        count: int,
        factory: BehaviourFactory,
        *,
        prefix: str = "agent",
        give_up_after: Optional[float] = 30.0,
        on_act_error: Optional[Action] = _SKIP,
    ) -> None:
        self.board = Blackboard()
        self.connections: List[AgentConnection] = []
        self.behaviours: List[Behaviour] = []
        for i, user in enumerate(account_names(prefix, team, count)):
            self.behaviours.append(factory(user, i, self.board))
            self.connections.append(
                AgentConnection(host, port, user, password, give_up_after=give_up_after, on_act_error=on_act_error)
            )
        self.errors: List[BaseException] = []
        self._lock = threading.Lock()

    def _serve(self, conn: AgentConnection, b: Behaviour) -> None:
        try:
            conn.run(b)
        except BaseException as e:  # handed to run()'s caller
            log.error("%s: %s", conn.user, e)
            with self._lock:
                self.errors.append(e)
            if isinstance(e, AuthError):
                self.stop()

    def run(self) -> None:
        """Serves every agent; returns after bye, raises the first agent error."""
        threads = [
            threading.Thread(target=self._serve, args=(c, b), name=c.user, daemon=True)
            for c, b in zip(self.connections, self.behaviours)
        ]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.5)
        except KeyboardInterrupt:
            self.stop()
            raise
        if self.errors:
            raise self.errors[0]

    def stop(self) -> None:
        for c in self.connections:
            c.stop()
