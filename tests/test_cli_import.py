"""``badacey import``: the summary, --check, -o (written whole or not at all), --stats, --json, exit statuses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from badacey_fast.cli.command import main
from badacey_fast.histories import output as output_module
from badacey_fast.histories.model import EXAMPLE

DATA = Path(__file__).parent / "data" / "histories"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the fixture hands (so outputs beside them are not inside the repository)."""
    dst = tmp_path / "hands"
    shutil.copytree(DATA, dst)
    return dst


def test_a_folder_of_every_room_is_read_and_checked(folder, capsys):
    assert main(["import", str(folder), "--check"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["room", "variant", "read", "replayed", "agree", "disagree", "skipped", "malformed"]
    assert "KingsClub   Badacey                     1         1      0         1        0          0" in lines
    assert lines[12].split() == ["total", "15", "11", "9", "2", "4", "0"]
    assert "check: 11 hands replayed, 9 agree with the room, 2 disagree" in lines
    assert "differences: 1 odd chip, 1 rule difference" in lines
    assert any(line.startswith(f"{folder / 'kingsclub.txt'}:1: KingsClub #50000001: odd chip:") for line in lines)
    assert err == ""  # no bar when stderr is not a terminal (tqdm's disable=None), no problem


def test_malformed_hands_are_named_and_the_exit_status_is_1(folder, capsys):
    bad = folder / "bad.txt"
    bad.write_text("junk\n" + EXAMPLE.replace("#1:", "#5:").split("*** SUMMARY")[0] + EXAMPLE)
    assert main(["import", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"{bad}:1: 1 line that no room writes (garbage, or a room this reader does not know)",
        f"{bad}:20: truncated hand: no *** SUMMARY ***"]
    # Read 1, malformed 1 (the truncated one); the garbage line is no room's.
    assert [line.split() for line in out.splitlines()[1:3]] == [["(none)", "garbage", "0", "1"],
                                                                ["PokerStars", "Badugi", "1", "1"]]


def test_a_duplicate_is_named_but_not_malformed(folder, capsys):
    (folder / "again.txt").write_text((folder / "fulltilt.txt").read_text())
    assert main(["import", str(folder / "fulltilt.txt"), str(folder / "again.txt")]) == 0
    out, err = capsys.readouterr()
    assert "is given twice" in err and "duplicates: 2 hand(s) given twice, read once" in out


@pytest.mark.parametrize("argv, message", [
    (["import", "no/such/dir"], "no hand histories at 'no/such/dir'"),
    (["import", "DATA", "--site", "party"], "unknown site 'party'"),
    (["import", "DATA", "-o", "DATA/out.jsonl"], "is one of the inputs"),
    (["import", "DATA/pokerstars.txt", "-o", "DATA/pokerstars.txt"], "is one of the inputs"),
    (["import", "DATA", "-o", "OUT/hands.csv"], "unknown extension '.csv' for hand histories"),
    (["import", "DATA", "-o", "OUT/missing/hands.jsonl"], "no folder for the output"),
])
def test_usage_errors_exit_2_with_one_line(folder, tmp_path, capsys, argv, message):
    argv = [a.replace("DATA", str(folder)).replace("OUT", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and message in err and err.startswith("badacey import: error:")


def test_an_output_hard_linked_to_an_input_is_refused_and_the_input_kept(folder, tmp_path, capsys):
    # A hard link names the same file: writing it would replace what the run reads (issue 22, item 1).
    src = tmp_path / "pokerstars.jsonl"
    src.write_bytes((folder / "pokerstars.txt").read_bytes())
    link = tmp_path / "also.jsonl"
    os.link(src, link)
    before = src.read_bytes()
    assert main(["import", str(src), "-o", str(link)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "is the input" in err and str(link) in err
    assert src.read_bytes() == before and link.read_bytes() == before


@pytest.mark.parametrize("name", ["hands.jsonl", "hands.phhs", "hands.parquet"])
def test_outputs_are_written_whole(folder, tmp_path, capsys, name):
    target = tmp_path / name
    assert main(["import", str(folder), "-o", str(target), "--check"]) == 0
    out = capsys.readouterr().out
    assert os.listdir(tmp_path).count(name) == 1 and not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
    if name.endswith(".jsonl"):
        assert len(target.read_text().splitlines()) == 15 and "wrote 15 hands" in out
    elif name.endswith(".phhs"):
        import re

        assert len(re.findall(r"^\[\d+\]$", target.read_text(), re.M)) == 11  # the hands of games with a code
        assert "not written: no PHH variant for fixed limit '5 Card Draw'" in out
    else:
        import pyarrow.parquet as pq

        assert pq.read_table(target).num_rows == 46  # players dealt in: 17 + 5 + 11 + 6 + 2 + 3 + 2
    assert oct(os.stat(target).st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_an_interrupted_run_leaves_the_old_output(folder, tmp_path, monkeypatch, capsys):
    target = tmp_path / "hands.jsonl"
    target.write_text("old\n")
    calls = []

    def add(self: output_module.HandWriter, hand: object, replayed: object = None) -> bool:
        calls.append(hand)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return True

    monkeypatch.setattr(output_module.HandWriter, "add", add)
    assert main(["import", str(folder), "-o", str(target)]) == 130
    assert target.read_text() == "old\n" and sorted(os.listdir(tmp_path)) == ["hands", "hands.jsonl"]


def test_json_summary_and_stats(folder, capsys):
    assert main(["import", str(folder / "pokerstars.txt"), "--check", "--json", "--stats"]) == 0
    out = capsys.readouterr().out
    summary_end = out.index("\n}\n") + 3
    doc = json.loads(out[:summary_end])
    assert {(r["site"], r["variant"]): r["read"] for r in doc["rooms"]} == {
        ("PokerStars", "Badugi"): 2, ("PokerStars", "Hold'em"): 1, ("PokerStars", "Triple Draw 2-7 Lowball"): 2}
    assert doc["check"]["disagreements"] == {"rule difference": 1} and doc["check"]["showdowns"]["judged"] == 2
    stats = json.loads(out[summary_end:])
    alma = next(r for r in stats if r["player"] == "Alma" and r["game"] == "27")
    assert alma["hands"] == 2 and alma["pfr"] == 1.0 and alma["net"] == "-2.50"


def test_stats_without_pandas_is_one_line_naming_the_extra(folder, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    assert main(["import", str(folder), "--stats"]) == 2
    err = capsys.readouterr().err
    assert err == 'badacey import: error: statistics need pandas: pip install "badacey_fast[histories]"\n'


@pytest.mark.backend_independent
def test_the_command_imports_nothing_heavy_until_it_runs():
    code = ("import sys, argparse; import badacey_fast.cli.histories as h; p = argparse.ArgumentParser(); "
            "h.register(p.add_subparsers()); "
            "print(sorted(m for m in ('numpy', 'pyarrow', 'pandas', 'badacey_fast.histories', 'badacey_fast.game') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
