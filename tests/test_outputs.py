"""Nothing lost: an output is never an input (files.outputs.check_not_input), on every writer and format,
through every way of naming the same file."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from badacey_fast.cli.command import main
from badacey_fast.errors import BadaceyError
from badacey_fast.files import generate_deals, score_file

pa = pytest.importorskip("pyarrow")  # the test extra installs it
import pyarrow.parquet as pq  # noqa: E402

from badacey_fast.files import arrow  # noqa: E402

COMMAND = [sys.executable, "-m", "badacey_fast.cli"]


def _deals(tmp_path, name: str) -> bytes:
    """A small deal file of the format its name says; returns its bytes."""
    path = tmp_path / name
    if name.endswith((".parquet", ".arrow")):
        arrow.generate_parquet(50, path, seats=3, seed=4)
    else:
        generate_deals(50, path, seats=3, seed=4, fmt="csv" if name.endswith(".csv") else "text")
    return path.read_bytes()


def _aliases(tmp_path, path):
    """Other names of ``path``: itself, ./relative, a hard link, a symlink, a symlink to a symlink."""
    hard, soft, softer = tmp_path / f"hard-{path.name}", tmp_path / f"soft-{path.name}", tmp_path / f"softer-{path.name}"
    hard.hardlink_to(path)
    soft.symlink_to(path)
    softer.symlink_to(soft)
    return [path, os.path.relpath(path), hard, soft, softer]


@pytest.mark.parametrize("name", ["deals.txt", "deals.csv", "deals.parquet", "deals.arrow"])
def test_the_command_refuses_an_output_that_is_its_input(tmp_path, monkeypatch, capsys, name) -> None:
    monkeypatch.chdir(tmp_path)
    before = _deals(tmp_path, name)
    for alias in _aliases(tmp_path, tmp_path / name):
        assert main(["score", name, "-o", str(alias), "--no-progress", "-q"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("badacey score: error: output ") and "is the input" in err, err
        assert (tmp_path / name).read_bytes() == before  # untouched, by every name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [name, f"hard-{name}", f"soft-{name}", f"softer-{name}"])  # nothing else written either


@pytest.mark.parametrize("name", ["deals.txt", "deals.csv"])
def test_score_file_refuses_its_input_as_output(tmp_path, name) -> None:
    before = _deals(tmp_path, name)
    for alias in _aliases(tmp_path, tmp_path / name):
        with pytest.raises(BadaceyError, match="is the input"):
            score_file(tmp_path / name, alias)
        with open(tmp_path / name, "rb") as source, pytest.raises(BadaceyError, match="is the input"):
            score_file(source, alias)  # an open stream on the file is the file
        with open(alias, "ab") as sink, pytest.raises(BadaceyError, match="is the input"):
            score_file(tmp_path / name, sink)
        assert (tmp_path / name).read_bytes() == before


@pytest.mark.parametrize("name", ["deals.parquet", "deals.arrow"])
def test_score_parquet_refuses_its_input_as_output(tmp_path, name) -> None:
    before = _deals(tmp_path, name)
    for alias in _aliases(tmp_path, tmp_path / name):
        for out_fmt in ("parquet", "arrow", "csv"):
            with pytest.raises(BadaceyError, match="is the input"):
                arrow.score_parquet(tmp_path / name, alias, out_fmt=out_fmt)
        assert (tmp_path / name).read_bytes() == before
    arrow.score_parquet(tmp_path / name, tmp_path / "payouts.parquet")  # another file is fine
    assert pq.read_table(tmp_path / "payouts.parquet").num_rows == 50


@pytest.mark.backend_independent  # fresh interpreters on the session's default twin
def test_redirections_onto_the_input_are_refused(tmp_path) -> None:
    # `badacey score - -o deals.txt < deals.txt` and `badacey score deals.txt >> deals.txt`: the same file
    # through a standard stream (the second would read its own output without end).
    before = _deals(tmp_path, "deals.txt")
    path = tmp_path / "deals.txt"
    with open(path, "rb") as stdin:
        done = subprocess.run([*COMMAND, "score", "-", "-o", str(path), "-q"], stdin=stdin, capture_output=True,
                              text=True, timeout=120)
    assert done.returncode == 2 and "is the input" in done.stderr and "Traceback" not in done.stderr
    with open(path, "ab") as stdout:
        done = subprocess.run([*COMMAND, "score", str(path), "-q", "--no-progress"], stdout=stdout,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2 and "is the input" in done.stderr
    assert path.read_bytes() == before
    with open(tmp_path / "payouts.csv", "wb") as stdout:  # another file through stdout is fine
        done = subprocess.run([*COMMAND, "score", str(path), "-q", "--no-progress"], stdout=stdout, timeout=120)
    assert done.returncode == 0 and (tmp_path / "payouts.csv").read_text().count("\n") == 51


def test_a_terminal_or_device_on_both_sides_is_no_conflict(tmp_path) -> None:
    # Only a regular file or a folder can be overwritten: /dev/null read and written is fine.
    report = score_file("/dev/null", "/dev/null")
    assert (report.lines, report.deals) == (0, 0)


def test_dask_refuses_an_output_folder_holding_its_input(tmp_path, monkeypatch) -> None:
    pytest.importorskip("distributed")
    from badacey_fast import dask as bdask

    (tmp_path / "deals").mkdir()
    before = _deals(tmp_path / "deals", "a.parquet")
    for dst in (tmp_path / "deals", tmp_path, tmp_path / "deals" / "a.parquet"):
        with pytest.raises(BadaceyError, match="holds the input|is the input"):
            bdask.score_dataset(tmp_path / "deals", dst, scheduler="sync")
    (tmp_path / "link").symlink_to(tmp_path / "deals")
    with pytest.raises(BadaceyError, match="holds the input"):
        bdask.score_dataset(tmp_path / "deals", tmp_path / "link", scheduler="sync")
    monkeypatch.chdir(tmp_path)
    assert main(["score", "deals", "-o", ".", "--dask", "--no-progress", "-q", "--local-scheduler", "sync"]) == 2
    assert (tmp_path / "deals" / "a.parquet").read_bytes() == before
    assert sorted(p.name for p in (tmp_path / "deals").iterdir()) == ["a.parquet"]
    result = bdask.score_dataset(tmp_path / "deals", tmp_path / "payouts", scheduler="sync")
    assert [pq.read_table(p).num_rows for p in result.outputs] == [50]
    assert np.asarray(result.totals).sum() == pq.read_table(tmp_path / "deals" / "a.parquet")["pot"].to_numpy().sum()
