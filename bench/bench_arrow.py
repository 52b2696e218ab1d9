"""Parquet / Arrow and Dask timing: the same cases as ``badacey bench --group parquet-score --group
dask-score --group dask-overhead`` (badacey_fast.cli.columnar.bench_cases), one pytest-benchmark group each.

Targets (issue 11, ratios measured side by side): ``score_parquet`` end to end >= 80 % of the kernel-only
``showdown_many`` rate on the same deals, peak memory flat; Dask with 2 workers on 2 idle cores >= 1.7x one
process, the synchronous scheduler within 10 % of one process.

Run::

    pip install ".[bench,dask]" && pytest bench/bench_arrow.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("distributed")

from badacey_fast.cli.columnar import bench_cases  # noqa: E402

CASES = bench_cases(quick=True)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_columnar(benchmark, case) -> None:
    benchmark.group = case.group
    fn = case.setup()
    benchmark.extra_info["items"] = case.items
    benchmark(fn)
