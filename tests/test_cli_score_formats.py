"""``badacey score``'s formats (issue 24 items 3, 7 and 10): extensions checked before anything is read,
a dataset only with --dask, the help saying what it writes, a missing extra named before any output."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from badacey_fast.cli.command import main
from badacey_fast.files.score import generate_deals

pytestmark = pytest.mark.backend_independent


def test_an_unknown_output_extension_is_refused_before_anything_is_read(tmp_path, capsys):
    missing = tmp_path / "no-such-deals.txt"  # never opened: the extension is checked first
    assert main(["score", str(missing), "-o", str(tmp_path / "x.xlsx"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'.xlsx'" in err and ".csv" in err and ".parquet" in err and ".arrow" in err
    assert "cannot read" not in err and os.listdir(tmp_path) == []
    assert main(["score", "--generate", "10", "-o", str(tmp_path / "d.xlsx")]) == 2
    assert "'.xlsx'" in capsys.readouterr().err and os.listdir(tmp_path) == []


def test_a_directory_without_dask_gets_the_hint(tmp_path, capsys):
    (tmp_path / "deals").mkdir()
    assert main(["score", str(tmp_path / "deals"), "-o", str(tmp_path / "p.csv"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "is a directory" in err and "--dask" in err and err.count("\n") == 1
    assert main(["score", str(tmp_path / "deals" / "*.parquet"), "--no-progress"]) == 2
    assert "glob" in capsys.readouterr().err


def test_the_help_says_every_output_format(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    top = " ".join(capsys.readouterr().out.split())
    assert "CSV, Parquet or Arrow" in top
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "row,payout_0" in text and "Parquet" in text and "Arrow" in text and "payout0" not in text


def test_no_rate_for_a_tiny_file(tmp_path, capsys):
    generate_deals(3, tmp_path / "d.txt", seed=1)
    assert main(["score", str(tmp_path / "d.txt"), "-o", str(tmp_path / "p.csv"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "3 deals from 3 lines" in err and "deals/s" not in err


@pytest.mark.parametrize("hidden, argv, extra", [
    ("pyarrow", ["score", "{d}/d.parquet", "-o", "{d}/p.csv"], "parquet"),
    ("pyarrow", ["score", "{d}/d.txt", "-o", "{d}/p.parquet"], "parquet"),
    ("pyarrow", ["score", "--generate", "10", "-o", "{d}/g.parquet"], "parquet"),
    ("pyarrow", ["score", "{d}", "-o", "{d}/out", "--dask"], "dask"),
    ("dask", ["score", "{d}", "-o", "{d}/out", "--dask"], "dask"),
])
def test_a_missing_extra_is_named_before_any_output(tmp_path, hidden, argv, extra):
    generate_deals(5, tmp_path / "d.txt", seed=1)
    (tmp_path / "d.parquet").write_bytes(b"PAR1 not read: the extra is checked first")
    before = sorted(os.listdir(tmp_path))
    args = [a.format(d=tmp_path) for a in argv] + ["--no-progress"]
    code = (f"import sys; sys.modules[{hidden!r}] = None\n"
            "from badacey_fast.cli.command import main\n"
            f"sys.exit(main({args!r}))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout == "" and sorted(os.listdir(tmp_path)) == before  # nothing written
    assert f'pip install "badacey_fast[{extra}]"' in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
    assert proc.returncode == 2
