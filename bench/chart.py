"""Draws bench/chart.svg by hand: throughput bars (median, min–max whiskers) and
ask-latency bars (p50 bar, p99 tick, log scale). No dependencies."""
import math
import statistics
from xml.sax.saxutils import escape

W = 960
LABEL_W = 290
BAR_W = W - LABEL_W - 200
ROW_H = 30
TD_COLOR = "#2b7bb9"
BASE_COLOR = "#9aa5b1"
FLOOR_COLOR = "#4a5560"


def color(name):
    if name.startswith("tuidriver"):
        return TD_COLOR
    if "raw" in name or "floor" in name:
        return FLOOR_COLOR
    return BASE_COLOR


def text(x, y, s, anchor="start", size=13, weight="normal", fill="#222"):
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
            f'font-weight="{weight}" fill="{fill}">{escape(s)}</text>')


def panel(y0, title, rows, scale, unit, ticks, tick_label="p99"):
    """rows: (label, value, lo, hi, marker). scale maps a value to 0..1."""
    out = [text(10, y0 + 18, title, size=15, weight="bold")]
    top = y0 + 32
    x0 = LABEL_W
    for t in ticks:
        x = x0 + scale(t) * BAR_W
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{top + len(rows) * ROW_H}" '
                   'stroke="#e3e6ea" stroke-width="1"/>')
        out.append(text(x, top + len(rows) * ROW_H + 14, f"{t:g}", anchor="middle", size=11, fill="#666"))
    for i, (label, v, lo, hi, mark) in enumerate(rows):
        y = top + i * ROW_H
        out.append(text(x0 - 8, y + ROW_H / 2 + 4, label, anchor="end"))
        w = max(1.0, scale(v) * BAR_W)
        out.append(f'<rect x="{x0}" y="{y + 5}" width="{w:.1f}" height="{ROW_H - 10}" fill="{color(label)}"/>')
        if lo is not None and hi is not None:
            xl, xh = x0 + scale(lo) * BAR_W, x0 + scale(hi) * BAR_W
            ym = y + ROW_H / 2
            out.append(f'<line x1="{xl:.1f}" y1="{ym}" x2="{xh:.1f}" y2="{ym}" stroke="#111" stroke-width="1.5"/>')
            for xx in (xl, xh):
                out.append(f'<line x1="{xx:.1f}" y1="{ym - 5}" x2="{xx:.1f}" y2="{ym + 5}" stroke="#111" stroke-width="1.5"/>')
        if mark is not None:
            xm = x0 + scale(mark) * BAR_W
            out.append(f'<line x1="{xm:.1f}" y1="{y + 2}" x2="{xm:.1f}" y2="{y + ROW_H - 2}" stroke="#c0392b" stroke-width="3"/>')
        shown = mark if mark is not None and mark > v else (hi if hi is not None else v)
        label = f"{num(v)} {unit}" if mark is None else \
            f"{'p50' if tick_label == 'p99' else 'median'} {num(v)}, {tick_label} {num(mark)} {unit}"
        out.append(text(x0 + scale(shown) * BAR_W + 6, y + ROW_H / 2 + 4, label, size=12))
    return out, top + len(rows) * ROW_H + 24


def num(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def nice_ticks(vmax):
    step = 10 ** math.floor(math.log10(vmax / 4)) if vmax > 0 else 1
    for m in (1, 2, 5, 10):
        if vmax / (step * m) <= 6:
            step *= m
            break
    return [i * step for i in range(int(vmax / step) + 2)]


def render(r):
    body, y = [], 0
    if "throughput" in r:
        tp_rows = []
        for name, runs in r["throughput"].items():
            m = [x["mbps"] for x in runs]
            tp_rows.append((name, statistics.median(m), min(m), max(m), None))
        tmax = max(row[3] for row in tp_rows) * 1.1
        ticks = [t for t in nice_ticks(tmax) if t <= tmax]
        body, y = panel(10, "Output throughput, MB/s (median, min–max whiskers; higher is better)", tp_rows,
                        lambda v: v / tmax, "MB/s", ticks)
    if "latency" in r:
        lat_rows = []
        for name, v in r["latency"].items():
            s = sorted(v["ms"])
            p99 = s[min(len(s) - 1, int(round(0.99 * (len(s) - 1))))]
            lat_rows.append((name, statistics.median(s), None, None, p99))
        more, y = log_panel(y + 10, "Ask latency \u201c6*7\u201d on python, ms, log scale "
                            "(bar p50, red tick p99; lower is better)", lat_rows)
        body += more
    agent_rows = []
    for cli, res in r.get("agent", {}).items():
        if "asks" not in res:
            continue
        daemon = [(a["reply"] - a["tui_done"]) * 1000 for a in res["asks"] if a["tui_done"] is not None]
        total = [(a["reply"] - a["stream_end"]) * 1000 for a in res["asks"]]
        idle = [(x["reply"] - x["stream_end"]) * 1000 for x in res["idle"] if x["stream_end"] is not None]
        if daemon:
            agent_rows.append((f"tuidriver {cli}: TUI done → reply", statistics.median(daemon), None, None, max(daemon)))
        agent_rows.append((f"tuidriver {cli}: stream end → reply", statistics.median(total), None, None, max(total)))
        if idle:
            agent_rows.append((f"{cli}: 2 s idle window", statistics.median(idle), None, None, max(idle)))
    if agent_rows:
        more, y = log_panel(y + 10, "Agent completion overhead, ms, log scale (bar median, red tick max; "
                            "lower is better)", agent_rows, tick_label="max")
        body += more
    body.append(text(10, y + 4, f"tuidriver bench, {r['started']}; details in bench/results.md", size=11, fill="#666"))
    h = y + 16
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h:.0f}" viewBox="0 0 {W} {h:.0f}" '
            'font-family="Helvetica, Arial, sans-serif">\n'
            f'<rect width="{W}" height="{h:.0f}" fill="#fff"/>\n' + "\n".join(body) + "\n</svg>\n")


def log_panel(y0, title, rows, tick_label="p99"):
    lo, hi = 0.1, 10 ** math.ceil(math.log10(max(x[4] for x in rows) * 1.5))

    def logscale(v):
        return (math.log10(max(v, lo)) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    lticks = [10 ** e for e in range(int(math.log10(lo)), int(math.log10(hi)) + 1)]
    return panel(y0, title, rows, logscale, "ms", lticks, tick_label)
