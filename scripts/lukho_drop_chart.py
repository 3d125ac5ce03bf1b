#!/usr/bin/env python3
"""SVG heatmap of a Lukho `*-by-drop.csv` (written by lukho_tables.py): South's outcome by
drop pit (x) and drop count (y, 0 at the top). Standard library only.

usage: lukho_drop_chart.py BY_DROP_CSV OUT_SVG [--value south_win_share|mean_margin] [--title T]

Each cell is coloured on a diverging scale centred on 0.5 (win share) or 0 (mean margin),
red where North does better, blue where South does, symmetric around the centre with the
largest deviation in the file at one end; the value is printed in the cell. A drop of 0 seeds
has no pit (the CSV files it under pit 0): it is drawn as one "no drop" cell across all pits.
Cells without data are grey. The right column gives the South choices behind each cell of
the row (each choice is played against every race outcome of the model: `games` in the CSV).
The title carries the rules and race from the CSV's sidecar `NAME.meta.json` (its `rules`).
"""
import argparse, csv, json, os
from xml.sax.saxutils import escape

VALUES = {
    # column: (centre, cell text, what the chart shows)
    "south_win_share": (0.5, lambda v: f"{100 * v:.1f}%", "South's win share (draws count as not won)"),
    "mean_margin": (0.0, lambda v: f"{v:+.2f}", "mean margin South − North (seeds)"),
}
# ColorBrewer RdBu (7 classes): North better (red) .. even (near white) .. South better (blue)
RDBU = ["#b2182b", "#ef8a62", "#fddbc7", "#f7f7f7", "#d1e5f0", "#67a9cf", "#2166ac"]
NO_DATA = "#bdbdbd"


def _rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def colour(t):
    """t in [-1, 1] -> hex colour on RDBU, linearly interpolated."""
    t = max(-1.0, min(1.0, t))
    x = (t + 1) / 2 * (len(RDBU) - 1)
    i = min(int(x), len(RDBU) - 2)
    f = x - i
    a, b = _rgb(RDBU[i]), _rgb(RDBU[i + 1])
    return "#%02x%02x%02x" % tuple(round(p + (q - p) * f) for p, q in zip(a, b))


def _dark(h):
    r, g, b = _rgb(h)
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


def read_by_drop(path):
    """-> (rules dict or None, {(count, pit): row dict}); the rules from the sidecar."""
    rules = None
    meta = path.removesuffix(".csv") + ".meta.json"
    if os.path.exists(meta):
        with open(meta) as f:
            rules = json.load(f).get("rules")
    with open(path, newline="") as f:
        cells = {}
        for r in csv.DictReader(f):
            cells[(int(r["drop_count"]), int(r["drop_pit"]))] = r
    return rules, cells


def rules_line(rules):
    if not rules:
        return "rules: (not in the file)"
    race = rules.get("race")
    rest = json.dumps({k: v for k, v in rules.items() if k != "race"}, separators=(",", ":"))
    return f"rules {rest} · race {race if race is not None else '(not given)'}"


def drop_chart(csv_path, svg_path, value="south_win_share", title=None, scale_min_choices=1000):
    """Write the heatmap of csv_path's `value` column to svg_path.

    The colour scale runs from centre - ext to centre + ext, ext = the largest deviation from
    the centre among cells with at least scale_min_choices choices (all cells if none has);
    cells beyond (small, noisy samples) get the end colour."""
    if value not in VALUES:
        raise ValueError(f"value must be one of {sorted(VALUES)}")
    centre, fmt, what = VALUES[value]
    rules, cells = read_by_drop(csv_path)
    if not cells:
        raise ValueError(f"{csv_path}: no data rows")
    vals = {k: float(r[value]) for k, r in cells.items()}
    max_count = max(c for c, _ in cells)
    npits = max(8, max(p for _, p in cells) + 1)
    # drop count 0: one "no drop" cell when the file has only its pit-0 entry
    no_drop = set(k for k in cells if k[0] == 0) == {(0, 0)}
    big = [v for k, v in vals.items() if int(cells[k]["choices"]) >= scale_min_choices] or list(vals.values())
    ext = max(abs(v - centre) for v in big) or 1.0
    clipped = any(abs(v - centre) > ext for v in vals.values())
    lo, hi = min(vals, key=vals.get), max(vals, key=vals.get)
    if title is None:
        stem = os.path.basename(csv_path)
        stem = stem[:-len("-by-drop.csv")] if stem.endswith("-by-drop.csv") else os.path.splitext(stem)[0]
        title = f"Lukho {stem}: {what.split(' (')[0]} by drop pit × drop count"

    cw, ch = 60, 19                     # cell size
    left, top = 78, 78                  # plot origin
    gap = 5 if no_drop else 0           # space under the "no drop" row
    width = left + npits * cw + 84
    rows_y = {c: top + c * ch + (gap if c > 0 else 0) for c in range(max_count + 1)}
    plot_bottom = rows_y[max_count] + ch
    height = plot_bottom + 116
    out = []
    w = out.append
    w(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
      f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">')
    w(f'<rect width="{width}" height="{height}" fill="white"/>')
    w(f'<text x="{width / 2:g}" y="20" font-size="14" text-anchor="middle">{escape(title)}</text>')
    w(f'<text x="{width / 2:g}" y="38" text-anchor="middle">{escape(rules_line(rules))}</text>')
    # x axis: pits above the plot
    w('<g text-anchor="middle">')
    for p in range(npits):
        w(f'<text x="{left + p * cw + cw / 2:g}" y="{top - 6}">{p}</text>')
    w(f'<text x="{left + npits * cw + 42}" y="{top - 6}">choices</text>')
    w('</g>')
    w(f'<text x="{left + npits * cw / 2:g}" y="{top - 22}" text-anchor="middle" font-weight="bold">drop pit</text>')
    # y axis label
    ymid = (top + plot_bottom) / 2
    w(f'<text transform="translate(16 {ymid:g}) rotate(-90)" text-anchor="middle" font-weight="bold">'
      f'drop count (seeds dropped)</text>')
    # cells
    rects, texts = [], []
    for c in range(max_count + 1):
        y = rows_y[c]
        label = "0 (no drop)" if (c == 0 and no_drop) else str(c)
        texts.append(f'<text x="{left - 5}" y="{y + 13}" text-anchor="end" font-size="10">{label}</text>')
        spans = [(0, npits, (0, 0))] if (c == 0 and no_drop) else [(p, 1, (c, p)) for p in range(npits)]
        row_choices = set()
        for p, span, key in spans:
            x = left + p * cw
            if key in vals:
                v = vals[key]
                fill = colour((v - centre) / ext)
                text = ("no drop: " if span > 1 else "") + fmt(v)
                row_choices.add(int(cells[key]["choices"]))
                tc = ' fill="white"' if _dark(fill) else ""
            else:
                fill, text, tc = NO_DATA, "–", ""
            rects.append(f'<rect x="{x}" y="{y}" width="{span * cw}" height="{ch}" fill="{fill}"/>')
            texts.append(f'<text x="{x + span * cw / 2:g}" y="{y + 13}"{tc}>{escape(text)}</text>')
        if row_choices:
            rc = (str(row_choices.pop()) if len(row_choices) == 1
                  else f"{min(row_choices)}–{max(row_choices)}")
            texts.append(f'<text x="{left + npits * cw + 42}" y="{y + 13}" fill="#555">{rc}</text>')
    w('<g stroke="white" stroke-width="1">')
    out.extend(rects)
    w('</g><g font-size="9" text-anchor="middle">')
    out.extend(texts)
    w('</g>')
    # legend: gradient from centre - ext to centre + ext
    ly, lx, lw = plot_bottom + 30, left, npits * cw
    w('<defs><linearGradient id="scale">')
    for i, h in enumerate(RDBU):
        w(f'<stop offset="{i / (len(RDBU) - 1):.4f}" stop-color="{h}"/>')
    w('</linearGradient></defs>')
    w(f'<rect x="{lx}" y="{ly}" width="{lw}" height="12" fill="url(#scale)" stroke="#888" stroke-width="0.5"/>')
    w('<g text-anchor="middle" font-size="10">')
    for frac, v, pre in ((0, centre - ext, "≤ "), (0.5, centre, ""), (1, centre + ext, "≥ ")):
        w(f'<text x="{lx + frac * lw:g}" y="{ly + 24}">{escape((pre if clipped else "") + fmt(v))}</text>')
    # ticks for the data's min and max
    ticks = [(lo, "min", "end"), (hi, "max", "start")] if vals[lo] != vals[hi] else [(lo, "min = max", "middle")]
    txs = [lx + max(0.0, min(1.0, (vals[k] - centre + ext) / (2 * ext))) * lw for k, _, _ in ticks]
    close = len(txs) == 2 and txs[1] - txs[0] < 40     # labels beside the ticks, not centred on them
    for tx, (k, name, anchor) in zip(txs, ticks):
        w(f'<line x1="{tx:.1f}" y1="{ly - 3}" x2="{tx:.1f}" y2="{ly + 15}" stroke="black" stroke-width="1.5"/>')
        ta = f' text-anchor="{anchor}"' if close else ""
        w(f'<text x="{tx:.1f}" y="{ly - 6}"{ta}>{name}</text>')
    w('</g>')
    def where(k):
        return "no drop" if (k == (0, 0) and no_drop) else f"{k[0]} seeds at pit {k[1]}"
    w(f'<text x="{lx}" y="{ly + 44}" font-size="10">min {escape(fmt(vals[lo]))} ({where(lo)}, '
      f'{cells[lo]["choices"]} choices) · max {escape(fmt(vals[hi]))} ({where(hi)}, {cells[hi]["choices"]} choices)'
      f'</text>')
    w(f'<text x="{lx}" y="{ly + 76}" font-size="10">red: North does better, blue: South does better, grey: no data'
      f'{" · draws count as not won" if value == "south_win_share" else ""}</text>')
    note = (f"scale centred on {fmt(centre)}, its ends set by the cells of ≥ {scale_min_choices} choices"
            + ("; smaller (noisy) cells may lie beyond" if clipped else ""))
    w(f'<text x="{lx}" y="{ly + 60}" font-size="10" fill="#555">{escape(note)}</text>')
    w('</svg>')
    with open(svg_path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("svg")
    ap.add_argument("--value", choices=sorted(VALUES), default="south_win_share")
    ap.add_argument("--title")
    ap.add_argument("--scale-min-choices", type=int, default=1000,
                    help="cells with fewer choices do not widen the colour scale (default 1000)")
    a = ap.parse_args()
    drop_chart(a.csv, a.svg, a.value, a.title, a.scale_min_choices)


if __name__ == "__main__":
    main()
