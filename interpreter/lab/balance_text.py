"""The text of a ``balance`` report (:mod:`.balance`): the ladder, the matrix, seats, skill
and luck, cards, length and endings, warnings, and the differences between rule sets."""

from __future__ import annotations


def pct(x: float | None) -> str:
    """A share as ``12.3%`` (``-`` for None)."""
    return "-" if x is None else f"{100 * x:.1f}%"


def ci(interval) -> str:
    """A 95% interval of shares as ``[10.1-14.5]`` (empty for None)."""
    return "" if not interval else f"[{100 * interval[0]:.1f}-{100 * interval[1]:.1f}]"


def rate(found: dict | None) -> str:
    """A win rate with its interval, ``52.0% [45.1-58.8]``."""
    return "-" if not found or found.get("rate") is None else \
        f"{pct(found['rate'])} {ci(found['ci95'])}"


def diff(found: dict | None, scale: float = 100.0, unit: str = " pts") -> str:
    """A paired difference with its interval, ``+2.1 pts [-0.4, +4.6]``."""
    if not found or found.get("diff") is None:
        return "-"
    text = f"{scale * found['diff']:+.1f}{unit}"
    if found.get("ci95"):
        low, high = found["ci95"]
        text += f" [{scale * low:+.1f}, {scale * high:+.1f}]"
    return text


def _ladder(m: dict) -> list[str]:
    if len(m["order"]) < 2:
        return []
    anchor = " (greedy = 0)" if "greedy" in m["ratings"] else " (mean 0)"
    lines = [f"Ladder: Bradley-Terry rating on the Elo scale{anchor}"]
    for k, agent in enumerate(m["order"], 1):
        lines.append(f"  {k}. {agent:<24} {m['ratings'][agent]:+7.0f}")
    return lines


def _matrix(m: dict, players: int) -> list[str]:
    order = m["order"]
    if len(order) < 2:
        return []
    width = max(18, *(len(a) + 2 for a in order))
    lines = [(f"Win rate of the row agent against the column agent (one seat against the "
             f"rest; fair share {pct(1 / players)})"),
             " " * width + "".join(f"{a[:20]:>22}" for a in order)]
    for x in order:
        cells = ["-" if x == y else rate(m["matrix"][x].get(y)) for y in order]
        lines.append(f"  {x:<{width - 2}}" + "".join(f"{c:>22}" for c in cells))
    return lines


def _seats(m: dict) -> list[str]:
    lines = ["Seats when every seat plays the same agent (win rate by seat)"]
    for agent in m["order"]:
        rows = m["seats"].get(agent)
        if rows:
            lines.append(f"  {agent:<24} " + "   ".join(
                f"seat {r['seat']} {pct(r['rate'])} {ci(r['ci95'])}" for r in rows))
    return lines


def _luck(m: dict) -> list[str]:
    if not m["chain"] and not m["luck"]:
        return []
    lines = ["Skill and luck"]
    for step in m["chain"]:
        lines.append(f"  {step['upper']} against {step['lower']} (the rung below): "
                     f"{rate(step)}")
    pooled = m["seed_decided"]
    if pooled:
        lines.append(f"  seeds won by the same seat in every seating (the dice decided, "
                     f"whoever sat there): {pct(pooled['share'])} {ci(pooled['ci95'])} of "
                     f"{pooled['seeds']} seeds")
    for row in m["luck"]:
        if row["agent"]["share"] is not None:
            lines.append(f"    {row['a']} against {row['b']}: the same agent won every "
                         f"seating of {pct(row['agent']['share'])} of seeds, the same seat "
                         f"{pct(row['seat']['share'])}")
    return lines


def _cards(m: dict, card_agent: str | None) -> list[str]:
    if not m["cards"]:
        return []
    lines = [(f"Cards ({card_agent} against itself; 'without it': {card_agent} forbidden the "
             f"card against {card_agent})"),
             f"  {'card':<28}{'built by':>10}  {'builders won':<22}{'without it':<24}flag"]
    for c in m["cards"]:
        flag = "must-buy" if c["must_buy"] else "trap" if c.get("trap") else \
            "dead" if c["dead"] else ""
        builders = "-" if c["builder_win_rate"] is None else \
            f"{pct(c['builder_win_rate'])} {ci(c['builder_ci95'])}"
        lines.append(f"  {c['name'][:27]:<28}{pct(c['built_by']):>10}  {builders:<22}"
                     f"{rate(c['restricted']):<24}{flag}")
    return lines


def _length(m: dict) -> list[str]:
    length = m.get("length")
    if not length:
        return []
    turns, rounds = length["turns"], length["rounds"]
    lines = [(f"Length ({length['agent']} against itself): turns median "
             f"{turns['median']:.0f} (p10 {turns['p10']:.0f} - p90 {turns['p90']:.0f}), "
             f"rounds median {rounds['median']:.0f} (p10 {rounds['p10']:.0f} - p90 "
             f"{rounds['p90']:.0f}); turn cap {pct(length['capped'])}")]
    if m.get("endings"):
        lines.append("Endings (the winner's last landmark): " + ", ".join(
            f"{name} {pct(share)}" for name, share in m["endings"].items()))
    return lines


def render_measures(m: dict, result: dict) -> list[str]:
    """The lines of one rule set's measures."""
    lines = [f"== {m['label']}: {m['ruleset']} (digest {m['digest']})", ""]
    if m["findings"]:
        lines += ["Findings"] + [f"  * {f}" for f in m["findings"]] + [""]
    for part in (_ladder(m), _matrix(m, result["players"]), _seats(m), _luck(m),
                 _cards(m, result["card_agent"]), _length(m)):
        if part:
            lines += part + [""]
    if m.get("targets"):
        lines += ["Targets"] + [
            f"  {'met' if t['met'] else 'not met'}: {t['target']} ("
            + ("no such number" if t["value"] is None else f"{t['value']:.3g}") + ")"
            for t in m["targets"]] + [""]
    if m["warnings"]:
        lines += ["Warnings"] + [f"  ! {w}" for w in m["warnings"]] + [""]
    return lines


def _differences(d: dict) -> list[str]:
    lines = [f"== {d['label']} minus {d['vs']} (paired seeds; 95% intervals)", ""]
    lines += [f"  {name}: {diff(v)}" for name, v in d["matrix"].items()]
    for agent, seats in d["seats"].items():
        lines.append(f"  seats, {agent} against itself: " + ", ".join(
            f"seat {s + 1} {diff(v)}" for s, v in enumerate(seats)))
    for card, v in d["cards"].items():
        lines.append(f"  {card}: built by {diff(v['built_by'])}; without it "
                     f"{diff(v['restricted'])}")
    lines.append(f"  turns: {diff(d['turns'], 1.0, '')}")
    return lines + [""]


def render(result: dict) -> str:
    """The whole report as text."""
    lines = [(f"Balance: {', '.join(result['rulesets'])}; {result['players']} players; "
             f"{result['seeds']} seeds per pairing (each played in every seating), seed "
             f"{result['seed']}; stopped by {result['stopped_by']}"),
             f"Ladder: {', '.join(result['ladder'])}" + (
                 f"; cards by {result['card_agent']}" if result["card_agent"] else ""), ""]
    for note in result["notes"]:
        lines.append(f"Note: {note}")
    if result["notes"]:
        lines.append("")
    for m in result["measures"]:
        lines += render_measures(m, result)
    for d in result["differences"]:
        lines += _differences(d)
    if any(m.get("targets") for m in result["measures"]):
        meeting = [m["label"] for m in result["measures"] if m.get("meets_targets")]
        lines.append("Meeting every target: " + (", ".join(meeting) or "none"))
    if result["too_wide"]:
        lines.append(f"Note: intervals are as wide as +/-{100 * result['too_wide']:.0f} pts: "
                     "play more --games (or --until-ci 0.05) before reading differences")
    return "\n".join(lines).rstrip() + "\n"
