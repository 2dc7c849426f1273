"""Pictures of simulation results (matplotlib, the optional extra ``machikoro[plot]``)."""

from __future__ import annotations


def require_matplotlib() -> str | None:
    """None when matplotlib can be imported, else what to install."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return ("needs matplotlib: pip install 'matplotlib>=3.7', or pip install '.[plot]' "
                "in a clone of machikoro")
    return None


def plot_simulation(reports: list[dict], path: str, labels: list[str] | None = None) -> None:
    """Draw one figure of three panels into ``path`` (PNG): win rate by seat with 95%
    intervals, the game-length histogram (turns), and each card's build rate against the
    win rate of its builders. Several reports (a comparison) are overlaid, one colour each.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = labels or [r["ruleset"] for r in reports]
    fig, (seat_ax, length_ax, card_ax) = plt.subplots(1, 3, figsize=(17, 5.2))
    width = 0.8 / len(reports)
    for k, (rep, label) in enumerate(zip(reports, labels)):
        seats = rep["seats"]
        xs = [s["seat"] + (k - (len(reports) - 1) / 2) * width for s in seats]
        rates = [100 * s["rate"] for s in seats]
        errors = [[100 * (s["rate"] - s["ci95"][0]) for s in seats],
                  [100 * (s["ci95"][1] - s["rate"]) for s in seats]]
        seat_ax.bar(xs, rates, width=width, yerr=errors, capsize=4, label=label, alpha=0.85)
        # rounds, not turns: with N players the winner's turns make turn counts jagged
        hist = {int(t): n for t, n in rep["rounds_histogram"].items()}
        if hist:
            low, top = min(hist), max(hist)
            edges = range(low, top + 2, max(1, (top + 1 - low) // 40))
            # the histogram as weights: one point per game length, not one per game
            length_ax.hist(list(hist), bins=list(edges), weights=list(hist.values()),
                           histtype="step", linewidth=1.8, label=label, density=True)
        points = [(c["built_by"] * 100, c["builder_win_rate"] * 100, c["id"])
                  for c in rep["cards"] if c["builder_win_rate"] is not None]
        if points:
            card_ax.scatter([p[0] for p in points], [p[1] for p in points], label=label,
                            alpha=0.8)
            if k == 0:
                for x, y, name in points:
                    card_ax.annotate(name, (x, y), fontsize=7, xytext=(3, 2),
                                     textcoords="offset points")
    players = reports[0]["players"]
    seat_ax.axhline(100 / players, color="grey", linestyle=":", linewidth=1)
    seat_ax.set_xticks(range(1, players + 1))
    seat_ax.set_xlabel("seat (turn order)")
    seat_ax.set_ylabel("win rate, % (95% Wilson interval)")
    seat_ax.set_title("Win rate by seat")
    length_ax.set_xlabel("game length, rounds (one turn of every player)")
    length_ax.set_ylabel("share of games")
    length_ax.set_title("Game length")
    card_ax.axhline(100 / players, color="grey", linestyle=":", linewidth=1)
    card_ax.set_xlabel("players who built it, %")
    card_ax.set_ylabel("win rate of those players, %")
    card_ax.set_title("Cards: build rate vs win rate")
    for ax in (seat_ax, length_ax, card_ax):
        if len(reports) > 1:
            ax.legend(fontsize=8)
    games = ", ".join(f"{r['games']} games" for r in reports[:1])
    fig.suptitle(f"{' vs '.join(labels)} - {players} players, "
                 f"{', '.join(reports[0]['agents'])}; {games} each")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
