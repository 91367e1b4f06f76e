"""A small MASSim team in Python (standard library only), for the tests of
team commands (docs/config.md, "Team commands").

Each agent is a thread with its own connection: it logs in and answers
every request-action with skip, until bye or until the connection ends.
The program also starts two helper processes, one that stays in the
team's process group and one that leaves it (a session of its own, as a
daemon would), so that the tests see that none outlives the server.
It prints a record line first ("teamcmdtest record: " and JSON, as the
Go team programs of package teamcmdtest do): its argv, the MASSIM_* and
TEST_* variables, its pid and process group, the helpers' pids, its PID
namespace and user id.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time


def agent(host, port, user, password, done):
    try:
        sock = socket.create_connection((host, port))
    except OSError as err:
        print(f"{user}: cannot connect: {err}", flush=True)
        return
    with sock:
        send(sock, {"type": "auth-request", "content": {"user": user, "pw": password}})
        buf = b""
        while not done.is_set():
            data = sock.recv(65536)
            if not data:
                return
            buf += data
            while b"\0" in buf:
                frame, buf = buf.split(b"\0", 1)
                msg = json.loads(frame)
                kind = msg.get("type")
                if kind == "auth-response":
                    print(f"{user}: {msg['content']['result']}", flush=True)
                elif kind == "request-action":
                    send(sock, {"type": "action", "content": {"id": msg["content"]["id"], "type": "skip", "p": []}})
                elif kind == "bye":
                    return


def send(sock, msg):
    sock.sendall(json.dumps(msg).encode() + b"\0")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", default=os.environ.get("MASSIM_HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(os.environ.get("MASSIM_PORT", "12300")))
    p.add_argument("--team", default=os.environ.get("MASSIM_TEAM", "A"))
    p.add_argument("--prefix", default=os.environ.get("MASSIM_PREFIX", "agent"))
    p.add_argument("--agents", type=int, default=int(os.environ.get("MASSIM_AGENTS", "1")))
    args = p.parse_args()
    password = os.environ.get("MASSIM_PASSWORD", "")

    sleeper = [sys.executable, "-c", "import time; time.sleep(3600)"]
    helpers = [subprocess.Popen(sleeper), subprocess.Popen(sleeper, start_new_session=True)]
    env = {k: v for k, v in os.environ.items() if k.startswith("MASSIM_") or k.startswith("TEST_")}
    line = {"argv": sys.argv, "env": env, "pid": os.getpid(), "pgid": os.getpgrp(),
            "dir": os.getcwd(), "children": [h.pid for h in helpers],
            "pidns": os.readlink("/proc/self/ns/pid"), "uid": os.getuid()}
    print("teamcmdtest record: " + json.dumps(line), flush=True)

    print(f"python team {args.team}: {args.agents} agents to {args.host}:{args.port}", flush=True)
    done = threading.Event()
    threads = []
    for i in range(1, args.agents + 1):
        user = f"{args.prefix}{args.team}{i}"
        t = threading.Thread(target=agent, args=(args.host, args.port, user, password, done), daemon=True)
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    print("all agents ended", flush=True)
    time.sleep(3600)  # a team that lingers: the server stops it


if __name__ == "__main__":
    main()
