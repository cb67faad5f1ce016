"""Run every benchmark script and assemble their rows into one Markdown table.

    python benchmarks/run_all.py [--out _build/bench.md]        (``make bench``)
    python benchmarks/run_all.py --readme [--out _build/bench.md]   (``make bench-readme``)

The first form runs each ``benchmarks/bench_*.py`` in turn (its own output is shown as it runs),
each script reporting its rows through ``_timing.row`` and running with one BLAS/OpenMP thread
(``SINGLE_THREAD``), and writes the table (the date, the load
average, the column legend and one row per measurement) to ``--out``. The second copies that file,
unchanged, into README.md between the markers ``<!-- bench:begin -->`` and ``<!-- bench:end -->``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from _timing import header  # noqa: E402

BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
#: thread-count variables of the BLAS and OpenMP libraries, set to 1 for every script
SINGLE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
SECTIONS = {"bench_profiles": "curves", "bench_notions": "five notions", "bench_sweep": "sweep",
            "bench_validation": "validation"}


def section(script: Path) -> str:
    """The label before each row: the chapter number (``000``) or the script's subject."""
    name = script.stem
    return SECTIONS.get(name, name.split("_")[1] if name[6:9].isdigit() else name.removeprefix("bench_"))


def run(out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = out.with_suffix(".rows")
    rows.write_text("")
    start = time.perf_counter()
    load = [os.getloadavg()[0]]
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"== {script.relative_to(ROOT)}", flush=True)
        # one BLAS/OpenMP thread from the start, besides threadpoolctl's limit inside the timings: a
        # worker thread left from a call before the limit spins on the CPU clock of the next calls
        # (the count reduction's CPU time read 2.5 times its wall time)
        env = {**os.environ, "BENCH_ROWS": str(rows), "BENCH_SECTION": section(script),
               **{var: "1" for var in SINGLE_THREAD}}
        subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env, check=True)
        load.append(os.getloadavg()[0])
    minutes = (time.perf_counter() - start) / 60
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = (f"Measured {date} by `make bench` ({minutes:.0f} min) on {os.cpu_count()} cores, load average "
            f"{min(load):.1f} to {max(load):.1f} (1-minute averages between the scripts).\n\n"
            f"{header()}\n{rows.read_text()}")
    out.write_text(text)
    rows.unlink()
    print(f"\n{text}\nwritten to {out}")


def copy_to_readme(table: Path, readme: Path) -> None:
    text = readme.read_text()
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        sys.exit(f"{readme}: expected one {BEGIN} and one {END}")
    before, rest = text.split(BEGIN)
    after = rest.split(END)[1]
    readme.write_text(f"{before}{BEGIN}\n{table.read_text().strip()}\n{END}{after}")
    print(f"{readme}: performance table replaced by {table}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "bench.md")
    parser.add_argument("--readme", action="store_true", help="copy --out into README.md between the markers")
    args = parser.parse_args()
    if args.readme:
        copy_to_readme(args.out, ROOT / "README.md")
    else:
        run(args.out)


if __name__ == "__main__":
    main()
