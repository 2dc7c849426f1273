"""Pictures of simulation results (matplotlib, the optional extra ``machikoro[plot]``)."""

from __future__ import annotations


def require_matplotlib() -> str | None:
    """None when matplotlib and adjustText (which keeps the cards' labels apart) can be
    imported, else what to install."""
    try:
        import adjustText  # noqa: F401
        import matplotlib  # noqa: F401
    except ImportError:
        return ("needs matplotlib and adjustText: pip install 'matplotlib>=3.7' "
                "'adjustText>=1.0', or pip install '.[plot]' in a clone of machikoro")
    return None


def plot_simulation(reports: list[dict], path: str, labels: list[str] | None = None) -> None:
    """Draw one figure into ``path`` (PNG): win rate by seat with 95% intervals, by agent
    too when the agents differ, the game-length histogram (rounds), and each card's build
    rate against the win rate of its builders. Several reports (a comparison) are
    overlaid, one colour each.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from adjustText import adjust_text

    labels = labels or [r["ruleset"] for r in reports]
    names: list = []  # the cards' labels of the first report, and their points
    spots: tuple = ([], [])
    agents = len(reports[0].get("by_agent", ())) > 1
    fig, axes = plt.subplots(1, 4 if agents else 3, figsize=(22 if agents else 17, 5.2))
    seat_ax, length_ax, card_ax = axes[0], axes[-2], axes[-1]
    if agents:
        _agent_panel(axes[1], reports, labels)
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
                names = [card_ax.text(x, y, name, fontsize=7) for x, y, name in points]
                spots = ([p[0] for p in points], [p[1] for p in points])
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
    if names:  # moved apart so that no two labels overlap, each tied to its point
        adjust_text(names, x=spots[0], y=spots[1], ax=card_ax, expand=(1.3, 1.8),
                    arrowprops={"arrowstyle": "-", "color": "grey", "linewidth": 0.5})
    for ax in axes:
        if len(reports) > 1:
            ax.legend(fontsize=8)
    games = f"{reports[0]['games']} games" + (" each" if len(reports) > 1 else "")
    fig.suptitle(f"{' vs '.join(labels)} - {players} players, "
                 f"{', '.join(reports[0]['agents'])}; {games}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _agent_panel(ax, reports: list[dict], labels: list[str]) -> None:
    """Win rate by agent (every seat it played), with 95% intervals."""
    names = [a["agent"] for a in reports[0]["by_agent"]]
    width = 0.8 / len(reports)
    for k, (rep, label) in enumerate(zip(reports, labels)):
        rows = {a["agent"]: a for a in rep["by_agent"]}
        xs = [i + (k - (len(reports) - 1) / 2) * width for i in range(len(names))]
        rates = [100 * rows[n]["rate"] for n in names]
        errors = [[100 * (rows[n]["rate"] - rows[n]["ci95"][0]) for n in names],
                  [100 * (rows[n]["ci95"][1] - rows[n]["rate"]) for n in names]]
        ax.bar(xs, rates, width=width, yerr=errors, capsize=4, label=label, alpha=0.85)
    ax.axhline(100 / reports[0]["players"], color="grey", linestyle=":", linewidth=1)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("win rate, % (95% Wilson interval)")
    ax.set_title(f"Win rate by agent (seats {reports[0].get('seating', 'fixed')})")


def plot_tournament(rep: dict, path: str) -> None:
    """Draw a tournament report into ``path``: one heat map per player count, the row
    strategy's win rate (%) at the tables it shares with the column strategy, and a last
    column with its win rate over all its tables; colours are centred on the fair share
    (100 / players), green above it, red below; strategies in the report's ``ranking``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import TwoSlopeNorm

    names = rep["ranking"]  # rows and columns best first, as in the text report
    grids = rep["head_to_head"]
    overall = {(o["strategy"], o["players"]): o["rate"] for o in rep["overall"]}
    size = 0.62 * (len(names) + 1) + 2.5
    fig, axes = plt.subplots(1, len(grids), figsize=(size * len(grids), size * 0.86),
                             squeeze=False)
    for ax, grid in zip(axes[0], grids):
        n = grid["players"]
        cells = {(row["strategy"], c["strategy"]): c["rate"] for row in grid["rows"]
                 for c in row["against"]}
        values = np.array([[np.nan if cells[row, column] is None else 100 * cells[row, column]
                            for column in names]
                           + [np.nan if overall[row, n] is None else 100 * overall[row, n]]
                           for row in names], dtype=float)
        norm = TwoSlopeNorm(vmin=0, vcenter=100 / n, vmax=100)
        image = ax.imshow(values, cmap="RdYlGn", norm=norm)
        for (i, j), value in np.ndenumerate(values):
            if not np.isnan(value):
                ax.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=8)
        ax.axvline(len(names) - 0.5, color="black", linewidth=1.5)
        ax.set_xticks(range(len(names) + 1))
        ax.set_xticklabels(names + ["all tables"], rotation=45, ha="right", fontsize=8)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names, fontsize=8)
        ax.set_xlabel("against (at the same table)")
        ax.set_title(f"{n} players: row's win rate, % (fair share {100 / n:.0f})",
                     fontsize=10)
        fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.suptitle(f"Tournament, seats rotated: {rep['games_per_table']} games per table, "
                 f"seed {rep['seed']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
