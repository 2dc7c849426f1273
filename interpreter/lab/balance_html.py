"""The ``balance`` report as one self-contained HTML file: the text report's tables, and
plots drawn with matplotlib embedded as PNG data (the file opens offline and can be sent
as it is). Needs matplotlib (``pip install '.[plot]'``)."""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

from .balance_text import ci, pct, render

STYLE = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:auto;padding:1em;
color:#222}h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:.2em .5em;
text-align:right}th{background:#f4f4f4}td:first-child,th:first-child{text-align:left}
.flag{font-weight:bold;color:#a40}img{max-width:100%}pre{background:#f8f8f8;padding:1em;
overflow-x:auto;font-size:.85em}ul.findings li{margin:.2em 0}"""


def _png(figure) -> str:
    """A matplotlib figure as an ``<img>`` with its PNG inline."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def _matrix_figure(m: dict):
    from matplotlib.figure import Figure

    order = m["order"]
    n = len(order)
    grid = [[float("nan") if x == y or not m["matrix"][x].get(y) else
             m["matrix"][x][y]["rate"] for y in order] for x in order]
    figure = Figure(figsize=(1.4 + 1.1 * n, 1.0 + 0.8 * n))
    ax = figure.subplots()
    ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(n), order, rotation=30, ha="right")
    ax.set_yticks(range(n), order)
    for i in range(n):
        for j in range(n):
            if grid[i][j] == grid[i][j]:  # not NaN
                ax.text(j, i, f"{100 * grid[i][j]:.0f}%", ha="center", va="center",
                        color="white" if abs(grid[i][j] - 0.5) > 0.3 else "black")
    ax.set_title("win rate of the row agent against the column agent")
    return figure


def _cards_figure(m: dict, players: int):
    from matplotlib.figure import Figure

    cards = [c for c in m["cards"] if c["restricted"]]
    figure = Figure(figsize=(8, 0.9 + 0.32 * len(cards)))
    ax = figure.subplots()
    fair = 1 / players
    for k, c in enumerate(cards):
        low, high = c["restricted"]["ci95"]
        colour = "#a40" if c["must_buy"] else "#07a" if c.get("trap") else \
            "#999" if c["dead"] else "#333"
        ax.errorbar([100 * (c["restricted"]["rate"] - fair)], [k], fmt="o", color=colour,
                    xerr=[[100 * (c["restricted"]["rate"] - low)],
                          [100 * (high - c["restricted"]["rate"])]])
    ax.axvline(0, color="#888", linewidth=1)
    ax.set_yticks(range(len(cards)), [c["name"] for c in cards])
    ax.invert_yaxis()
    ax.set_xlabel("win rate of the agent forbidden the card, less the fair share (pts)")
    return figure


def _sweep_figure(result: dict):
    from matplotlib.figure import Figure

    labels = result["rulesets"]
    values = [float(label.rpartition("=")[2]) for label in labels]
    figure = Figure(figsize=(8, 3.5))
    ax = figure.subplots()
    seat = [m["seats"].get(m["length"]["agent"]) if m.get("length") else None
            for m in result["measures"]]
    ax.plot(values, [100 * s[0]["rate"] if s else float("nan") for s in seat], "o-",
            label="seat 1 win rate (%)")
    card = labels[0].partition(".")[0]
    built = [next((c["built_by"] for c in m["cards"] if c["id"] == card), None)
             for m in result["measures"]]
    ax.plot(values, [100 * b if b is not None else float("nan") for b in built], "s-",
            label=f"{card} built by (% of player-games)")
    for value, m in zip(values, result["measures"]):
        if m.get("meets_targets"):  # the values meeting every --target
            ax.axvspan(value - 0.3, value + 0.3, color="#cfc", zorder=0)
    ax.set_xlabel(labels[0].rpartition("=")[0] + (
        " (green: meets every target)" if any(m.get("targets") for m in result["measures"])
        else ""))
    ax.legend()
    return figure


def _table(rows: list[list[str]], head: list[str]) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>")
    return "\n".join(out) + "</table>"


def _section(m: dict, result: dict) -> str:
    parts = [f"<h2>{html.escape(m['label'])}: {html.escape(m['ruleset'])}</h2>"]
    if m["findings"]:
        parts.append('<ul class="findings">' + "".join(
            f"<li>{html.escape(f)}</li>" for f in m["findings"]) + "</ul>")
    for t in m.get("targets") or ():
        parts.append(f"<p>{'Meets' if t['met'] else 'Misses'} the target "
                     f"{html.escape(t['target'])}: {html.escape(str(t['value']))}</p>")
    for w in m["warnings"]:
        parts.append(f'<p class="flag">Warning: {html.escape(w)}</p>')
    if len(m["order"]) > 1:
        parts.append(_table([[a, f"{m['ratings'][a]:+.0f}"] for a in m["order"]],
                            ["agent", "rating (Elo scale)"]))
        parts.append(_png(_matrix_figure(m)))
    seats = [[agent] + [f"{pct(r['rate'])} {ci(r['ci95'])}" for r in rows]
             for agent, rows in m["seats"].items()]
    parts.append(_table(seats, ["every seat"] + [f"seat {k + 1}"
                                                   for k in range(result["players"])]))
    if m["cards"]:
        parts.append(_table([[c["name"], pct(c["built_by"]),
                              "-" if not c["restricted"] else
                              f"{pct(c['restricted']['rate'])} {ci(c['restricted']['ci95'])}",
                              "must-buy" if c["must_buy"] else "trap" if c.get("trap")
                              else "dead" if c["dead"] else ""] for c in m["cards"]],
                            ["card", "built by", "forbidden it wins", "flag"]))
        if any(c["restricted"] for c in m["cards"]):
            parts.append(_png(_cards_figure(m, result["players"])))
    return "\n".join(parts)


def page(result: dict) -> str:
    """The report as an HTML page (a string)."""
    title = f"machikoro balance: {', '.join(result['rulesets'])}"
    parts = [(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"),
             f"<h1>{html.escape(title)}</h1>"]
    if all("=" in label for label in result["rulesets"]) and len(result["rulesets"]) > 1:
        parts.append(_png(_sweep_figure(result)))
    parts += [_section(m, result) for m in result["measures"]]
    parts.append("<h2>The whole report</h2><pre>" + html.escape(render(result)) + "</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_html(result: dict, path: str) -> None:
    """Write :func:`page` to ``path`` (UTF-8). Raises OSError when it cannot be written."""
    Path(path).write_text(page(result), encoding="utf-8")
