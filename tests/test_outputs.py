"""Nothing lost: an output is never an input (files.outputs.check_not_input), on every writer and format,
through every way of naming the same file."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

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


# --------------------------------------------------------------------------------------------------
# Whole or not at all: an error or an interrupt mid-run leaves the old output and no temporary


def _hidden(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _scorers(tmp_path):
    """(name, input, output, run(progress)) for every scorer and output format."""
    generate_deals(1500, tmp_path / "deals.txt", seats=6, seed=8)  # two 64 KiB blocks of text
    arrow.generate_parquet(600, tmp_path / "deals.parquet", seats=6, seed=8, row_group=200)
    cases = [("text->csv", lambda out, progress: score_file(tmp_path / "deals.txt", out, chunk=16, progress=progress),
              "payouts.csv")]
    for name in ("payouts.parquet", "payouts.arrow", "payouts.csv"):
        cases.append((f"parquet->{name}", lambda out, progress: arrow.score_parquet(
            tmp_path / "deals.parquet", out, batch_rows=200, progress=progress), name))
    return cases


@pytest.mark.exhaustive("python")  # the Python twin's run of the same file checks: CI's exhaustive step
@pytest.mark.parametrize("stop", [KeyboardInterrupt, BadaceyError])
def test_a_run_stopped_mid_way_leaves_the_old_output(tmp_path, stop) -> None:
    for name, run, target in _scorers(tmp_path):
        out = tmp_path / "out" / target
        out.parent.mkdir(exist_ok=True)
        out.write_bytes(b"old payouts")
        calls = []

        def progress(amount, calls=calls) -> None:
            calls.append(amount)
            if len(calls) == 2:
                raise stop("stopped mid-run")

        with pytest.raises(stop, match="stopped mid-run"):
            run(out, progress)
        assert len(calls) == 2, name  # the run was under way: blocks or batches were written
        assert out.read_bytes() == b"old payouts", name
        assert _hidden(out.parent) == [], name
        run(out, None)  # and a run that ends replaces it whole
        assert out.read_bytes() != b"old payouts" and _hidden(out.parent) == [], name


def test_outputs_keep_their_links_and_modes(tmp_path) -> None:
    # A symlinked output: the file it points to is replaced, the link stays; the new file's mode is the
    # usual one from the umask (not the 0600 of a temporary file).
    generate_deals(20, tmp_path / "deals.txt", seats=2, seed=1)
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "payouts.csv").write_text("old\n")
    (tmp_path / "link.csv").symlink_to(tmp_path / "real" / "payouts.csv")
    score_file(tmp_path / "deals.txt", tmp_path / "link.csv")
    assert (tmp_path / "link.csv").is_symlink()
    assert (tmp_path / "real" / "payouts.csv").read_text().count("\n") == 21
    umask = os.umask(0)
    os.umask(umask)
    for path in (tmp_path / "real" / "payouts.csv", tmp_path / "g.txt", tmp_path / "g.parquet"):
        if path.suffix == ".txt":
            generate_deals(3, path, seats=2, seed=1)
        elif path.suffix == ".parquet":
            arrow.generate_parquet(3, path, seats=2, seed=1)
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask, path
    assert _hidden(tmp_path) == [] and _hidden(tmp_path / "real") == []


# The command's writers, each given an output it cannot finish: (arguments after `score`, output name).
WRITERS = [(["deals.txt"], "payouts.csv"), (["deals.parquet"], "payouts.parquet"),
           (["deals.parquet"], "payouts.arrow"), (["deals.parquet"], "payouts.csv"),
           (["--generate", "40000"], "new.txt"), (["--generate", "40000"], "new.parquet"),
           (["--generate", "40000"], "new.arrow")]


@contextlib.contextmanager
def _file_size_limit(limit: int):
    """No file of this process may grow past ``limit`` bytes (a "full disk"): a write past it fails with
    EFBIG rather than SIGXFSZ.  The soft limit alone is lowered, so it can be raised back."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


@pytest.mark.exhaustive("python")  # the Python twin's run of the same file checks: CI's exhaustive step
def test_a_full_disk_leaves_the_old_output(tmp_path, capsys) -> None:
    generate_deals(700, tmp_path / "deals.txt", seats=6, seed=2)  # payouts of 16 kB as CSV, 40 kB as Parquet
    arrow.generate_parquet(700, tmp_path / "deals.parquet", seats=6, seed=2)
    (tmp_path / "out").mkdir()
    for args, name in WRITERS:
        args = [str(tmp_path / a) if a.startswith("deals") else a for a in args]
        out = tmp_path / "out" / name
        out.write_bytes(b"old output")
        with _file_size_limit(8 << 10):
            status = main(["score", *args, "-o", str(out), "--no-progress", "-q"])
        err = capsys.readouterr().err
        assert status == 2, (name, err)
        assert err.startswith(f"badacey score: error: {out}: ") and err.count("\n") == 1, err
        assert "File too large" in err or "errno 27" in err, err
        assert out.read_bytes() == b"old output" and _hidden(tmp_path / "out") == [], name
    for args, name in WRITERS:  # /dev/full: written in place (a device), the error names it
        args = [str(tmp_path / a) if a.startswith("deals") else a for a in args]
        fmt = ["--format", {"txt": "text"}.get(name[4:], name[4:])] if args[0] == "--generate" else []
        assert main(["score", *args, "-o", "/dev/full", "--no-progress", "-q", *fmt]) == 2
        err = capsys.readouterr().err
        assert err.startswith("badacey score: error: /dev/full: "), err
        assert "No space left on device" in err and err.count("\n") == 1, err


def _read_only(folder):
    """Make ``folder`` refuse new files, even to root (who ignores the mode bits): ``chattr +i`` then."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return lambda: folder.chmod(0o755)
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"running as root and cannot make a folder immutable here: {done.stderr!r}")
    return lambda: subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_an_output_that_cannot_be_written_is_named_before_any_work(tmp_path, capsys) -> None:
    generate_deals(30, tmp_path / "deals.txt", seats=2, seed=1)
    arrow.generate_parquet(30, tmp_path / "deals.parquet", seats=2, seed=1)
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro" / "payouts.csv").write_bytes(b"old output")
    (tmp_path / "folder.csv").mkdir()
    undo = _read_only(tmp_path / "ro")
    try:
        for args, name in WRITERS:
            args = [str(tmp_path / a) if a.startswith("deals") else a for a in args]
            for out, reason in ((tmp_path / "ro" / name, "is not writable"), (tmp_path / "missing" / name, "no folder"),
                                (tmp_path / "folder.csv", "Is a directory")):
                if out.name == "folder.csv" and (not name.endswith(".csv") or args[0].endswith(".txt")):
                    continue  # (a folder is a Parquet dataset to the command: a text input refuses it so)
                assert main(["score", *args, "-o", str(out), "--no-progress", "-q"]) == 2
                err = capsys.readouterr().err
                assert err.startswith(f"badacey score: error: {out}: ") and reason in err, err
        assert (tmp_path / "ro" / "payouts.csv").read_bytes() == b"old output"
        assert sorted(p.name for p in (tmp_path / "ro").iterdir()) == ["payouts.csv"]
    finally:
        undo()
    assert not (tmp_path / "missing").exists() and list((tmp_path / "folder.csv").iterdir()) == []


@pytest.mark.backend_independent  # no evaluation: signal handling around a rename
def test_a_signal_during_the_rename_waits_for_it(tmp_path) -> None:
    # Ctrl-C between the swap and the unlink of the old file would leave that file behind under the
    # temporary's name: the commit holds SIGINT back and lets it go once the rename is whole.
    from badacey_fast.files.outputs import _signals_deferred

    # Python's own SIGINT handler, whatever an earlier test in this worker process left installed
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        order = []
        with pytest.raises(KeyboardInterrupt):
            with _signals_deferred():
                signal.raise_signal(signal.SIGINT)  # (delivered to this thread, at once)
                time.sleep(0.05)  # the handler would have run here
                order.append("rename finished")
        assert order == ["rename finished"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored
    finally:
        signal.signal(signal.SIGINT, before)


# --------------------------------------------------------------------------------------------------
# A Dask payout folder: whole or not at all


def _dataset(folder, files: int, rows: int = 100, bad_row: int | None = None) -> None:
    """``files`` Parquet deal files of ``rows`` 2-seat rows each in ``folder`` (one partition each); with
    ``bad_row``, that row of the dataset (1-based) holds a card twice."""
    folder.mkdir()
    for i in range(files):
        table = arrow.deals_table(np.zeros((rows, 2, 5), np.uint8) + np.arange(10, dtype=np.uint8).reshape(2, 5),
                                  pot=120, button=0)
        if bad_row is not None and i * rows < bad_row <= (i + 1) * rows:
            cards = np.zeros((rows, 2, 5), np.uint8) + np.arange(10, dtype=np.uint8).reshape(2, 5)
            cards[bad_row - 1 - i * rows, 1, 0] = 0  # card 0 held by both seats
            table = arrow.deals_table(cards, pot=120, button=0)
        pq.write_table(table, folder / f"f{i}.parquet")


def _folder_state(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_dask_output_folder_is_replaced_whole_or_refused(tmp_path, capsys) -> None:
    # The case: a 4-part run then a 1-part run into the same folder left parts 1-3 of the first,
    # and the folder read back as 400 rows for a run that scored 100.
    pytest.importorskip("distributed")
    from badacey_fast import dask as bdask

    _dataset(tmp_path / "four", 4)
    _dataset(tmp_path / "one", 1)
    out = tmp_path / "payouts"
    first = bdask.score_dataset(tmp_path / "four", out, scheduler="sync", partition_rows=100)
    assert first.partitions == 4 and pq.read_table(out).num_rows == 400
    before = _folder_state(out)
    with pytest.raises(BadaceyError, match="is not empty: give --overwrite"):
        bdask.score_dataset(tmp_path / "one", out, scheduler="sync")
    args = ["score", str(tmp_path / "one"), "-o", str(out), "--dask", "--no-progress", "-q", "--local-scheduler", "sync"]
    assert main(args) == 2 and "is not empty: give --overwrite" in capsys.readouterr().err
    assert _folder_state(out) == before and _hidden(tmp_path) == []
    assert main([*args, "--overwrite"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["part-00000.parquet"] and pq.read_table(out).num_rows == 100
    again = bdask.score_dataset(tmp_path / "four", out, scheduler="threads", partition_rows=100, overwrite=True)
    assert again.outputs == tuple(str(out / f"part-{i:05d}.parquet") for i in range(4))
    assert _folder_state(out) == before and _hidden(tmp_path) == []
    (tmp_path / "empty").mkdir()  # an empty folder is no loss: written without --overwrite
    assert bdask.score_dataset(tmp_path / "one", tmp_path / "empty", scheduler="sync").partitions == 1
    (tmp_path / "link").symlink_to(out)  # a symlink to a folder: followed, the link stays
    bdask.score_dataset(tmp_path / "one", tmp_path / "link", scheduler="sync", overwrite=True)
    assert (tmp_path / "link").is_symlink() and sorted(p.name for p in out.iterdir()) == ["part-00000.parquet"]
    (tmp_path / "file").write_bytes(b"a file")
    with pytest.raises(NotADirectoryError):
        bdask.score_dataset(tmp_path / "one", tmp_path / "file", scheduler="sync", overwrite=True)
    assert (tmp_path / "file").read_bytes() == b"a file" and _hidden(tmp_path) == []


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_a_failed_dask_run_leaves_the_old_folder(tmp_path, scheduler) -> None:
    pytest.importorskip("distributed")
    from badacey_fast import dask as bdask

    _dataset(tmp_path / "good", 2)
    _dataset(tmp_path / "bad", 4, bad_row=150)
    out = tmp_path / "payouts"
    bdask.score_dataset(tmp_path / "good", out, scheduler=scheduler)
    before = _folder_state(out)
    for dst in (out, tmp_path / "new"):
        with pytest.raises(BadaceyError, match=r"^row 150: card 'Ac' is held twice"):
            bdask.score_dataset(tmp_path / "bad", dst, scheduler=scheduler, overwrite=True)
    assert _folder_state(out) == before and not (tmp_path / "new").exists() and _hidden(tmp_path) == []
    skipped = bdask.score_dataset(tmp_path / "bad", out, scheduler=scheduler, overwrite=True, skip_bad=True)
    assert (skipped.report.bad, skipped.report.deals) == (1, 399) and pq.read_table(out).num_rows == 399


# ------------------------------------------------------------------------------------------------------
# One rule reads an output's format from its extension (files.outputs.output_format)


@pytest.mark.backend_independent
def test_every_writer_refuses_an_unknown_extension_naming_the_path_and_the_accepted_ones(tmp_path, capsys):
    from badacey_fast.cli.figures import check_plot_path
    from badacey_fast.errors import FileFormatError
    from badacey_fast.game.history_file import history_format
    from badacey_fast.game.records import records_format
    from badacey_fast.histories.output import output_format

    for check, path, accepted, what in ((records_format, "run/hands.xlsx", ".parquet", "hand records"),
                                        (history_format, "hands.txt", ".phhs", "hand histories"),
                                        (output_format, "hands.csv", ".jsonl", "hand histories"),
                                        (check_plot_path, "net.xyz", ".png", "a --plot image")):
        with pytest.raises(FileFormatError) as caught:
            check(path)
        ext = os.path.splitext(path)[1]
        assert str(caught.value).startswith(f"{path!r}: unknown extension {ext!r} for {what}, expected ")
        assert caught.value.path == path and accepted in caught.value.accepted and accepted in str(caught.value)
    assert (records_format("a.CSV"), history_format("a.Phhs"), output_format("a.pq")) == ("csv", "phhs", "parquet")
    deals = tmp_path / "deals.txt"
    generate_deals(5, deals, seats=2, seed=1)
    assert main(["score", str(deals), "-o", str(tmp_path / "pay.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "unknown extension '.xlsx' for payouts, expected .csv, .txt, .parquet" in err and "or no extension" in err
    assert main(["score", str(deals), "-o", str(tmp_path / "pay")]) == 0  # no extension: CSV
    assert (tmp_path / "pay").read_text().splitlines()[0].startswith("row,payout_0,payout_1,")
