"""Every side-by-side case (``python bench/side_by_side.py --list``) as a pytest-benchmark test, at the
``--quick`` sizes: one pytest-benchmark group per case group.

pytest-benchmark times each case on its own, seconds apart from the others of its group; the ratios the
docs quote come from ``python bench/side_by_side.py``, which times a group's ``~`` cases interleaved.
CI runs this file with ``--benchmark-disable`` (each case called once): every case keeps working.

Run::

    pip install -e ".[bench]" && pytest bench/bench_side_by_side.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

import pytest

from side_by_side import collect

CASES = collect(quick=True)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.group}: {c.name}" for c in CASES])
def test_case(benchmark, case) -> None:
    benchmark.group = case.group
    fn = case.setup()
    benchmark.extra_info["items"] = case.items
    benchmark(fn)
