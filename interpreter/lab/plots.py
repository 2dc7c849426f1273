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


MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
"""The card panel's marker of each report (rule set), in order; then again."""


def plot_simulation(reports: list[dict], path: str, labels: list[str] | None = None) -> None:
    """Draw :func:`simulation_figure` into ``path`` (PNG or another format matplotlib
    writes). Raises OSError when the file cannot be written."""
    figure = simulation_figure(reports, labels)
    figure.savefig(path, dpi=110)


def simulation_figure(reports: list[dict], labels: list[str] | None = None):
    """The figure (a matplotlib ``Figure``, Agg canvas) of one simulation report or of the
    reports of a comparison (each rule set one colour, and one marker in the card panel),
    labelled ``labels`` (default: the rule sets' names).

    Top row: win rate by seat with 95% intervals, by agent too when the agents differ, and
    the game-length histogram (rounds). Bottom row: each card's build rate against its
    builders' win rate, one point per card and rule set, and beside it the key, which
    lists each card's number with, per rule set, the share of players who built it and
    their win rate (``-``: the rule set has no such card), then the cards no one built and
    those every player starts with.

    Every point carries its card's number; points that (nearly) coincide share one label
    (:data:`NEAR`); adjustText moves the labels apart, each tied to its point by a line.
    Where labels still overlap (a dense cluster: random agents build every card), points
    twice as near are grouped and the labels placed again, up to :data:`MAX_NEAR`.
    """
    labels = labels or [r["ruleset"] for r in reports]
    near = NEAR
    while True:
        figure, card_ax = _figure(reports, labels, near)
        if near * 2 > MAX_NEAR or not label_overlaps(card_ax):
            return figure
        near *= 2


def label_overlaps(ax) -> list[tuple[str, str]]:
    """The pairs of card labels (texts with a ``gid``) of the panel ``ax`` whose boxes, as
    drawn, overlap."""
    renderer = ax.figure.canvas.get_renderer()
    texts = [t for t in ax.texts if t.get_gid()]
    boxes = [t.get_window_extent(renderer) for t in texts]
    return [(texts[i].get_text(), texts[j].get_text()) for i in range(len(texts))
            for j in range(i + 1, len(texts)) if boxes[i].overlaps(boxes[j])]


def _figure(reports: list[dict], labels: list[str], near: float) -> tuple:
    """The figure of :func:`simulation_figure`, its card labels grouped by ``near``, and
    its card panel."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    numbered, idle, held = card_key(reports)
    key = _key_lines(reports, labels, numbered, idle, held)
    agents = len(reports[0].get("by_agent", ())) > 1
    top = 3 if agents else 2
    bottom = max(5.0, 0.16 * len(key) + 1.0)
    figure = Figure(figsize=(22 if agents else 17, 5.2 + bottom), layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.add_gridspec(2, 1, height_ratios=(5.2, bottom))
    panels = [figure.add_subplot(cell) for cell in grid[0].subgridspec(1, top)]
    card_ax, key_ax = (figure.add_subplot(cell) for cell in
                       grid[1].subgridspec(1, 2, width_ratios=(1.8, 1)))
    _seat_panel(panels[0], reports, labels)
    if agents:
        _agent_panel(panels[1], reports, labels)
    _length_panel(panels[-1], reports, labels)
    placed = _card_panel(card_ax, reports, labels, numbered, near)
    _card_key(key_ax, key)
    if len(reports) > 1:
        for ax in panels:
            ax.legend(fontsize=8)
    games = f"{reports[0]['games']} games" + (" each" if len(reports) > 1 else "")
    figure.suptitle(f"{' vs '.join(labels)} - {reports[0]['players']} players, "
                    f"{', '.join(reports[0]['agents'])}; {games}")
    # the labels are placed in the final layout, which then stays as it is: laid out
    # again, the panel would change size under labels placed for another one
    figure.draw_without_rendering()
    figure.set_layout_engine("none")
    _place_labels(card_ax, *placed)
    return figure, card_ax


def card_key(reports: list[dict]) -> tuple[list[str], list[str], list[str]]:
    """The cards of the reports, each once (in the order of the first report that has
    it): those built in some report (numbered from 1 in this order in the figure), those
    no one built, and those every player starts with and no one built (their
    ``built_per_game`` is None in every report that has them)."""
    seen: dict = {}
    for rep in reports:
        for c in rep["cards"]:
            seen.setdefault(c["id"], []).append(c)
    numbered = [i for i, rows in seen.items() if any(c["builder_win_rate"] is not None
                                                     for c in rows)]
    held = [i for i, rows in seen.items() if all(c["built_per_game"] is None for c in rows)]
    idle = [i for i in seen if i not in numbered and i not in held]
    return numbered, idle, held


def _seat_panel(ax, reports: list[dict], labels: list[str]) -> None:
    """Win rate by seat, with 95% intervals, one bar per report."""
    width = 0.8 / len(reports)
    for k, (rep, label) in enumerate(zip(reports, labels)):
        seats = rep["seats"]
        xs = [s["seat"] + (k - (len(reports) - 1) / 2) * width for s in seats]
        rates = [100 * s["rate"] for s in seats]
        errors = [[100 * (s["rate"] - s["ci95"][0]) for s in seats],
                  [100 * (s["ci95"][1] - s["rate"]) for s in seats]]
        ax.bar(xs, rates, width=width, yerr=errors, capsize=4, label=label, alpha=0.85,
               color=f"C{k}")
    players = reports[0]["players"]
    ax.axhline(100 / players, color="grey", linestyle=":", linewidth=1)
    ax.set_xticks(range(1, players + 1))
    ax.set_xlabel("seat (turn order)")
    ax.set_ylabel("win rate, % (95% Wilson interval)")
    ax.set_title("Win rate by seat")


def _length_panel(ax, reports: list[dict], labels: list[str]) -> None:
    """The game-length histogram, in rounds (with N players the winner's turns make turn
    counts jagged), one outline per report."""
    for k, (rep, label) in enumerate(zip(reports, labels)):
        hist = {int(t): n for t, n in rep["rounds_histogram"].items()}
        if hist:
            low, top = min(hist), max(hist)
            edges = range(low, top + 2, max(1, (top + 1 - low) // 40))
            # the histogram as weights: one point per game length, not one per game
            ax.hist(list(hist), bins=list(edges), weights=list(hist.values()),
                    histtype="step", linewidth=1.8, label=label, density=True,
                    color=f"C{k}")
    ax.set_xlabel("game length, rounds (one turn of every player)")
    ax.set_ylabel("share of games")
    ax.set_title("Game length")


LABEL_SIZE = 8
"""The card labels' font size, in points."""

NEAR = 0.015
"""Points closer than this share of the plotted range (on both axes) carry one label with
all their numbers: coinciding points (cards every player built, each at the fair share;
a card as often built and as often won with in two rule sets) cannot be told apart by
labels of their own."""

MAX_NEAR = 0.03
"""The widest grouping :func:`simulation_figure` tries when labels still overlap."""

PLACING_STEPS = 100
"""adjustText's iterations: a fixed number (its default is a second of wall-clock time, so
the figure would depend on the machine's load)."""


def _card_panel(ax, reports: list[dict], labels: list[str], numbered: list[str],
                near: float = NEAR) -> tuple:
    """One point per card with builders and report; each group of points that (nearly)
    coincide (within ``near``: :func:`_near_groups`) labelled with the numbers of their
    cards in ``numbered`` (from 1), in the colour of their report (black when the group
    holds points of several); the labels placed apart afterwards (:func:`_place_labels`).
    A label's ``gid`` lists its points as ``K:ID`` (report K, the card's id), separated by
    spaces. Returns what :func:`_place_labels` takes: the labels, their points and every
    point."""
    number = {card_id: k + 1 for k, card_id in enumerate(numbered)}
    points = [(100 * c["built_by"], 100 * c["builder_win_rate"], k, c["id"])
              for k, rep in enumerate(reports) for c in rep["cards"]
              if c["builder_win_rate"] is not None]
    for k, label in enumerate(labels):
        own = [p for p in points if p[2] == k]
        if own:
            ax.scatter([p[0] for p in own], [p[1] for p in own], label=label, alpha=0.75,
                       color=f"C{k}", marker=MARKERS[k % len(MARKERS)], s=30, zorder=3)
    span = (max([p[0] for p in points], default=1) - min([p[0] for p in points], default=0),
            max([p[1] for p in points], default=1) - min([p[1] for p in points], default=0))
    texts, xs, ys = [], [], []
    for group in _near_groups(points, span, near):
        names = [str(n) for n in sorted({number[p[3]] for p in group})]
        x = sum(p[0] for p in group) / len(group)
        y = sum(p[1] for p in group) / len(group)
        text = "\n".join(",".join(names[i:i + 6]) for i in range(0, len(names), 6))
        owners = {p[2] for p in group}
        colour = f"C{owners.pop()}" if len(owners) == 1 else "black"
        texts.append(ax.text(x, y, text, fontsize=LABEL_SIZE, color=colour, fontweight="bold",
                             zorder=4, gid=" ".join(f"{p[2]}:{p[3]}" for p in group)))
        xs.append(x)
        ys.append(y)
    ax.axhline(100 / reports[0]["players"], color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("players who built it, %")
    ax.set_ylabel("win rate of those players, %")
    ax.set_title("Cards: build rate vs win rate (numbers: the key beside; black: several "
                 "rule sets)" if len(reports) > 1 else
                 "Cards: build rate vs win rate (numbers: the key beside)")
    ax.margins(0.1)
    if len(reports) > 1:
        ax.legend(fontsize=8, loc="best")
    return texts, (xs, ys), ([p[0] for p in points], [p[1] for p in points])


def _place_labels(ax, texts: list, targets: tuple, points: tuple) -> None:
    """Move the labels ``texts`` of the card panel apart (adjustText) so that no two
    overlap nor cover a point (``points``: x and y lists) where it can, each tied by a
    line to its ``targets`` (x and y lists: the points it labels)."""
    from adjustText import adjust_text

    if texts:
        adjust_text(texts, x=points[0], y=points[1], ax=ax, target_x=targets[0],
                    target_y=targets[1], expand=(1.3, 1.5), min_arrow_len=2,
                    iter_lim=PLACING_STEPS,
                    arrowprops={"arrowstyle": "-", "color": "grey", "linewidth": 0.6})


def _near_groups(points: list[tuple], span: tuple, near: float) -> list[list[tuple]]:
    """``points`` (x, y, ...) in groups whose members lie within ``near`` times the
    ``span`` (x range, y range) of the first member, on both axes; in their order."""
    groups: list[list[tuple]] = []
    for point in points:
        for group in groups:
            x, y = group[0][:2]
            if abs(point[0] - x) <= near * (span[0] or 1) and \
                    abs(point[1] - y) <= near * (span[1] or 1):
                group.append(point)
                break
        else:
            groups.append([point])
    return groups


def _pct(x: float | None) -> str:
    """A share as a whole percentage; ``<1%`` for a share above 0 that rounds to 0."""
    if x is None:
        return "-"
    return "<1%" if 0 < x < 0.005 else f"{100 * x:.0f}%"


def _key_lines(reports: list[dict], labels: list[str], numbered: list[str], idle: list[str],
               held: list[str]) -> list[tuple[str, str]]:
    """The key of the card panel, as ``(text, colour)`` lines: a head, a line per number
    (the card, and per rule set the share of players who built it and their win rate, or
    ``-`` without the card), then the cards not plotted."""
    import textwrap

    name_width = max([4, *(len(i) for i in numbered)])
    columns = [max(13, len(label) + 2) for label in labels]
    head = f"{'#':>3}  {'card':<{name_width}}" + "".join(
        f"{label:>{w}}" for label, w in zip(labels, columns))
    sub = f"{'':>3}  {'':<{name_width}}" + "".join(f"{'built  wins':>{w}}" for w in columns)
    cards = [{c["id"]: c for c in rep["cards"]} for rep in reports]
    lines = [(head, "black"), (sub, "grey")]
    for n, card_id in enumerate(numbered, 1):
        cells = []
        for own, w in zip(cards, columns):
            c = own.get(card_id)
            cell = "-" if c is None else \
                f"{_pct(c['built_by']):>5} {_pct(c['builder_win_rate']):>5}"
            cells.append(f"{cell:>{w}}")
        lines.append((f"{n:>3}  {card_id:<{name_width}}" + "".join(cells), "black"))
    width = max(60, max(len(line) for line, _ in lines))
    for title, names in (("never built", idle),
                         ("every player starts with (not built during the game)", held)):
        if names:
            lines.append(("", "black"))
            lines += [(line, "grey") for line in textwrap.wrap(
                f"{title}: {', '.join(names)}", width, break_on_hyphens=False)]
    return lines


def _card_key(ax, lines: list[tuple[str, str]]) -> None:
    """The key's lines (:func:`_key_lines`) in monospace, top to bottom."""
    ax.set_axis_off()
    step = 1 / max(len(lines), 28)
    for i, (line, colour) in enumerate(lines):
        ax.text(0, 1 - i * step, line, family="monospace", fontsize=7.5, color=colour,
                va="top", ha="left", transform=ax.transAxes)
    ax.set_title("Cards by number: players who built it, and their win rate",
                 fontsize=10, loc="left")


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
    """Draw a tournament report into ``path`` (:func:`tournament_figure`)."""
    import matplotlib.pyplot as plt

    fig = tournament_figure(rep)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def tournament_figure(rep: dict):
    """The figure of a tournament report: one heat map per player count, the row
    strategy's win rate (%) at the tables it shares with the column strategy, and a last
    column with its win rate over all its tables; colours are centred on the fair share
    (100 / players), green above it, red below; strategies in the report's ``ranking``;
    the title names the rule set (:func:`~machikoro.lab.tournament.title`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import TwoSlopeNorm

    from .tournament import title

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
    fig.suptitle(f"{title(rep)}, seats rotated: {rep['games_per_table']} games per table, "
                 f"seed {rep['seed']}")
    fig.tight_layout()
    return fig
