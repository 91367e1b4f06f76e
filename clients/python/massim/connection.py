"""One agent's connection: login, the message loop, reconnection (docs/protocol.md)."""

from __future__ import annotations

import json
import logging
import random
import socket
import threading
import time
from typing import Any, Dict, List, Optional

from .actions import Action, skip
from .percept import (
    AuthResponse,
    Bye,
    Message,
    ProtocolError,
    RequestAction,
    SimEnd,
    SimStart,
    StatusResponse,
    Unknown,
    parse_message,
)

log = logging.getLogger("massim")


class MassimError(Exception):
    """Base of the errors this package raises."""


class AuthError(MassimError):
    """The server refused the login (unknown account or wrong password). Never retried."""


class ServerUnavailable(MassimError):
    """No server answered for as long as the connection was told to keep trying."""


class ConnectionLost(MassimError):
    """The connection closed (or broke) while a message was expected."""


class FrameSocket:
    """0-byte-terminated JSON frames over one TCP socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buf = bytearray()
        self._send_lock = threading.Lock()

    @classmethod
    def dial(cls, host: str, port: int, timeout: float) -> "FrameSocket":
        sock = socket.create_connection((host, port), timeout=timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(sock)

    def send(self, type: str, content: Dict[str, Any]) -> None:
        data = json.dumps({"type": type, "content": content}, separators=(",", ":")).encode() + b"\0"
        with self._send_lock:
            try:
                self.sock.sendall(data)
            except OSError as e:
                raise ConnectionLost(f"send {type}: {e}") from e

    def read_frame(self) -> Any:
        """The next frame, decoded; frames that are not JSON are logged and skipped."""
        while True:
            end = self._buf.find(0)
            while end < 0:
                try:
                    chunk = self.sock.recv(65536)
                except OSError as e:
                    raise ConnectionLost(f"read: {e}") from e
                if not chunk:
                    raise ConnectionLost("the server closed the connection")
                start = len(self._buf)
                self._buf += chunk
                end = self._buf.find(0, start)
            raw = bytes(self._buf[:end])
            del self._buf[: end + 1]
            try:
                return json.loads(raw)
            except ValueError:
                log.warning("dropping a frame that is not JSON (%d bytes)", len(raw))

    def read_message(self) -> Message:
        while True:
            frame = self.read_frame()
            try:
                return parse_message(frame)
            except ProtocolError as e:
                log.warning("dropping a frame: %s", e)

    def set_timeout(self, seconds: Optional[float]) -> None:
        self.sock.settimeout(seconds)

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class Behaviour:
    """What an agent does with the messages it gets; override what you need.

    ``act`` runs in the connection's thread; it must answer before the
    request's ``deadline`` (milliseconds since the epoch) to count.
    """

    def sim_start(self, start: SimStart) -> None:
        """A new simulation begins."""

    def resume(self, start: SimStart) -> None:
        """The connection came back during the simulation ``start`` (the same ``time``)."""

    def act(self, request: RequestAction) -> Action:
        from .actions import skip

        return skip()

    def sim_end(self, end: SimEnd) -> None:
        """The simulation is over (final score and ranking)."""

    def bye(self) -> None:
        """The tournament is over; the connection closes next."""

    def status(self, status: StatusResponse) -> None:
        """The answer to :meth:`AgentConnection.request_status`."""


#: The default answer of a step whose ``act`` raised.
_SKIP = skip()


class AgentConnection:
    """Logs one account in and serves a :class:`Behaviour` until the server says bye.

    A broken connection is dialled again with exponential backoff
    (``backoff_initial`` doubling up to ``backoff_max`` seconds, with jitter);
    a sim-start repeated after that resumes the running simulation and the
    request-action the server sends again is answered. ``give_up_after``
    seconds without a successful login end the attempts with
    :class:`ServerUnavailable` (``None``: never give up).

    When the behaviour's ``act`` raises, the error is logged and
    ``on_act_error`` is sent at once (default ``skip()``), so that a bug
    costs the step, not the whole deadline of every step; ``None`` sends
    nothing (the server then waits until the deadline and the agent plays
    ``no_action``).
    """

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        *,
        give_up_after: Optional[float] = 30.0,
        backoff_initial: float = 0.1,
        backoff_max: float = 5.0,
        auth_timeout: float = 10.0,
        logger: Optional[logging.Logger] = None,
        on_act_error: Optional[Action] = _SKIP,
    ) -> None:
        self.host, self.port, self.user = host, port, user
        self._password = password
        self.give_up_after = give_up_after
        self.backoff_initial, self.backoff_max = backoff_initial, backoff_max
        self.auth_timeout = auth_timeout
        self.on_act_error = on_act_error
        self.log = logger or log.getChild(user)
        self._sock: Optional[FrameSocket] = None
        self._stopped = threading.Event()
        self._sim_time: Optional[int] = None  # the running simulation's sim-start time
        self._last_id = -1  # the last request id seen
        self._last_action: Optional[Action] = None  # the answer to it
        self.logins = 0  # successful logins; more than 1 means reconnections

    def stop(self) -> None:
        """Ends :meth:`run` (from another thread): closes the socket, no reconnection."""
        self._stopped.set()
        sock = self._sock
        if sock is not None:
            sock.close()

    def request_status(self) -> None:
        """Sends a status-request; the answer goes to ``Behaviour.status``."""
        sock = self._sock
        if sock is None:
            raise ConnectionLost("not connected")
        sock.send("status-request", {})

    def drop(self) -> None:
        """Closes the current socket as if the network broke; :meth:`run` reconnects."""
        sock = self._sock
        if sock is not None:
            sock.close()

    def run(self, behaviour: Behaviour) -> None:
        """Serves ``behaviour`` until bye (returns) or a fatal error (raises)."""
        delay = self.backoff_initial
        trying_since = time.monotonic()
        first = True
        while not self._stopped.is_set():
            if not first:
                if self.give_up_after is not None and time.monotonic() - trying_since > self.give_up_after:
                    raise ServerUnavailable(
                        f"{self.user}: no login at {self.host}:{self.port} for {self.give_up_after:g} s"
                    )
                wait = delay * (0.5 + random.random() / 2)
                self.log.info("reconnecting in %.2f s", wait)
                if self._stopped.wait(wait):
                    return
                delay = min(delay * 2, self.backoff_max)
            first = False
            try:
                sock = FrameSocket.dial(self.host, self.port, self.auth_timeout)
            except OSError as e:
                self.log.warning("cannot connect to %s:%d: %s", self.host, self.port, e)
                continue
            self._sock = sock
            try:
                self._login(sock)
                self.log.info("logged in")
                delay, trying_since = self.backoff_initial, time.monotonic()
                if self._serve(sock, behaviour):
                    return
            except ConnectionLost as e:
                if self._stopped.is_set():
                    return
                self.log.warning("connection lost: %s", e)
                trying_since = min(trying_since, time.monotonic())
            finally:
                sock.close()
                self._sock = None

    def _login(self, sock: FrameSocket) -> None:
        sock.set_timeout(self.auth_timeout)
        sock.send("auth-request", {"user": self.user, "pw": self._password})
        while True:
            msg = sock.read_message()  # a timeout is a ConnectionLost
            if isinstance(msg, AuthResponse):
                break
            self.log.warning("ignoring %s before auth-response", type(msg).__name__)
        if not msg.ok:
            raise AuthError(f"the server refused the login of {self.user} (result {msg.result!r}): "
                            "unknown account or wrong password")
        sock.set_timeout(None)
        self.logins += 1

    def _serve(self, sock: FrameSocket, b: Behaviour) -> bool:
        """Handles messages until bye (True) or a lost connection (raises)."""
        while True:
            msg = sock.read_message()
            if isinstance(msg, RequestAction):
                self._act(sock, b, msg)
            elif isinstance(msg, SimStart):
                if msg.time == self._sim_time:
                    self.log.info("resuming the simulation started at %d", msg.time)
                    b.resume(msg)
                else:
                    self._sim_time = msg.time
                    self.log.info("simulation starts: %d steps", msg.percept.steps)
                    b.sim_start(msg)
            elif isinstance(msg, SimEnd):
                self.log.info("simulation ends: score %d, rank %d", msg.score, msg.ranking)
                self._sim_time = None
                b.sim_end(msg)
            elif isinstance(msg, Bye):
                self.log.info("bye")
                self._stopped.set()
                b.bye()
                return True
            elif isinstance(msg, StatusResponse):
                b.status(msg)
            elif isinstance(msg, Unknown):
                self.log.warning("ignoring a message of unknown type %r", msg.type)

    def _act(self, sock: FrameSocket, b: Behaviour, req: RequestAction) -> None:
        if req.id < self._last_id:
            self.log.debug("ignoring request %d: %d came already", req.id, self._last_id)
            return
        if req.id == self._last_id and self._last_action is not None:
            # The server sends a request again only when it has no answer
            # (the connection broke): the same answer, without thinking twice.
            self.log.info("answering request %d again after reconnecting", req.id)
            sock.send("action", self._last_action.content(req.id))
            return
        self._last_id, self._last_action = req.id, None
        try:
            action = b.act(req)
        except Exception:
            fallback = self.on_act_error
            if fallback is None:
                self.log.exception("act failed in step %d; no answer", req.step)
                return
            self.log.exception("act failed in step %d; answering %s", req.step, fallback.type)
            action = fallback
        self._last_action = action
        sock.send("action", action.content(req.id))


def query_status(host: str, port: int, timeout: float = 5.0) -> StatusResponse:
    """Asks the server for its status over a status connection of its own."""
    try:
        sock = FrameSocket.dial(host, port, timeout)
    except OSError as e:
        raise ServerUnavailable(f"cannot connect to {host}:{port}: {e}") from e
    try:
        sock.send("status-request", {})
        while True:
            msg = sock.read_message()
            if isinstance(msg, StatusResponse):
                return msg
    finally:
        sock.close()


def account_names(prefix: str, team: str, count: int) -> List[str]:
    """The accounts of a team: prefix + team + 1 … count (docs/config.md)."""
    return [f"{prefix}{team}{i}" for i in range(1, count + 1)]
