"""Make the bundled weights (weights/) that are missing: one ``machikoro train`` run per
bundled rule set and player count, in the order a user most likely needs them (2 players
first), each written to ``weights/DIGEST-Np.npz``.

    python bench/train_bundled.py [--rounds 2] [--games 3000] [--nets 3] [--check 1000]
                                  [--workers 1] [--only harbor,machi-koro-2] [--dry-run]
                                  [--remake-older]

A file already in weights/ is kept (delete it to remake it); with ``--remake-older``, a
file fitted to game outcomes (made before ``--td-lambda``: its record has no ``td_lambda``)
is trained again beside it and replaced only when the new check against greedy comes out
higher. Each run is the plain
``machikoro train`` command with ``--out``, so its record (``meta``: the command, seed,
games, CPU seconds and the strength check against greedy) says how it was made;
weights/README.md lists them. Weights whose check comes out below a fair share against
greedy are removed (said on the output): a bundled expert never plays worse than greedy.
Runs one after another; stop it at any time: a run interrupted leaves no file (train
writes its file whole at the end).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from machikoro.agents.value import weights_name
from machikoro.data.bundled import resolve_variant
from machikoro.rules.loader import load_cached

ROOT = Path(__file__).resolve().parent.parent
RULE_SETS = {  # name: the --variant options, in stacking order
    "base": [], "market/hybrid": ["market/hybrid"], "market/variable": ["market/variable"],
    "millionaires-row": ["millionaires-row"], "harbor": ["harbor"],
    "harbor+millionaires-row": ["harbor", "millionaires-row"], "machi-koro-2": ["machi-koro-2"],
}
OPTIONS = {  # (rule set, from this many players on): train's options there
    ("base", 2): ["--rounds", "4", "--games", "6000", "--nets", "5", "--engine", "vector",
                  "--lineup", "self,strategy,greedy,previous,strategy", "--calibrate", "200",
                  "--seed", "8"],
    ("base", 3): [],
    ("harbor+millionaires-row", 2): ["--town", "incomes", "--lineup",
                                     "self,strategy,greedy,previous,strategy"],
    ("harbor", 3): ["--town", "copies", "--td-lambda", "1"],
    ("harbor+millionaires-row", 3): ["--town", "incomes", "--td-lambda", "1"],
    ("millionaires-row", 4): ["--town", "incomes", "--td-lambda", "1"],
    ("machi-koro-2", 3): ["--town", "incomes"],
}
"""``train``'s options where its defaults are not the ones to use (docs/agents.md): with
both expansions a town is seen through its incomes alone (a column per icon or per card
misled the value there); on Harbor from 3 players on the targets are the outcomes
(λ-returns gave an expert that won 0-3.5% at 4 players; fitted to outcomes, 2 rounds of
600 games won 45.8% on Harbor and 60.8% with both expansions, one against three greedy);
with both expansions at 2 players, two games in five against the strategies (65.0% against
cheese-factory in bench/expert.py, 40.3% with one in five); Millionaire's Row at 4 players fitted to outcomes,
with incomes (50.7%; the defaults 39.3%); Machi
Koro 2 from 3 players on sees a town through its incomes (54.8% at 3 players, 50.4% at 4;
the defaults 37.1% and 40.4%); the base set at 2 players, 4 rounds of 6,000 games, two
in five against the strategies (74.5% against cheese-factory, 55.1% against mcts:200; one
in five before: 64.8% and 58.8%), seed 8: the strongest of eight seeds against
cheese-factory on 4,000 games of bench/expert.py, then 76.9% and 75.8% on 2,000 and 4,000
games it was not chosen on (bench/train_seeds.py; docs/agents.md)."""


def options(name: str, players: int) -> list[str]:
    """The :data:`OPTIONS` of ``name`` at ``players`` seats: its entry with the most
    players at most ``players`` (none: train's defaults)."""
    found = [(n, opts) for (rule_set, n), opts in OPTIONS.items()
             if rule_set == name and n <= players]
    return max(found)[1] if found else []


def jobs(only: set[str] | None) -> list[tuple[str, list[str], int, str]]:
    """(rule set, variants, players, file name) for every bundled rule set and player
    count, 2 players first."""
    out = []
    for players in (2, 4, 3, 5):  # (2 players first: most games are played so)
        for name, variants in RULE_SETS.items():
            if only and name not in only:
                continue
            rules = load_cached([resolve_variant(v) for v in variants] or None)
            if rules.min_players <= players <= rules.max_players:
                out.append((name, variants, players, weights_name(rules, players)))
    return out


def _keep_if_strong(out: Path, players: int) -> None:
    """Remove weights whose strength check against greedy came out below a fair share
    (the expert would play worse than greedy with them): say so, and keep nothing."""
    if not out.exists():
        return
    from machikoro.agents.value import read_weights

    check = read_weights(out).meta.get("strength") or {}
    if check.get("rate", 0.0) < 1 / players:
        out.unlink()
        print(f"rejected {out.name}: {check.get('rate', 0.0):.1%} against greedy, below a "
              f"fair share ({1 / players:.0%})", flush=True)


def _check_rate(path: Path) -> float:
    """The strength check's share of wins against greedy recorded in weights ``path``."""
    from machikoro.agents.value import read_weights

    return (read_weights(path).meta.get("strength") or {}).get("rate", 0.0)


def _older(path: Path) -> bool:
    """True for weights fitted to game outcomes alone (their record has no ``td_lambda``)."""
    from machikoro.agents.value import read_weights

    return "td_lambda" not in read_weights(path).meta


def _keep_better(new: Path, old: Path) -> None:
    """Move ``new`` over ``old`` when its check against greedy is higher, else drop it;
    say which."""
    if not new.exists():
        return
    before, after = _check_rate(old), _check_rate(new)
    if after > before:
        new.replace(old)
        print(f"replaced {old.name}: {before:.1%} -> {after:.1%} against greedy", flush=True)
    else:
        new.unlink()
        print(f"kept {old.name}: {before:.1%}, the new weights {after:.1%}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", default="2")
    parser.add_argument("--games", default="3000")
    parser.add_argument("--nets", default="3")
    parser.add_argument("--check", default="1000")
    parser.add_argument("--workers", default="1")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--only", default=None, help="rule sets, comma-separated")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--remake-older", action="store_true",
                        help="train again the files fitted to outcomes, keep the better")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    for name, variants, players, file in jobs(only):
        out = ROOT / "weights" / file
        remake = out.exists() and args.remake_older and _older(out)
        if out.exists() and not remake:
            print(f"kept {file} ({name}, {players} players)", flush=True)
            continue
        # (a remade file is written apart, outside the package's weights, until it wins)
        target = Path(tempfile.gettempdir()) / f"machikoro-remade-{file}" if remake else out
        command = ["machikoro", "train", *[a for v in variants for a in ("--variant", v)],
                   "--players", str(players), "--rounds", args.rounds, "--games", args.games,
                   "--nets", args.nets, "--check", args.check, "--workers", args.workers,
                   "--seed", args.seed, "--out",
                   str(target) if remake else f"weights/{file}",
                   *options(name, players)]
        print(f"{name}, {players} players: {' '.join(command)}", flush=True)
        if not args.dry_run:
            subprocess.run([sys.executable, "-m", "machikoro", *command[1:]], cwd=ROOT,
                           check=False)
            if remake:
                _keep_better(target, out)
            else:
                _keep_if_strong(out, players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
