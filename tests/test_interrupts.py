"""An interrupted ``badacey score`` leaves the old output, no temporary, and one line on stderr.

Each case runs the command in a fresh interpreter over an existing output, sends SIGINT (or SIGTERM) at a
random moment, and checks what is left.  A run that finished before the signal must have written the whole
new output; a run the signal stopped must have left the old bytes (or, stopped once its output was
complete and being put in place, the whole new output).  Either way no temporary may remain,
and stderr must hold one line, not a traceback.  Two kinds of moment are drawn: any time from the start
(mostly start-up: imports, the parser) and just after the output's temporary appears (mid-write).  Ctrl-C
during the start-up imports is also injected at chosen modules, which is deterministic.

``BADACEY_FAST_INTERRUPT_RUNS`` sets the runs per case (default 1, each run a fresh interpreter, ~1-2 s);
the soak in the README's Reliability section sets it to hundreds.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from badacey_fast.files import generate_deals, score_file

pytest.importorskip("pyarrow")  # the test extra installs it
from badacey_fast.files import arrow  # noqa: E402

pytestmark = pytest.mark.backend_independent  # fresh interpreters on the session's default twin

RUNS = int(os.environ.get("BADACEY_FAST_INTERRUPT_RUNS", "1"))
DEALS = 200_000
OLD = b"old output: must survive an interrupted run\n"

# Ctrl-C injected while a chosen module is first imported (sitecustomize runs before the command's code).
_INJECT = """
import os, sys

class _Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == os.environ.get("BADACEY_TEST_INTERRUPT_AT"):
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, _Interrupt())
"""

# (case name, input file or None, output name, extra arguments)
CASES = [
    ("text->csv", "deals.txt", "payouts.csv", []),
    ("parquet->parquet", "deals.parquet", "payouts.parquet", []),
    ("arrow->arrow", "deals.arrow", "payouts.arrow", []),
    ("parquet->csv", "deals.parquet", "payouts.csv", []),
    ("generate text", None, "deals-out.txt", ["--generate", str(DEALS), "--seed", "5"]),
    ("generate parquet", None, "deals-out.parquet", ["--generate", str(DEALS), "--seed", "5"]),
    ("dask folder", "dataset", "payouts", ["--dask", "--overwrite", "--local-scheduler", "threads"]),
]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("interrupts")
    generate_deals(DEALS, root / "deals.txt", seats=6, seed=3)
    arrow.generate_parquet(DEALS, root / "deals.parquet", seats=6, seed=3, row_group=1 << 15)
    arrow.generate_parquet(DEALS, root / "deals.arrow", seats=6, seed=3, row_group=1 << 15)
    (root / "dataset").mkdir()
    for i in range(4):  # one partition each
        arrow.generate_parquet(DEALS // 4, root / "dataset" / f"d{i}.parquet", seats=6, seed=i, row_group=1 << 14)
    return root


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    (tmp_path / "inject").mkdir(exist_ok=True)
    (tmp_path / "inject" / "sitecustomize.py").write_text(_INJECT)
    path = os.pathsep.join([str(tmp_path / "inject"), *sys.path])
    return {**os.environ, "PYTHONPATH": path, **extra}


def _command(inputs: Path, case: tuple, out: Path) -> list[str]:
    _, source, _, extra = case
    args = [sys.executable, "-m", "badacey_fast.cli", "score"]
    args += [str(inputs / source)] if source else []
    return [*args, "-o", str(out), "--no-progress", "-q", *extra]


def _state(out: Path) -> bytes | dict[str, bytes]:
    """What ``out`` holds: a file's bytes, or a folder's files."""
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())} if out.is_dir() else out.read_bytes()


def _make_old(out: Path) -> bytes | dict[str, bytes]:
    if out.suffix:
        out.write_bytes(OLD)
    else:  # a folder
        out.mkdir(exist_ok=True)
        (out / "old.txt").write_bytes(OLD)
    return _state(out)


def _expected(inputs: Path, case: tuple, tmp_path: Path) -> bytes | dict[str, bytes]:
    """The output of an uninterrupted run, made here by the library calls the command makes (the cases'
    outputs are deterministic)."""
    name, source, target, _ = case
    out = tmp_path / ("expected-" + target)
    if name == "generate text":
        generate_deals(DEALS, out, seats=6, seed=5)
    elif name == "generate parquet":
        arrow.generate_parquet(DEALS, out, seats=6, seed=5)
    elif name == "dask folder":
        from badacey_fast import dask as bdask

        bdask.score_dataset(inputs / source, out, scheduler="sync")
    elif source.endswith(".txt"):
        score_file(inputs / source, out)
    else:
        arrow.score_parquet(inputs / source, out)
    return _state(out)


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _interrupt(command: list[str], env: dict[str, str], cwd: Path, out: Path, mid_write: bool, delay: float,
               sig: int = signal.SIGINT) -> subprocess.CompletedProcess[bytes]:
    """Run ``command``; send ``sig`` ``delay`` s after its start or, with ``mid_write``, after the output
    starts being written (a temporary appears beside ``out``, or ``out`` itself changes); return the
    finished process."""
    before = out.stat()

    def writing() -> bool:
        try:
            now = out.stat()
        except FileNotFoundError:
            return True
        return bool(_temporaries(out.parent)) or (now.st_ino, now.st_size, now.st_mtime_ns) != \
            (before.st_ino, before.st_size, before.st_mtime_ns)

    # The with block closes the pipes however the run ends (a run that hangs past the timeout included: left
    # open, they were reported as unclosed files in whichever test the garbage collector next ran in).
    with subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        try:
            if mid_write:
                deadline = time.monotonic() + 120
                while proc.poll() is None and time.monotonic() < deadline and not writing():
                    time.sleep(0.001)
            time.sleep(delay)
            if proc.poll() is None:
                proc.send_signal(sig)
            stdout, stderr = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return subprocess.CompletedProcess(command, proc.returncode, stdout, stderr)


def _check(done: subprocess.CompletedProcess[bytes], out: Path, old: object, new: object, sig: int) -> str:
    """The state after one run; returns "finished" or "interrupted"."""
    err = done.stderr.decode()
    assert _temporaries(out.parent) == [], err
    if done.returncode == 0:
        assert _state(out) == new, err  # finished before the signal: the whole new output
        return "finished"
    # Before the package's first line runs (the interpreter's own start-up, site's path hooks) Python prints
    # its traceback and ends with status 1 or by the signal: nothing of ours ran, and nothing was written.
    package = os.sep + "badacey_fast" + os.sep
    if done.returncode in (1, -sig) and "KeyboardInterrupt" in err and package not in err:
        assert _state(out) == old
        return "interrupted before start-up"
    # A signal before the interpreter (SIGINT) or the command (SIGTERM) set its handler, or after it gave it
    # back (the interpreter's own shutdown), ends the process as usual, silently: nothing of ours is
    # half-done then.
    if done.returncode == -sig and not err:
        assert _state(out) in (old, new)
        return "ended outside the command"
    want = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated")}[sig]
    # After our one line and exit(130), CPython still ends by SIGINT itself (-2; a shell says 130 for both)
    # when a KeyboardInterrupt passed through its C-level code runner on the way (an extension module's
    # start-up code, interrupted), even though the command caught it.
    assert done.returncode == want[0] or (sig == signal.SIGINT and done.returncode == -sig), err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("badacey") and lines[0].endswith(f": {want[1]}"), err
    # Stopped: the old output, untouched.  Or, when the signal came as the whole new output was being put in
    # place (the rename holds the signal back until it is done) or after, the whole new output: never a
    # part of one.
    state = _state(out)
    assert state == old or state == new, err
    return "interrupted" if state == old else "interrupted after writing"


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_sigint_at_random_moments_leaves_the_old_output(inputs, tmp_path, case) -> None:
    if case[0] == "dask folder":
        pytest.importorskip("distributed")  # the test extra installs it
    new = _expected(inputs, case, tmp_path)
    out = tmp_path / "out" / case[2]
    out.parent.mkdir()
    env = _env(tmp_path)
    rng = random.Random(os.environ.get("BADACEY_FAST_INTERRUPT_SEED"))
    seen = set()
    for run in range(RUNS):
        old = _make_old(out)
        mid_write = run % 2 == 0  # mid-write first: the moment that matters most
        delay = rng.uniform(0, 0.05) if mid_write else rng.uniform(0, 1.5)
        sig = signal.SIGTERM if run % 5 == 4 else signal.SIGINT
        done = _interrupt(_command(inputs, case, out), env, tmp_path, out, mid_write, delay, sig)
        seen.add(_check(done, out, old, new, sig))
    assert seen  # (which outcomes a run sees depends on the machine's speed: both are right)


# The package's first imports (inside `import badacey_fast`), the command's modules (inside main, before the
# parser exists), and a module the handler imports: via the console script and via `python -m`.
@pytest.mark.parametrize("module, script", [("badacey_fast.kernel", True), ("numpy", False),
                                            ("badacey_fast.cli.score", True), ("badacey_fast.files.arrow", False)])
def test_ctrl_c_during_the_start_up_imports_is_one_line(inputs, tmp_path, module, script) -> None:
    out = tmp_path / "payouts.parquet"
    out.write_bytes(OLD)
    command = _command(inputs, CASES[1], out)
    console = Path(sys.executable).parent / "badacey"
    if script and console.exists():  # (absent when the package runs from a source tree on sys.path)
        command = [str(console), *command[3:]]
    done = subprocess.run(command, env=_env(tmp_path, BADACEY_TEST_INTERRUPT_AT=module), cwd=tmp_path,
                          capture_output=True, timeout=300)
    assert done.returncode == 130, done.stderr
    assert done.stderr.decode().splitlines() in (["badacey: interrupted"], ["badacey score: interrupted"])
    assert out.read_bytes() == OLD and _temporaries(tmp_path) == []


@pytest.mark.backend_independent  # the command's signal handling; no evaluation
def test_sigterm_raises_in_the_main_thread_and_changes_nothing_elsewhere() -> None:
    import threading

    from badacey_fast.cli.signals import sigterm_raises
    from badacey_fast.errors import Terminated

    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    with pytest.raises(Terminated):
        with sigterm_raises():
            assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
            signal.raise_signal(signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # restored
    seen: list[object] = []

    def elsewhere() -> None:  # a thread may not set a handler: the block runs with SIGTERM as it was
        with sigterm_raises():
            seen.append(signal.getsignal(signal.SIGTERM))
        seen.append("done")

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join()
    assert seen == [signal.SIG_DFL, "done"]
    handler = signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a handler someone set is left alone
    try:
        with sigterm_raises():
            assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, handler)
