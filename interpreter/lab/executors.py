"""Where chunks of games are played: in this process, on worker processes, or on Ray.

A job is a piece of games of a run, played by :func:`~machikoro.lab.engines.run_piece`
with the engine the run names: a chunk of the scalar engine or a batch of the batched one.
Results come back in job order; only a few jobs are in flight at a time, so memory stays
flat and Ctrl-C can stop the workers at once.

A worker loads a rule set once (:func:`~machikoro.rules.loader.cached_ruleset`, in
:func:`~machikoro.lab.runs.run_chunk` and :func:`~machikoro.lab.engines.run_batch`): a
forked worker finds the parent's compiled copy in memory, and a worker started afresh
(spawn, Ray) is given the parent's setting of the cache on disk
(:func:`~machikoro.rules.loader.disk_cache_setting`), so it reads the copy the parent
stored there instead of compiling the files again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from ..records import Record, field
from ..rules.loader import disk_cache_setting, use_disk_cache
from .engines import run_piece
from .runs import RunSpec


def _start_worker(cache: tuple) -> None:
    """A pool worker's start: Ctrl-C is left to the main process (which stops the workers
    and reports), and the rule sets come through the parent's cache ``setting``."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _use_cache(cache)


def _use_cache(setting: tuple) -> None:
    # only when it differs: setting it clears the compiled copies a forked worker inherited
    if disk_cache_setting() != setting:
        use_disk_cache(*setting)


def _star(job: tuple) -> tuple:
    return run_piece(*job)


def _ray_job(job: tuple, cache: tuple) -> tuple:
    """A job on a Ray worker, through the driver's cache ``setting``."""
    _use_cache(cache)
    return run_piece(*job)


class Executor(Record, frozen=False):
    """Runs chunks of games: ``kind`` is ``local`` (``workers`` processes; 1 = in this
    process) or ``ray`` (a Ray cluster at ``RAY_ADDRESS``, or a local Ray started here).
    Use it as a context manager; :meth:`map` yields results in chunk order."""

    kind: str = "local"
    workers: int = 1
    _pool: Any = field(default=None, repr=False)
    _cache: tuple = field(default=(False, None), repr=False)
    _futures: list = field(default_factory=list, repr=False)

    def __enter__(self) -> Executor:  # noqa: PYI034 - a plain class, no subclasses
        self._cache = disk_cache_setting()  # what the workers load rule sets through
        if self.kind == "ray":
            try:
                import ray
            except ImportError:
                raise RuntimeError("the ray executor needs Ray: pip install 'ray>=2.9', or "
                                   "pip install '.[cluster]' in a clone of machikoro") \
                    from None
            if not ray.is_initialized():
                ray.init(ignore_reinit_error=True, log_to_driver=False,
                         include_dashboard=False, logging_level="ERROR",
                         configure_logging=True)
            self._pool = ray.remote(_ray_job)
        elif self.workers > 1:
            import multiprocessing

            context = multiprocessing.get_context("fork" if hasattr(__import__("os"), "fork")
                                                  else "spawn")
            self._pool = context.Pool(self.workers, initializer=_start_worker,
                                      initargs=(disk_cache_setting(),))
        return self

    def abort(self) -> None:
        """Stop the workers now (after Ctrl-C); unfinished chunks are dropped."""
        if self.kind == "local" and self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        elif self.kind == "ray":
            import ray

            for future in self._futures:
                ray.cancel(future, force=True)
            self._futures = []

    def __exit__(self, *exc) -> None:
        if exc[0] is not None:
            self.abort()
        elif self.kind == "local" and self._pool is not None:
            self._pool.close()
            self._pool.join()
        self._pool = None

    def map(self, spec: RunSpec, pieces: Iterable[tuple[int, int]]) -> Iterator[tuple]:
        """Run ``spec``'s games in each ``(start, stop)`` piece; yields ``run_piece``'s
        results in piece order."""
        return self.run((spec, a, b) for a, b in pieces)

    def run(self, jobs: Iterable[tuple]) -> Iterator[tuple]:
        """Run ``(spec, start, stop)`` jobs (specs may differ, as in a comparison); yields
        ``run_piece``'s results in job order. Results finished ahead of an earlier job wait
        in memory, so jobs should be of a similar size (chunks); on Ray at most two jobs per
        CPU are in flight, so the object store does not fill with a long run's results."""
        if self.kind == "ray":
            yield from self._run_ray(jobs)
        elif self._pool is not None:
            yield from self._run_pool(jobs)
        else:
            for job in jobs:
                yield _star(job)

    def _run_pool(self, jobs: Iterable[tuple]) -> Iterator[tuple]:
        # a few jobs in flight, not all of them: the pool's task pipe never fills, so
        # stopping the pool (Ctrl-C) can never wait on a blocked task-feeding thread
        window = 2 * self.workers
        pending: deque = deque()
        for job in jobs:
            pending.append(self._pool.apply_async(_star, (job,)))
            if len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()

    def _run_ray(self, jobs: Iterable[tuple]) -> Iterator[tuple]:
        import ray

        window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
        self._futures = []
        for job in jobs:
            self._futures.append(self._pool.remote(job, self._cache))
            if len(self._futures) >= window:
                yield ray.get(self._futures.pop(0))
        while self._futures:
            yield ray.get(self._futures.pop(0))
