#!/usr/bin/env python3
"""The decision rule's targets other than calibration, measured through the CLI.

Every figure goes through `arx try` as it is written, on experiments whose
truth the bench knows, at the objective's confidence 0.95:

- power (`bench/sequential_cli.sh`): a gain of 1 or 2 sigma kept, unpaired,
  against a best measured as arx measures it (a fresh 5-run baseline a
  try: *first*), and later in a segment (after a kept 1.5 sigma gain,
  against the best's record: *later*); target >= 40% at 1 sigma, >= 85% at
  2 sigma. Cells power1@first, power1@later, power2@first, power2@later.
- stream (this script): the candidate runs per try, a keep's record runs
  included, in a stream where 80% of candidates are null or harmful (the
  simulation's `rich` stream: 20% gains U(0.5, 3) sigma, 10% harms
  -U(0.5, 3) sigma, 70% null), segments of 20 tries after a 5-run
  baseline; target <= 3. Cell stream.
- held-out (`bench/holdout_cli.sh`): under `[objective.holdout]`, with
  paired seeds at a seed correlation rho of the held-out runs, the share
  of null candidates (as good held out as the best, far better on the
  target) the check vetoes (target <= (1 - confidence) + 5 points = 10%),
  and, after 8 tries each 0.5 sigma worse held out, the share of loops
  whose kept commit is not more than 1 sigma worse than the baseline there
  (target >= 95%). Cells holdout@rho0, holdout@rho0.5, holdout@rho0.9
  (holdout@unpaired too).
- guard (this script): 10 candidates a loop, each far better on the target
  and truly 1.05x the step time of the commit kept before it, against
  `step_time_s <= 1.05 * baseline` (what `arx init` writes); the share of
  loops whose kept commit is truly within 1.05x the baseline's step time
  (target >= 95%). Step time 1 + sigma z a run; cells guard@0.02,
  guard@0.05 (sigma), guardbest@0.05 for `1.05 * best`.
- per-instance (`bench/instances_run_effect.sh`): 400 instances, a null
  change's keeps with a run effect tau shared by a run's instances, with
  and without sampling noise (target <= 1 - confidence = 5%); cells
  instances@TAU/S (S 0 or 1: sampling noise); and the cell fixed: 20 up /
  5 down of 400 at temperature 0 kept on one run a side, 3 up / 1 down of
  40 not kept.

Each cell's work is split into one block per worker (a process of the
harness called, or a thread of this script), each in its own
repositories; every block writes its own file under OUT, so a run cut
short still counts and `--table` prints the table from what is there.
The simulation's figure for the same cell is printed beside each (from
the commands named in SIMULATION), with PASS/FAIL on the point estimate.

Usage:
  bench/targets_cli.py [--cells power1@first,stream,...] [--workers W]
                       [--minutes M] [--scale S] [--out DIR]
  bench/targets_cli.py --table [--out DIR]
  SMOKE=1 bench/targets_cli.py     (a few tries of every kind of cell)
--minutes M shares M minutes of wall time among the cells by their
weight (a cell stops starting tries at its share; one that ends early
leaves its time to the others); --scale S multiplies every cell's tries.
ARX=path/to/arx picks the binary; without it the script builds
`cargo build --release --locked --bin arx` and uses target/release/arx.
The experiments run under this script's own Python interpreter.
"""

import argparse
import glob
import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ of calibration_cli in bench/
from calibration_cli import build_arx, new_repo, wilson  # noqa: E402

# cell -> (tries, loops or segments of the cell, weight in the time budget)
DEFAULT_CELLS = {
    "power1@first": (200, 1.2),
    "power1@later": (200, 2.4),
    "power2@first": (200, 0.8),
    "power2@later": (200, 1.6),
    "stream": (10, 0.6),          # segments of 20 tries
    "holdout@rho0.5": (50, 2.2),   # loops of 8 tries, each scenario
    "holdout@rho0.9": (50, 2.2),
    "holdout@rho0": (50, 1.2),
    "instances@0/0": (100, 0.25),
    "instances@0.05/0": (100, 0.25),
    "instances@0.1/0": (100, 0.25),
    "instances@0/1": (100, 0.25),
    "instances@0.05/1": (100, 0.25),
    "instances@0.1/1": (100, 0.25),
    "fixed": (1, 0.05),
    "guard@0.02": (100, 0.6),      # loops of 10 tries
    "guard@0.05": (100, 0.6),
}
OPTIONAL_CELLS = {"holdout@unpaired": (50, 2.2), "guardbest@0.05": (100, 0.6)}
STREAM_TRIES = 20
GUARD_TRIES = 10

# The simulation's figure for each cell, and where it comes from:
# power: `cargo run --example ratchet_sim -- --power-only
#   --calibration-trials 2000` (rate, runs a try, the SPRT ceiling);
# stream: `ratchet_sim --streams-only --trials 400 --segment-tries 20`,
#   rich stream, in segments of 20 tries as this script plays it;
# held-out: `cargo run --example holdout_sim` (2,000 loops x 8 tries);
# guard: `cargo run --example guard_sim -- --loops 2000` at 0.95;
# instances: `cargo run --release --example instance_runs_sim --
#   --nulls-only --trials 50000 --seed 202`.
SIMULATION = {
    "power1@first": "42.8%, 5.62 runs (SPRT ceiling 48.0%)",
    "power1@later": "42.5%, 5.49 runs (SPRT ceiling 48.0%)",
    "power2@first": "87.8%, 8.33 runs (SPRT ceiling 91.5%)",
    "power2@later": "87.6%, 8.35 runs (SPRT ceiling 91.5%)",
    "stream": "2.78",
    "holdout@unpaired/harm": "99.0%",
    "holdout@unpaired/null": "7.3%",
    "holdout@rho0/harm": "98.2%",
    "holdout@rho0/null": "8.4%",
    "holdout@rho0.5/harm": "98.0%",
    "holdout@rho0.5/null": "6.8%",
    "holdout@rho0.9/harm": "100%",
    "holdout@rho0.9/null": "3.4%",
    "guard@0.02": "100.0%, 0.21 keeps a loop",
    "guard@0.05": "99.4%, 0.20 keeps a loop",
    "guardbest@0.05": "99.8%, 0.20 keeps a loop",
    "instances@0/0": "2.58%",
    "instances@0.05/0": "4.36%",
    "instances@0.1/0": "4.65%",
    "instances@0/1": "1.49%",
    "instances@0.05/1": "4.43%",
    "instances@0.1/1": "5.01%",
}
SPRT_CEILING = {"power1": 0.480, "power2": 0.915}


def scripts_env(arx, deadline):
    env = dict(os.environ, ARX=arx, PYTHON=sys.executable)
    if deadline:
        env["BENCH_DEADLINE"] = str(int(deadline))
    return env


def run_script(args, env, log):
    with open(log, "a") as fh:
        subprocess.run(args, cwd=os.path.dirname(HERE), env=env, check=False,
                       stdout=fh, stderr=fh)


# --- power: bench/sequential_cli.sh ------------------------------------

def power_block(arx, cell, tries, out, deadline, log):
    gain = cell[len("power"):cell.index("@")]
    env = scripts_env(arx, deadline)
    env.update(GAIN=gain, BENCH_JSONL=out)
    if cell.endswith("@later"):
        env["LATER"] = "only"
    else:
        env["ARMS"] = "gain"
    run_script([os.path.join(HERE, "sequential_cli.sh"), str(tries)], env, log)


# --- the stream and the guard: repositories of this script -------------

STREAM_PY = r'''import random
import re
v = float(open("value.txt").read())
print('__RESULT__ {"m": %.9f}' % (v + random.gauss(0.0, 1.0)))
'''

GUARD_PY = r'''import random
import re
v = float(open("value.txt").read())
st = float(open("step.txt").read())
sigma = float(open("sigma.txt").read())
print('__RESULT__ {"m": %.9f, "step_time_s": %.9f}'
      % (v + 0.001 * random.gauss(0.0, 1.0), st + sigma * random.gauss(0.0, 1.0)))
'''


def arx_repo(parent, name, files, toml):
    """A repository of this script: FILES, its arx.toml TOML and .gitignore."""
    return new_repo(parent, name, dict(files, **{"arx.toml": toml, ".gitignore": ".arx/\n"}))


def arx_try(arx, repo, label, new_segment=False):
    cmd = [arx, "--json", "try", "-m", label]
    if new_segment:
        cmd.insert(3, "--new-segment")
    p = subprocess.run(cmd, cwd=repo, capture_output=True, text=True)
    try:
        out = json.loads(p.stdout)
        status = (out.get("ratchet") or {}).get("status") or out["outcome"]
        return status, len(out.get("samples") or [1])
    except (ValueError, AttributeError, KeyError):
        return None, 0


def read_num(repo, name):
    with open(os.path.join(repo, name)) as fh:
        return float(fh.read())


def write_num(repo, name, x):
    with open(os.path.join(repo, name), "w") as fh:
        fh.write(f"{x:.9f}\n")


def toml(metric_lines):
    return ("[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\n"
            "direction = \"min\"\n"
            f"command = \"{sys.executable} -S score.py\"\n"
            "rule = \"sequential\"\nconfidence = 0.95\n" + metric_lines)


def stream_block(arx, block, segments, out, deadline, work):
    rng = random.Random(f"stream/{block}/{time.time_ns()}")
    repo = arx_repo(work, f"stream-{block}", {"value.txt": "0\n", "score.py": STREAM_PY},
                    toml("baseline_repeat = 5\n"))
    for s in range(segments):
        if deadline and time.time() > deadline:
            break
        for k in range(STREAM_TRIES):
            u = rng.random()
            if u < 0.2:
                kind, effect = "gain", rng.uniform(0.5, 3.0)
            elif u < 0.3:
                kind, effect = "harm", -rng.uniform(0.5, 3.0)
            else:
                kind, effect = "null", 0.0
            write_num(repo, "value.txt", read_num(repo, "value.txt") - effect)
            with open(os.path.join(repo, "note.txt"), "w") as fh:
                fh.write(f"{s}.{k}\n")
            status, runs = arx_try(arx, repo, f"{kind} {s}.{k}", new_segment=k == 0)
            append(out, {"segment": f"{block}.{s}", "kind": kind, "effect": effect,
                         "status": status, "runs": runs})
    shutil.rmtree(repo, ignore_errors=True)


def guard_block(arx, cell, block, loops, out, deadline, work):
    kind, sigma = cell.split("@")
    reference = "best" if kind == "guardbest" else "baseline"
    lines = ("baseline_repeat = 3\n"
             f"guards = [\"step_time_s <= 1.05 * {reference}\"]\n")
    for n in range(loops):
        if deadline and time.time() > deadline:
            break
        repo = arx_repo(work, f"{kind}-{sigma}-{block}-{n}",
                        {"value.txt": "1\n", "step.txt": "1\n", "sigma.txt": sigma + "\n",
                         "score.py": GUARD_PY}, toml(lines))
        arx_try(arx, repo, "baseline")
        statuses = []
        for k in range(GUARD_TRIES):
            write_num(repo, "value.txt", read_num(repo, "value.txt") - 0.1)
            write_num(repo, "step.txt", read_num(repo, "step.txt") * 1.05)
            status, _ = arx_try(arx, repo, f"candidate {k}")
            statuses.append(status)
        kept = subprocess.run(["git", "show", "HEAD:step.txt"], cwd=repo,
                              capture_output=True, text=True).stdout
        append(out, {"loop": f"{block}.{n}", "step": float(kept), "statuses": statuses})
        shutil.rmtree(repo, ignore_errors=True)


# --- held-out and per-instance: the shell harnesses --------------------

def holdout_block(arx, cell, loops, out, deadline, log):
    env = scripts_env(arx, deadline)
    env.update(BENCH_HOLDOUT_SETTINGS=cell.split("@")[1], BENCH_HOLDOUT_LOOPS=str(loops),
               BENCH_HOLDOUT_JSONL=out)
    run_script([os.path.join(HERE, "holdout_cli.sh")], env, log)


def instances_block(arx, cell, tries, out, deadline, log):
    env = scripts_env(arx, deadline)
    env["BENCH_RESULTS"] = out
    # Every block its own worlds: try i's world is drawn from seed B + i.
    env["BENCH_SEED"] = str(random.SystemRandom().randrange(1 << 40))
    if cell == "fixed":
        args = ["0"]
    else:
        tau, sampling = cell.split("@")[1].split("/")
        env.update(TAUS=tau, SAMPLING=sampling, FIXED="0")
        args = [str(tries)]
    run_script([os.path.join(HERE, "instances_run_effect.sh"), *args], env, log)


LOCK = threading.Lock()


def append(path, row):
    with LOCK, open(path, "a") as fh:
        fh.write(json.dumps(row) + "\n")


def run_job(arx, cell, block, n, outdir, deadline, work):
    base = os.path.join(outdir, f"{cell.replace('/', '_')}.{block}")
    log = base + ".log"
    if cell.startswith("power"):
        power_block(arx, cell, n, base + ".jsonl", deadline, log)
    elif cell == "stream":
        stream_block(arx, block, n, base + ".jsonl", deadline, work)
    elif cell.startswith("guard"):
        guard_block(arx, cell, block, n, base + ".jsonl", deadline, work)
    elif cell.startswith("holdout"):
        holdout_block(arx, cell, n, base + ".jsonl", deadline, log)
    else:
        instances_block(arx, cell, n, base + ".txt", deadline, log)


# --- the table ----------------------------------------------------------

def rows_of(outdir, cell, ext="jsonl"):
    rows = []
    name = re.escape(cell.replace("/", "_"))
    paths = glob.glob(os.path.join(outdir, f"{cell.replace('/', '_')}.*.{ext}"))
    # holdout@rho0.*.jsonl also matches holdout@rho0.5.0.jsonl: blocks only.
    for path in sorted(p for p in paths
                       if re.fullmatch(rf"{name}\.[0-9]+\.{ext}", os.path.basename(p))):
        with open(path) as fh:
            rows += [json.loads(l) if ext == "jsonl" else l.split() for l in fh if l.strip()]
    return rows


def share(k, n):
    lo, hi = wilson(k, n)
    return f"{k} / {n} = {100 * k / n:.1f}%", f"{100 * lo:.1f}–{100 * hi:.1f}%"


def verdict(ok):
    return "PASS" if ok else "FAIL"


def power_row(outdir, cell):
    rows = [r for r in rows_of(outdir, cell) if r["status"] is not None]
    if not rows:
        return None
    gain, decision = cell[len("power"):].split("@")
    k = sum(r["status"] == "keep" for r in rows)
    n = len(rows)
    rate, interval = share(k, n)
    target = 0.40 if gain == "1" else 0.85
    ceiling = SPRT_CEILING[f"power{gain}"]
    runs = sum(r["runs"] for r in rows) / n
    return (f"power, {gain}σ gain, {decision} decision", rate, interval,
            f"{runs:.2f} runs a try; {k / n / ceiling:.2f} of the SPRT ceiling",
            SIMULATION[cell], f"≥ {int(100 * target)}%", verdict(k / n >= target))


def stream_row(outdir):
    rows = [r for r in rows_of(outdir, "stream") if r["status"] is not None]
    if not rows:
        return None
    n = len(rows)
    runs = sum(r["runs"] for r in rows) / n
    segs = len({r["segment"] for r in rows})
    kept = {kind: sum(r["status"] == "keep" for r in rows if r["kind"] == kind)
            for kind in ("gain", "null", "harm")}
    tried = {kind: sum(r["kind"] == kind for r in rows) for kind in kept}
    detail = ", ".join(f"{kind}s kept {kept[kind]} / {tried[kind]}" for kind in kept)
    return ("runs a try, stream of 80% null or harmful", f"{runs:.2f} over {n} tries ({segs} segments)",
            "–", detail, SIMULATION["stream"], "≤ 3", verdict(runs <= 3))


def holdout_rows(outdir, cell):
    rows = rows_of(outdir, cell)
    out = []
    setting = cell.split("@")[1]
    name = "unpaired" if setting == "unpaired" else f"paired ρ {setting[3:]}"
    harm = [r for r in rows if r["scenario"] == "harm"]
    null = [r for r in rows if r["scenario"] == "null"]
    if harm:
        k = sum(r["gap"] <= 1.0001 for r in harm)
        rate, interval = share(k, len(harm))
        out.append((f"held-out, 8 tries 0.5σ worse, {name}: loops ≤ 1σ worse", rate, interval,
                    f"{sum(r['checked'] for r in harm) / len(harm):.1f} tries checked a loop",
                    SIMULATION.get(cell + "/harm", "–"), "≥ 95%", verdict(k / len(harm) >= 0.95)))
    checked = sum(r["checked"] for r in null)
    if checked:
        k = sum(r["vetoed"] for r in null)
        rate, interval = share(k, checked)
        runs = sum(r["candidate_runs"] for r in null) / checked
        out.append((f"held-out, null, {name}: vetoed", rate, interval,
                    f"{runs:.1f} held-out runs a try; {len(null)} loops",
                    SIMULATION.get(cell + "/null", "–"), "≤ 10%", verdict(k / checked <= 0.10)))
    return out


def guard_row(outdir, cell):
    rows = rows_of(outdir, cell)
    if not rows:
        return None
    kind, sigma = cell.split("@")
    k = sum(r["step"] <= 1.05 + 1e-9 for r in rows)
    rate, interval = share(k, len(rows))
    keeps = sum(s == "keep" for r in rows for s in r["statuses"]) / len(rows)
    reference = "best" if kind == "guardbest" else "baseline"
    worst = max(r["step"] for r in rows)
    return (f"guard `1.05 * {reference}`, σ {sigma}, 10 tries each 1.05×: loops ≤ 1.05×",
            rate, interval, f"{keeps:.2f} keeps a loop; worst {worst:.3f}×",
            SIMULATION[cell], "≥ 95%", verdict(k / len(rows) >= 0.95))


def instances_row(outdir, cell):
    rows = rows_of(outdir, cell, "txt")
    if not rows:
        return None
    k = sum(int(r[2]) for r in rows)
    n = sum(int(r[3]) for r in rows)
    runs = sum(int(r[4]) for r in rows) / n
    tau, sampling = cell.split("@")[1].split("/")
    rate, interval = share(k, n)
    noise = "with" if sampling == "1" else "without"
    return (f"per-instance, null, τ {tau}, {noise} sampling noise: kept", rate, interval,
            f"{runs:.2f} runs a try", SIMULATION[cell], "≤ 5%", verdict(k / n <= 0.05))


def fixed_rows(outdir):
    out = []
    for r in rows_of(outdir, "fixed", "txt"):
        case, status, runs = r[1], r[2], r[3]
        want = "keep" if case == "20/5/400" else "discard"
        up, down, n = case.split("/")
        out.append((f"per-instance, temperature 0, {up} up / {down} down of {n}",
                    status, "–", f"{runs} run(s)", "–", want,
                    verdict(status == want and runs == "1")))
    return out


def table(outdir, cells):
    print("| target | measured | Wilson 95% | detail | simulation | target | |")
    print("|---|---:|---|---|---|---|---|")
    for cell in cells:
        if cell.startswith("power"):
            rows = [power_row(outdir, cell)]
        elif cell == "stream":
            rows = [stream_row(outdir)]
        elif cell.startswith("holdout"):
            rows = holdout_rows(outdir, cell)
        elif cell.startswith("guard"):
            rows = [guard_row(outdir, cell)]
        elif cell == "fixed":
            rows = fixed_rows(outdir)
        else:
            rows = [instances_row(outdir, cell)]
        for row in rows:
            if row:
                print("| " + " | ".join(row) + " |")


def known(cell):
    return cell in DEFAULT_CELLS or cell in OPTIONAL_CELLS


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cells", default=",".join(DEFAULT_CELLS))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=0,
                    help="wall time shared among the cells by weight (0: no limit)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every cell's tries")
    ap.add_argument("--out", default="targets_cli")
    ap.add_argument("--table", action="store_true", help="print the table of OUT")
    a = ap.parse_args()
    cells = a.cells.split(",")
    bad = [c for c in cells if not known(c)]
    if bad:
        ap.error(f"unknown cell(s) {', '.join(bad)}; known: "
                 f"{', '.join(list(DEFAULT_CELLS) + list(OPTIONAL_CELLS))}")
    outdir = os.path.abspath(a.out)
    if a.table:
        table(outdir, cells)
        return
    sizes = dict(DEFAULT_CELLS, **OPTIONAL_CELLS)
    if os.environ.get("SMOKE"):
        cells = ["power1@first", "stream", "holdout@rho0.5", "guard@0.05",
                 "instances@0.05/1", "fixed"]
        sizes = {c: (2 if c != "fixed" else 1, w) for c, (_, w) in sizes.items()}
        global STREAM_TRIES
        STREAM_TRIES = 3
    os.makedirs(outdir, exist_ok=True)
    arx = os.path.abspath(os.environ.get("ARX") or build_arx())
    start = time.time()
    end = start + 60 * a.minutes if a.minutes else 0
    total_weight = sum(sizes[c][1] for c in cells)
    work = tempfile.mkdtemp(prefix="arx-targets-")
    jobs = queue.Queue()
    for cell in cells:
        n_all = sizes[cell][0] if cell == "fixed" else max(1, round(sizes[cell][0] * a.scale))
        blocks = 1 if cell == "fixed" else a.workers
        for b in range(blocks):
            n = n_all // blocks + (1 if b < n_all % blocks else 0)
            if n:
                jobs.put((cell, b, n, sizes[cell][1] / blocks))

    def worker():
        while True:
            try:
                cell, b, n, weight = jobs.get_nowait()
            except queue.Empty:
                return
            t0 = time.time()
            deadline = 0
            if end:
                deadline = min(end, t0 + 60 * a.minutes * a.workers * weight / total_weight)
            run_job(arx, cell, b, n, outdir, deadline, work)
            print(f"{cell} block {b}: {time.time() - t0:.0f} s", file=sys.stderr, flush=True)

    threads = [threading.Thread(target=worker) for _ in range(a.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shutil.rmtree(work, ignore_errors=True)
    table(outdir, cells)


if __name__ == "__main__":
    main()
