"""The notebook-style example runs and writes its heatmap."""

import runpy
import sys

from conftest import REPO


def test_lukho_drop_heatmap_example(tmp_path, monkeypatch):
    out = tmp_path / "heatmap.png"
    monkeypatch.setattr(sys, "argv", ["lukho_drop_heatmap.py", "--north", "0..60", "--out", str(out)])
    runpy.run_path(str(REPO / "examples" / "lukho_drop_heatmap.py"), run_name="__main__")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
