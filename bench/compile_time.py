"""Benchmark: the compiled engine's first compile, piece by piece, in CPU seconds.

    python bench/compile_time.py

Compiles into a new, empty cache folder (``MACHIKORO_CACHE_DIR`` set to a temporary folder
for this process alone, removed at the end), in the order the test suite's warm-up compiles
them: the engine (:class:`~machikoro.compiled.games.CompiledGames`), greedy for it
(:func:`~machikoro.agents.compiled_policies.play_greedy`), then the expert
(:class:`~machikoro.agents.compiled_policies.CompiledExpert`), each on one base-set game.
Prints ``time.process_time`` per piece (each piece's time leaves out what the ones before it
compiled). On a machine of two cores with another process busy, the CPU seconds grow too
(the cores share their caches): compare figures of one run, or of runs made side by side.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

PIECES = ("engine", "greedy", "expert")


def main() -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    folder = tempfile.mkdtemp(prefix="machikoro-compile-")
    os.environ["MACHIKORO_CACHE_DIR"] = folder  # (before the engine's modules are imported)
    try:
        from machikoro.agents.compiled_policies import CompiledExpert, play_greedy
        from machikoro.compiled.games import CompiledGames
        from machikoro.rules.loader import load_ruleset

        rules = load_ruleset()
        steps = {"engine": lambda: CompiledGames(rules, 2, [0]),
                 "greedy": lambda: play_greedy(CompiledGames(rules, 2, [0])),
                 "expert": lambda: CompiledExpert(CompiledGames(rules, 2, [0]))()}
        total = 0.0
        for piece in PIECES:
            start = time.process_time()
            steps[piece]()
            spent = time.process_time() - start
            total += spent
            print(f"{piece}: {spent:.0f} CPU s", flush=True)
        print(f"in all: {total:.0f} CPU s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
