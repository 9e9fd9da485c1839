#!/usr/bin/env python3
"""The false-keep rate of one null candidate, measured through the CLI.

The calibration target asks, through `arx try` as it is written, that a
candidate of no true effect be kept with probability within 0.5-1.2 x
(1 - confidence), on a segment's first decision and later, with Gaussian
noise, Student-t(3) noise, a candidate of 3x the run variance, and paired
seeds at rho 0, 0.5 and 0.95, at confidence 0.95 and 0.85 (24 cells),
with at least 400 null tries a cell. This script runs those cells.

The experiment (`score.py`, written into each repository) prints
`__RESULT__ {"m": x}` with x = 0 + noise (a loss; every commit has the
same true value, so every candidate is null):
- gauss:  fresh N(0, 1) each run;
- t3:     fresh Student-t(3) scaled to unit variance;
- wide:   N(0, 1), and N(0, 3) for a candidate (its change writes
          wide.txt = 1; a segment's baseline has wide.txt = 0);
- rhoR:   `seeds = "paired"`: sqrt(R) z_seed + sqrt(1 - R) N(0, 1), where
          z_seed ~ N(0, 1) is drawn from ARX_SEED and the segment's round
          (BENCH_ROUND), so runs at one seed correlate by R within a
          segment, and every segment draws new seed effects.

A *segment* is `arx try --new-segment` (a fresh 5-run baseline of HEAD,
then the first candidate: one "first" decision) followed by LATER more
null tries in the same segment ("later" decisions: after 1..LATER earlier
tries, their runs in the segment's noise record and, under paired seeds,
their differences in its pairing history). A keep moves the best as arx
does and the segment goes on against the kept commit; in the wide cells
a keep ends the segment (a kept candidate's runs are wide, and the next
segment's baseline is made narrow again by a commit of wide.txt = 0).
Every try's outcome is appended to OUT (JSON lines) as soon as it is
known, so a run cut short still counts; `--table` prints the Markdown
table from OUT (tries, kept, rate, Wilson 95%, ratio to 1 - confidence,
PASS/FAIL on the point estimate, candidate runs and seconds per try).
Later tries of one segment share the baseline's draw: the table also
gives the number of segments.

Usage:
  bench/calibration_cli.py [--segments N] [--later L] [--workers W]
                           [--cells rho0.5@0.95,gauss@0.85,...] [--out F]
  bench/calibration_cli.py --table [--out F]
  SMOKE=1 bench/calibration_cli.py      (3 segments of 4 cells, 1 later)
Cells are NOISE@CONFIDENCE, NOISE one of gauss t3 wide rho0 rho0.5
rho0.95; the default runs all 24 rows (12 cells x first/later) in the
order the target's open questions rank them (paired rho 0.5 first).
ARX=path/to/arx picks the binary; without it the script builds
`cargo build --release --locked --bin arx` and uses target/release/arx.
The experiment runs under this script's own Python interpreter (not a
version-manager shim, whose start-up would dominate a run).
"""

import argparse
import json
import math
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DEFAULT_CELLS = [
    "rho0.5@0.95", "rho0.5@0.85", "rho0@0.95", "rho0.95@0.95",
    "gauss@0.95", "t3@0.95", "wide@0.95",
    "rho0@0.85", "rho0.95@0.85", "gauss@0.85", "t3@0.85", "wide@0.85",
]

SCORE_PY = r'''import math, os, random
noise = os.environ["BENCH_NOISE"]
def t3():
    z = random.gauss(0.0, 1.0)
    chi = sum(random.gauss(0.0, 1.0) ** 2 for _ in range(3))
    return z / math.sqrt(chi / 3.0) / math.sqrt(3.0)
if noise.startswith("rho"):
    rho = float(noise[3:])
    seed = os.environ.get("ARX_SEED")
    shared = 0.0
    if seed is not None:
        shared = random.Random(seed + "/" + os.environ["BENCH_ROUND"]).gauss(0.0, 1.0)
    e = math.sqrt(rho) * shared + math.sqrt(1.0 - rho) * random.gauss(0.0, 1.0)
elif noise == "t3":
    e = t3()
else:
    e = random.gauss(0.0, 1.0)
    if noise == "wide" and open("wide.txt").read().strip() == "1":
        e *= math.sqrt(3.0)
print('__RESULT__ {"m": %.9f}' % e)
'''


def git(repo, *args):
    subprocess.run(["git", *args], cwd=repo, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def new_repo(parent, name, files):
    """A git repository PARENT/NAME holding FILES (name -> text), committed."""
    repo = os.path.join(parent, name)
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "bench@example.com")
    git(repo, "config", "user.name", "bench")
    for f, text in files.items():
        with open(os.path.join(repo, f), "w") as fh:
            fh.write(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    return repo


def make_repo(parent, name, noise, confidence):
    paired = 'seeds = "paired"\n' if noise.startswith("rho") else ""
    toml = ("[gates]\nexecute = false\n\n[objective]\nmetric = \"m\"\n"
            "direction = \"min\"\n"
            f"command = \"{sys.executable} -S score.py\"\n"
            "baseline_repeat = 5\n"
            f"{paired}rule = \"sequential\"\nconfidence = {confidence}\n")
    return new_repo(parent, name, {"note.txt": "0\n", "wide.txt": "0\n",
                                   "score.py": SCORE_PY, "arx.toml": toml,
                                   ".gitignore": ".arx/\n"})


def try_once(arx, repo, env, label, new_segment, wide):
    with open(os.path.join(repo, "note.txt"), "w") as fh:
        fh.write(label + "\n")
    if wide:
        with open(os.path.join(repo, "wide.txt"), "w") as fh:
            fh.write("1\n")
    cmd = [arx, "--json", "try", "-m", label]
    if new_segment:
        cmd.insert(3, "--new-segment")
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - start
    try:
        out = json.loads(p.stdout)
        status = (out.get("ratchet") or {}).get("status") or out["outcome"]
        runs = len(out.get("samples") or [1])
    except (ValueError, AttributeError):
        status, runs = None, 0
    return status, runs, seconds, p.returncode, p.stderr[-400:]


def narrow_head(repo):
    """After a wide keep: the next segment's baseline is narrow again."""
    path = os.path.join(repo, "wide.txt")
    with open(path) as fh:
        if fh.read().strip() == "0":
            return
    with open(path, "w") as fh:
        fh.write("0\n")
    git(repo, "commit", "-qam", "narrow")


class Recorder:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    def write(self, row):
        with self.lock, open(self.path, "a") as fh:
            fh.write(json.dumps(row) + "\n")


def run_block(arx, work, cell, block, segments, later, rec, stop_at):
    noise, confidence = cell.split("@")
    repo_n = 0
    repo = None
    wide = noise == "wide"
    for s in range(segments):
        if stop_at and time.time() > stop_at:
            return
        if repo is None or s % 50 == 0:
            if repo is not None:
                shutil.rmtree(repo, ignore_errors=True)
            repo = make_repo(work, f"{cell}-{block}-{repo_n}", noise, confidence)
            repo_n += 1
        if wide:
            narrow_head(repo)
        env = dict(os.environ, BENCH_NOISE=noise,
                   BENCH_ROUND=f"{cell}/{block}/{s}/{time.time_ns()}")
        for k in range(later + 1):
            label = f"{cell} {block}.{s}.{k}"
            status, runs, secs, rc, err = try_once(arx, repo, env, label, k == 0, wide)
            rec.write({"cell": cell, "decision": "first" if k == 0 else "later",
                       "index": k, "segment": f"{block}.{s}", "status": status,
                       "runs": runs, "seconds": round(secs, 3), "exit": rc,
                       **({"stderr": err} if status is None else {})})
            if status is None:
                print(f"{cell}: a try gave no JSON (exit {rc}): {err}", file=sys.stderr)
                repo = None
                break
            if status == "keep" and wide:
                break
    if repo is not None:
        shutil.rmtree(repo, ignore_errors=True)


def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


LABELS = {"gauss": "Gaussian", "t3": "Student-t(3)",
          "wide": "candidate at 3x the run variance"}


def label(noise):
    return LABELS.get(noise) or f"paired seeds, rho {noise[3:]}"


def table(path):
    rows = {}
    with open(path) as fh:
        for line in fh:
            r = json.loads(line)
            if r["status"] is None:
                continue
            key = (r["cell"], r["decision"])
            t = rows.setdefault(key, {"n": 0, "k": 0, "runs": 0, "s": 0.0, "seg": set()})
            t["n"] += 1
            t["k"] += r["status"] == "keep"
            t["runs"] += r["runs"]
            t["s"] += r["seconds"]
            t["seg"].add(r["segment"])
    print("| noise | confidence | decision | tries (segments) | kept | rate | Wilson 95% "
          "| x (1 - confidence) | candidate runs | s per try | |")
    print("|---|---:|---|---:|---:|---:|---|---:|---:|---:|---|")
    order = {c: i for i, c in enumerate(DEFAULT_CELLS)}
    for (cell, decision) in sorted(rows, key=lambda k: (order.get(k[0], 99), k[1])):
        t = rows[(cell, decision)]
        noise, confidence = cell.split("@")
        # Rounded: 1 - 0.95 is 0.05000000000000004 in floating point, and
        # 10 kept of 400 read 0.49999... x, a FAIL at exactly 0.5 x.
        alpha = round(1 - float(confidence), 12)
        rate = t["k"] / t["n"]
        lo, hi = wilson(t["k"], t["n"])
        ratio = rate / alpha
        verdict = "PASS" if 0.5 <= ratio <= 1.2 else "FAIL"
        print(f"| {label(noise)} | {confidence} | {decision} | {t['n']} ({len(t['seg'])}) "
              f"| {t['k']} | {100 * rate:.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% "
              f"| {ratio:.2f} | {t['runs'] / t['n']:.2f} | {t['s'] / t['n']:.2f} | {verdict} |")


def build_arx():
    subprocess.run(["cargo", "build", "--release", "--locked", "--bin", "arx"],
                   cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release", "arx")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--segments", type=int, default=400,
                    help="segments per cell: first decisions (default 400)")
    ap.add_argument("--later", type=int, default=2,
                    help="later tries per segment (default 2)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cells", default=",".join(DEFAULT_CELLS))
    ap.add_argument("--out", default="calibration_cli.jsonl")
    ap.add_argument("--minutes", type=float, default=0,
                    help="stop starting segments after this long (0: no limit)")
    ap.add_argument("--table", action="store_true", help="print the table of OUT")
    a = ap.parse_args()
    if a.table:
        table(a.out)
        return
    cells = a.cells.split(",")
    if os.environ.get("SMOKE"):
        a.segments, a.later = 3, 1
        cells = ["rho0.5@0.95", "gauss@0.85", "t3@0.95", "wide@0.95"]
    arx = os.environ.get("ARX") or build_arx()
    arx = os.path.abspath(arx)
    stop_at = time.time() + 60 * a.minutes if a.minutes else 0
    rec = Recorder(os.path.abspath(a.out))
    work = tempfile.mkdtemp(prefix="arx-calibration-")
    # Each cell's segments are split into one block per worker, each in
    # its own repositories; blocks are taken in the cells' order.
    jobs = queue.Queue()
    for cell in cells:
        for b in range(a.workers):
            n = a.segments // a.workers + (1 if b < a.segments % a.workers else 0)
            if n:
                jobs.put((cell, b, n))

    def worker():
        while True:
            try:
                cell, b, n = jobs.get_nowait()
            except queue.Empty:
                return
            t0 = time.monotonic()
            run_block(arx, work, cell, b, n, a.later, rec, stop_at)
            print(f"{cell} block {b}: {n} segments in {time.monotonic() - t0:.0f} s",
                  file=sys.stderr, flush=True)

    threads = [threading.Thread(target=worker) for _ in range(a.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shutil.rmtree(work, ignore_errors=True)
    table(a.out)


if __name__ == "__main__":
    main()
