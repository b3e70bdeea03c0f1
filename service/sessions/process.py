"""Which process is answering a request, and whether it still runs.

A keyed request records its process (``host/pid/start``) with its key; a retry that finds the
key unanswered waits for that process only while it can run: on this host, a process that is
gone (or a pid taken by a newer process) will never answer, so the retry answers at once from
what was committed. A process on another host cannot be checked from here: the retry waits
(``idempotency.WAIT_FOR_FIRST``) as before.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path


def _started(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), "" where /proc is not
    readable, None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None if Path("/proc/self/stat").exists() else ""
    except OSError:
        return ""
    # the name (field 2) may hold spaces and parentheses: count fields after its last ')'
    return stat.rsplit(")", 1)[1].split()[19]


def identity(pid: int | None = None) -> str:
    pid = os.getpid() if pid is None else pid
    return f"{socket.gethostname()}/{pid}/{_started(pid) or ''}"


def gone(holder: str | None) -> bool:
    """True when the process ``holder`` names is known not to run any more."""
    if not holder or holder.count("/") < 2:
        return False  # recorded before processes were recorded: unknown
    host, pid_text, started = holder.rsplit("/", 2)
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    now = _started(int(pid_text))
    if now is None:
        return True
    if now == "" or started == "":
        return _no_such_process(int(pid_text))
    return now != started  # the pid now belongs to a newer process


def _no_such_process(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
