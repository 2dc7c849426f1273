"""Profile: where the compiled engine's random games spend their time, by instruction, with
Linux ``perf`` on the optimised code as users run it.

    python bench/profile_compiled.py [--variant V] [--players 2] [--seconds 15]
                                     [--regions 20] [--out DIR]

The turn's code is one function of inlined functions (``kernels._play_on``), so a profile
by function says nothing, and Numba's debug information builds other code (compiled with
``NUMBA_DEBUGINFO``, even line directives only, random games ran a third slower and the
swaps' functions, which LLVM inlines otherwise, took 30% of the samples against 4%). This
reads perf's raw addresses instead:

1. a child process loads the engine's code from the cache (compile it once before: ``python
   bench/compiled.py --sizes 1``), keeping each library's object code as Numba hands it to
   the JIT, and writes it (``DIR/lib*.o``) with the address each of its symbols was loaded
   at; then it plays random games for ``--seconds`` CPU seconds under ``perf record``;
2. each sample is mapped to its symbol and its offset in that object code; the share of
   samples per symbol is printed, then the ``--regions`` hottest 256-byte regions of code
   with their hottest instructions (``objdump``), for a person to read against
   ``compiled/kernels.py`` (the SplitMix64 constants mark the generator, a loop over
   ``by_cost`` the build menu...).

Needs ``perf`` (Debian's ``linux-perf``) allowed to sample this process, and ``objdump``.
Stop 60 found so, on the base set at 2 players: the build menu's loop about a fifth of
the time, the random agents' draws about a tenth, the swaps' call about 4%.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, subprocess, sys, time
import numpy as np
from numba.core import codegen
kept = []
handed = codegen.CPUCodeLibrary._set_compiled_object
def keep(library, value):
    kept.append((library, bytes(value)))
    return handed(library, value)
codegen.CPUCodeLibrary._set_compiled_object = keep
from machikoro.compiled.games import CompiledGames
from machikoro.rules.loader import load_cached
from machikoro.data.bundled import resolve_variant
variant, players, seconds, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
rules = load_cached([resolve_variant(v) for v in variant.split("+")] if variant != "base"
                    else None)
def batch(first, n=20000):
    games = CompiledGames(rules, players, range(first, first + n))
    games.play_random(np.arange(first, first + n)[:, None] * 16 + np.arange(players))
    return int(games.turns.sum())
batch(0, 10)
if not kept:
    sys.exit("the engine's code was compiled in this process, not loaded: run again")
table = []
for i, (library, code) in enumerate(kept):
    path = f"{out}/lib{i}.o"
    open(path, "wb").write(code)
    names = subprocess.run(["nm", "--defined-only", path], capture_output=True,
                           text=True, check=True).stdout
    for line in names.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTWw":
            address = library.get_pointer_to_function(parts[2])
            if address:
                table.append((address, int(parts[0], 16), path, parts[2]))
json.dump(table, open(f"{out}/symbols.json", "w"))
print("playing", flush=True)
start, turns, first = time.process_time(), 0, 1
while time.process_time() - start < seconds:
    turns += batch(first)
    first += 20000
print(f"{turns / (time.process_time() - start):,.0f} turns a CPU second", flush=True)
"""


def samples(out: Path) -> tuple[collections.Counter, collections.Counter, int]:
    """Per (object file, offset) and per symbol, the samples that fell in the engine's
    code; and how many samples there were in all."""
    table = sorted(json.loads((out / "symbols.json").read_text()))
    starts = [row[0] for row in table]
    found = subprocess.run(["perf", "script", "-i", str(out / "perf.data"), "-F", "ip"],
                           capture_output=True, text=True, check=True).stdout.split()
    by_place, by_symbol = collections.Counter(), collections.Counter()
    for text in found:
        ip = int(text, 16)
        j = bisect.bisect_right(starts, ip) - 1
        if j < 0 or ip - starts[j] > 1 << 22:  # (not in the engine's code)
            continue
        start, offset, path, name = table[j]
        by_place[path, offset + ip - start] += 1
        by_symbol[name] += 1
    return by_place, by_symbol, len(found)


def short(symbol: str) -> str:
    """The function of an engine's symbol (Numba's mangled name: each part after its
    length), else the symbol's first 60 characters."""
    found = re.search(r"kernels(\d+)", symbol)
    if found is None:
        return symbol[:60]
    start = found.end()
    return symbol[start:start + int(found.group(1))]


def report(out: Path, regions: int) -> None:
    by_place, by_symbol, total = samples(out)
    inside = sum(by_symbol.values())
    print(f"{inside:,} of {total:,} samples in the engine's code")
    for name, count in by_symbol.most_common(8):
        print(f"  {count / inside:6.1%}  {short(name)}")
    region = collections.Counter()
    for (path, offset), count in by_place.items():
        region[path, offset // 256] += count
    for (path, block), count in region.most_common(regions):
        print(f"\n{count / inside:6.1%}  {Path(path).name} {block * 256:#x}-{block * 256 + 256:#x}")
        code = subprocess.run(
            ["objdump", "-d", "--no-show-raw-insn", "-j", ".ltext",
             f"--start-address={block * 256}", f"--stop-address={block * 256 + 256}", path],
            capture_output=True, text=True, check=True).stdout
        for line in code.splitlines():
            head, _, rest = line.strip().partition(":")
            try:
                share = by_place.get((path, int(head, 16)), 0) / inside
            except ValueError:
                continue
            if share >= 0.002:
                print(f"  {share:6.2%}  {rest.split('<')[0].strip()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="base")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--regions", type=int, default=20)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    for tool in ("perf", "objdump", "nm"):
        if shutil.which(tool) is None:
            print(f"profile_compiled: {tool} is not installed", file=sys.stderr)
            return 1
    out = Path(args.out or tempfile.mkdtemp(prefix="machikoro-profile-"))
    out.mkdir(parents=True, exist_ok=True)
    child = [sys.executable, "-c", CHILD, args.variant, str(args.players),
             str(args.seconds), str(out)]
    done = subprocess.run(["perf", "record", "-q", "-F", "1999", "-o",
                           str(out / "perf.data"), *child], check=False)
    if done.returncode:
        return done.returncode
    report(out, args.regions)
    print(f"\n(object code, symbols and perf.data in {out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
