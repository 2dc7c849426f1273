"""The process that runs the tool calls of ``machikoro mcp``, and the server's handle on it.

The server (:class:`Worker`) starts ``python -P -m machikoro.mcp_server.worker FOLDER...``
at the first call and keeps it: it reads one JSON request a line on its standard input
(``{"tool": NAME, "arguments": {...}}``) and writes one JSON answer a line
(``{"result": {...}}`` or ``{"error": "message"}``) on the standard output it was started
with; anything else it prints goes to standard error (the server's, which an assistant
client keeps as its log), never into the answers.

Before a call it sets its CPU limit (``RLIMIT_CPU``, where the system has one) to the CPU
time it has used plus the call's budget and :data:`~.limits.HARD_GRACE`: a call past it
ends the process (SIGXCPU), and the server answers the call with an error and starts a
fresh process at the next call. The server also ends a call that runs past its wall-clock
limit. So no call, however it goes wrong, stops the server or outlasts its budget by much.
The process refuses to read outside the allowed folders (:func:`~.folders.guard_reads`).
"""

from __future__ import annotations

import json
import math
import os
import queue
import signal
import subprocess
import sys
import threading

from ..errors import DataError, MachikoroError
from .folders import Folders, guard_reads
from .limits import HARD_GRACE, WALL_FACTOR, WALL_GRACE, ToolProblem, budget_of


def answer(folders: Folders, request: dict) -> dict:
    """The answer to one request: ``{"result": ...}``, or ``{"error": message}`` for a bad
    request, argument or file (never an exception)."""
    from .tools import TOOLS, Call

    name, arguments = request.get("tool"), request.get("arguments") or {}
    tool = TOOLS.get(name)
    try:
        if tool is None or not isinstance(arguments, dict):
            raise ToolProblem(f"no tool {name!r}: the tools are {', '.join(TOOLS)}")
        _known(name, tool, arguments)
        seconds = budget_of(name, arguments)
        _limit_cpu(seconds + HARD_GRACE)
        return {"result": plain(tool(Call(folders, seconds), **arguments))}
    except DataError as exc:
        return {"error": "\n".join(p.render() for p in exc.problems)}
    except MachikoroError as exc:
        return {"error": str(exc)}
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        return {"error": f"{exc.strerror or exc}{where}"}
    except RecursionError:
        return {"error": f"{name}: the input is nested too deeply"}
    except Exception as exc:  # noqa: BLE001 - a bug: said, and the process goes on
        return {"error": f"{name}: internal error: {type(exc).__name__}: {exc}"}


def _known(name: str, tool, arguments: dict) -> None:
    """Raises :class:`ToolProblem` for an argument ``tool`` does not take."""
    import inspect

    taken = [p for p in inspect.signature(tool).parameters if p != "call"]
    unknown = [key for key in arguments if key not in taken]
    if unknown:
        raise ToolProblem(f"{name}: no argument {', '.join(map(repr, unknown))}; it takes "
                          f"{', '.join(taken) or 'none'}")


def plain(value):
    """``value`` as strict JSON takes it: tuples as lists, NumPy numbers as Python's, a
    float that is not finite as None."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _limit_cpu(seconds: float) -> None:
    """End this process (SIGXCPU) once it has used ``seconds`` more CPU time."""
    try:
        import resource
    except ImportError:  # no such limit here (Windows): the tools' own checks remain
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = used.ru_utime + used.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(spent + seconds)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def main(folders: list[str]) -> int:
    """The worker process: answer requests until standard input ends."""
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # a stray print goes to the log, not into the answers
    from ..data.cache import cache_dir
    from ..rules.loader import use_disk_cache

    allowed = Folders(folders)
    use_disk_cache(True)
    try:
        cache = cache_dir()
    except Exception:  # noqa: BLE001 - no user cache folder: rule sets compiled in memory
        cache = None
    from . import tools  # noqa: F401 - imported before the reads are guarded
    guard_reads(allowed, cache)
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            request = {"tool": None}
        reply = answer(allowed, request if isinstance(request, dict) else {"tool": None})
        answers.write(json.dumps(reply, ensure_ascii=False, allow_nan=False) + "\n")
        answers.flush()
    return 0


class Worker:
    """The server's handle on the worker process: :meth:`call` runs one tool call there,
    one at a time, starting (or restarting) the process when needed."""

    def __init__(self, folders: list[str]):
        self.folders = list(folders)
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()

    def call(self, tool: str, arguments: dict) -> dict:
        """The result of ``tool`` on ``arguments``. Raises :class:`ToolProblem` with the
        tool's error, or when the call ran past its CPU or wall-clock limit or the worker
        ended."""
        seconds = budget_of(tool, arguments)
        wall = seconds * WALL_FACTOR + WALL_GRACE
        with self._lock:
            process = self._started()
            try:
                process.stdin.write(json.dumps({"tool": tool, "arguments": arguments}) + "\n")
                process.stdin.flush()
                line = self._lines.get(timeout=wall)
            except queue.Empty:
                self.close()
                raise ToolProblem(f"{tool}: stopped after {wall:g} seconds of wall-clock "
                                  f"time (its budget: {seconds:g} CPU seconds)") from None
            except OSError:
                line = None
            if line is None:
                raise ToolProblem(self._ended(tool, seconds))
        try:
            reply = json.loads(line)
        except ValueError:
            raise ToolProblem(f"{tool}: the worker's answer was no JSON: {line[:200]!r}") \
                from None
        if "error" in reply:
            raise ToolProblem(reply["error"])
        return reply["result"]

    def _started(self) -> subprocess.Popen:
        if self._process is not None and self._process.poll() is None:
            return self._process
        env = dict(os.environ)
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
        # -P: no folder of the command line on the import path (the current folder could
        # hold a module of the same name as one this process imports)
        self._process = subprocess.Popen(
            [sys.executable, "-P", "-m", "machikoro.mcp_server.worker", "--", *self.folders],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
            env=env)
        self._lines = queue.Queue()
        threading.Thread(target=_read_lines, args=(self._process.stdout, self._lines),
                         daemon=True).start()
        return self._process

    def _ended(self, tool: str, seconds: float) -> str:
        """Why the worker ended during a call of ``tool``, for its error."""
        code = self._process.wait() if self._process is not None else None
        self._process = None
        if code == -getattr(signal, "SIGXCPU", 0):
            return (f"{tool}: stopped at its CPU limit ({seconds:g} CPU seconds and "
                    f"{HARD_GRACE} more): ask for fewer games or a smaller budget")
        if code == -getattr(signal, "SIGKILL", 0):
            return f"{tool}: the worker process was killed (out of memory?); it restarts " \
                   "at the next call"
        return f"{tool}: the worker process ended (exit status {code}); it restarts at " \
               "the next call"

    def close(self) -> None:
        """End the worker process (it is started again at the next call)."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()


def _read_lines(stream, lines: queue.Queue) -> None:
    """Put each line of ``stream`` on ``lines``, then None when it ends."""
    for line in stream:
        lines.put(line)
    lines.put(None)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    sys.exit(main(arguments[1:] if arguments[:1] == ["--"] else arguments))
