"""Datasets load as they are: every CSV (shipped or exported) opens with pandas.read_csv and
polars.read_csv and no options, its sidecar NAME.meta.json holds the rules, version and column
kinds; the Parquet export (the `parquet` feature) read back by pyarrow and polars equals the CSV
and carries the same rules and version as key-value metadata."""

import json
import os
import subprocess
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest

from conftest import PARQUET_BIN, REPO, run

SHIPPED = sorted(p for p in (REPO / "results").rglob("*.csv"))
KINDS = {"int": ("int64", "uint64"), "float": ("float64", "int64"), "str": ("object", "str", "string")}


def sidecar(csv: Path):
    return json.loads(csv.with_name(csv.name.removesuffix(".csv") + ".meta.json").read_text())


@pytest.mark.parametrize("csv", SHIPPED, ids=lambda p: str(p.relative_to(REPO)))
def test_shipped_csv_loads_with_no_options(csv):
    meta = sidecar(csv)
    df = pd.read_csv(csv)
    assert list(df.columns) == [c["name"] for c in meta["columns"]]
    assert len(df) > 0
    assert pl.read_csv(csv, infer_schema_length=None).columns == list(df.columns)
    assert meta["file"] == csv.name and isinstance(meta["rules"], dict) and meta["version"]
    for c in meta["columns"]:
        if df[c["name"]].notna().any():
            assert str(df[c["name"]].dtype) in KINDS[c["type"]], (c, df[c["name"]].dtype)


def parquet_or_skip(p):
    if p.returncode == 2 and "--features parquet" in p.stderr:
        if os.environ.get("MANCALA_REQUIRE_PARQUET"):
            pytest.fail(f"{PARQUET_BIN} lacks the parquet feature: {p.stderr}")
        pytest.skip(f"{PARQUET_BIN} is built without the parquet feature (set MANCALA_PARQUET_BIN)")
    assert p.returncode == 0, p.stderr


def same_table(parquet: Path, csv: Path):
    meta = sidecar(csv)
    t = pq.read_table(parquet)
    # The file's key-value metadata (the footer's, beside the Arrow schema's own).
    kv = {k.decode(): v.decode() for k, v in pq.ParquetFile(parquet).metadata.metadata.items()}
    assert json.loads(kv["rules"]) == meta["rules"]
    assert kv["version"] == meta["version"]
    want = pd.read_csv(csv, dtype={c["name"]: "string" for c in meta["columns"] if c["type"] == "str"})
    got = t.to_pandas()
    for c in meta["columns"]:
        n = c["name"]
        if c["type"] == "str":
            got[n] = got[n].astype("string")
        elif c["type"] == "float":
            want[n] = want[n].astype("float64")
        else:
            # An int column with nulls reads back from CSV as float.
            got[n] = got[n].astype(want[n].dtype)
    pd.testing.assert_frame_equal(got, want)
    assert pl.read_parquet(parquet).shape == pl.read_csv(csv).shape
    assert pl.read_parquet(parquet).columns == pl.read_csv(csv).columns


def test_oware_export_parquet_equals_csv(cli, oware_db, tmp_path):
    for fmt in ["csv", "parquet"]:
        p = subprocess.run([PARQUET_BIN, "oware", "db", "export", "--dir", str(oware_db), "--stones", "0..=6", "--format", fmt,
                            "--out", str(tmp_path / f"t.{fmt}")], capture_output=True, text=True)
        if fmt == "parquet":
            parquet_or_skip(p)
        else:
            assert p.returncode == 0, p.stderr
    assert (tmp_path / "t.meta.json").exists()
    same_table(tmp_path / "t.parquet", tmp_path / "t.csv")
    # Rows: every position with up to 6 seeds (C(n+11, 11) per layer).
    from math import comb
    assert len(pd.read_csv(tmp_path / "t.csv")) == sum(comb(n + 11, 11) for n in range(7))


def test_sweep_games_parquet_equals_csv(cli, tmp_path):
    base = ["lukho", "sweep", "--south", "0..4", "--north", "0..300", "--race", "sequential"]
    run(*base, "--out", tmp_path / "c", "--games", "csv")
    p = subprocess.run([PARQUET_BIN, *base, "--out", str(tmp_path / "p"), "--games", "parquet"], capture_output=True,
                       text=True)
    parquet_or_skip(p)
    same_table(tmp_path / "p" / "games.parquet", tmp_path / "c" / "games.csv")
    assert len(pl.read_parquet(tmp_path / "p" / "games.parquet")) == 4 * 300 * 2
