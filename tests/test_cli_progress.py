"""One progress bar everywhere: tqdm's, on stderr, drawn only on a terminal, off with ``--no-progress``."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from badacey_fast.cli.command import build_parser
from badacey_fast.cli.progress import progress_bar

pytestmark = pytest.mark.backend_independent

# Every command that can run long enough to draw a bar.
LONG_COMMANDS = ("draw", "best-discard", "equity", "simulate", "score", "import", "solve")


class Terminal(io.StringIO):
    """A stream that says it is a terminal (what tqdm's ``disable=None`` asks)."""

    def isatty(self) -> bool:
        return True


def _subcommands() -> dict[str, object]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return dict(action.choices)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", LONG_COMMANDS)
def test_every_long_command_takes_the_one_flag(command):
    options = {s for a in _subcommands()[command]._actions for s in a.option_strings}  # type: ignore[attr-defined]
    assert "--no-progress" in options
    # --quiet never means "no bar" (score's -q/--quiet is its summary line, nothing else)
    assert command == "score" or "--quiet" not in options


def test_the_bar_is_drawn_on_a_terminal_stderr_and_nowhere_else(monkeypatch):
    def draw(no_progress: bool, stream: io.StringIO) -> str:
        monkeypatch.setattr(sys, "stderr", stream)
        parsed = build_parser().parse_args(["draw", "As 2h 3d 4c 5s"] + ["--no-progress"] * no_progress)
        with progress_bar(parsed, total=10, desc="draw", delay=0.0) as bar:
            bar.update(10)
        return stream.getvalue()

    shown = draw(False, Terminal())
    assert "draw" in shown and "10/10" in shown
    assert draw(True, Terminal()) == ""  # the flag
    assert draw(False, io.StringIO()) == ""  # not a terminal: a pipe or a file gets no frames


def test_simulate_with_dask_writes_results_only_to_stdout():
    run = subprocess.run(
        [sys.executable, "-m", "badacey_fast.cli", "simulate", "--hands", "400", "--seed", "1", "--bots",
         "random,random", "--dask", "--local-scheduler", "sync", "--partition-hands", "100"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "\r" not in run.stdout and "\r" not in run.stderr  # no bar frames in a pipe
    assert "[#" not in run.stdout and "%|" not in run.stdout  # neither dask's bar nor tqdm's
    assert "seed 1" in run.stdout
