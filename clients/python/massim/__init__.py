"""massim: a client for massim-go and the MASSim 2022 contest ("Agents Assemble").

Standard library only. The wire protocol is docs/protocol.md of massim-go;
this package's guide is docs/python.md.
"""

from .actions import (
    DIRECTIONS,
    OFFSETS,
    Action,
    ActionError,
    adopt,
    attach,
    clear,
    connect,
    detach,
    direction_of,
    disconnect,
    move,
    no_action,
    request,
    rotate,
    rotated,
    skip,
    submit,
    survey,
    survey_at,
)
from .connection import (
    AgentConnection,
    AuthError,
    Behaviour,
    ConnectionLost,
    FrameSocket,
    MassimError,
    ServerUnavailable,
    account_names,
    query_status,
)
from .percept import (
    AuthResponse,
    Bye,
    Event,
    InitialPercept,
    Message,
    Norm,
    Pos,
    NormRequirement,
    ProtocolError,
    RequestAction,
    Requirement,
    Role,
    SimEnd,
    SimStart,
    StatusResponse,
    StepPercept,
    Task,
    Thing,
    Unknown,
    parse_message,
)
from .runner import Blackboard, Team

__version__ = "0.1.0"

__all__ = [
    "DIRECTIONS", "OFFSETS", "Action", "ActionError", "adopt", "attach", "clear", "connect", "detach",
    "direction_of", "disconnect", "move", "no_action", "request", "rotate", "rotated", "skip", "submit",
    "survey", "survey_at", "AgentConnection", "AuthError", "Behaviour", "ConnectionLost", "FrameSocket",
    "MassimError", "ServerUnavailable", "account_names", "query_status", "AuthResponse", "Bye", "Event",
    "InitialPercept", "Message", "Norm", "Pos", "NormRequirement", "ProtocolError", "RequestAction", "Requirement",
    "Role", "SimEnd", "SimStart", "StatusResponse", "StepPercept", "Task", "Thing", "Unknown",
    "parse_message", "Blackboard", "Team", "__version__",
]
