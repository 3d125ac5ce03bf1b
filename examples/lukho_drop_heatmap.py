# %% [markdown]
# # Lukho: which opening drop pays?
#
# A notebook-style example of the Python package (`pip install ./python`). Every South opening
# that removes seeds from its last two pits only (the family `all:remove=000000**`) and drops
# some of them into one of North's pits is played against a set of North openings under both
# `sequential` race outcomes; the heatmap shows South's mean margin
# (seeds) by drop pit and drop count. Run it as a script (`python examples/lukho_drop_heatmap.py
# --out heatmap.png`) or cell by cell in Jupyter / VS Code (`# %%` cells).

# %%
import argparse

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from mancala import lukho

ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("--south", default="all:remove=000000**", help="South SPEC (default: removals from the last two pits only, every drop)")
ap.add_argument("--north", default="0..2000", help="North SPEC")
ap.add_argument("--race", default="sequential")
ap.add_argument("--out", default="lukho-drop-heatmap.png")
args, _ = ap.parse_known_args()

# %% The sweep: one row per South choice, an Arrow table (numeric columns without a copy).
table = lukho.sweep(args.south, args.north, args.race, progress=None)
df = pl.from_arrow(table)
print(df.select("south_id", "south_drop", "games", "wins", "mean_margin").head())

# %% Drop `COUNT@PIT` into columns, then South's mean margin per (count, pit), weighted by games.
by = (
    df.with_columns(pl.col("south_drop").str.split_exact("@", 1).struct.rename_fields(["count", "pit"]).alias("d"))
    .unnest("d")
    .with_columns(pl.col("count").cast(pl.Int64), pl.col("pit").cast(pl.Int64))
    .filter(pl.col("count") > 0)
    .group_by("count", "pit")
    .agg((pl.col("mean_margin") * pl.col("games")).sum().alias("margin_sum"), pl.col("games").sum())
    .with_columns((pl.col("margin_sum") / pl.col("games")).alias("mean_margin"))
)
counts = sorted(by["count"].unique().to_list())
grid = np.full((len(counts), 8), np.nan)
for c, p, m in by.select("count", "pit", "mean_margin").iter_rows():
    grid[counts.index(c), p] = m

# %% The heatmap, centred on an even game.
lim = np.nanmax(np.abs(grid)) or 1.0
fig, ax = plt.subplots(figsize=(7, 0.35 * len(counts) + 1.5))
im = ax.imshow(grid, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
ax.set_xticks(range(8), [f"pit {p}" for p in range(8)])
ax.set_yticks(range(len(counts)), counts)
ax.set_xlabel("North's pit receiving the drop")
ax.set_ylabel("seeds dropped")
rules = table.schema.metadata[b"rules"].decode()
ax.set_title(f"South's mean margin by opening drop\n{rules} · North {args.north}", fontsize=8)
fig.colorbar(im, ax=ax, label="mean margin (seeds, South − North)")
fig.tight_layout()
fig.savefig(args.out, dpi=120)
print(f"{len(df)} South choices, {df['games'].sum()} games -> {args.out}")
