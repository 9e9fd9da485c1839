"""The loops of bench/real_model.sh and their reading against the truth.

Three arms on the experiment of train.py (scikit-learn's MLP regressor on
the diabetes data), each LOOPS loops, every loop from the same start and
trying the same edits in the same order:

- paired:   `arx try` in a fresh repository, `[objective] seeds = "paired"`;
- unpaired: `arx try` in a fresh repository, the arx.toml as `arx init`
            writes it (every run a fresh seed);
- naive:    one run of each candidate, kept if its value is lower than the
            best's one run (a fresh seed per run).

The truth of a setting is its validation error at TRUTH_SEEDS seeds arx never
hands out (seeds 1,000,000 and up), computed once and cached; the truth of
a step (an edit tried against the best of the moment) is the mean paired
difference over those seeds. Prints the report in Markdown; the records of
every try go to WORK/records.jsonl.
"""

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import train  # noqa: E402  (the experiment itself, for the naive loop and the truth)

START = {
    "width": 16,
    "lr": 0.001,
    "alpha": 0.0001,
    "batch_size": 200,
    "activation": "relu",
    "max_iter": 100,
}

# The edits, in the order every loop tries them: (description, key, value).
# A key outside train.MODEL_KEYS, or `None` (a comment in train.py), leaves
# the model as it is: a no-op edit.
EDITS = [
    ("learning rate 0.003", "lr", 0.003),
    ("weight decay 0.01", "alpha", 0.01),
    ("width 64", "width", 64),
    ("log every 10 epochs", "log_every", 10),
    ("batch size 32", "batch_size", 32),
    ("activation tanh", "activation", "tanh"),
    ("iterations 300", "max_iter", 300),
    ("learning rate 0.03", "lr", 0.03),
    ("comment on the split", None, None),
    ("width 4", "width", 4),
    ("weight decay 1.0", "alpha", 1.0),
    ("activation logistic", "activation", "logistic"),
    ("batch size 100", "batch_size", 100),
    ("iterations 40", "max_iter", 40),
]

TRUTH_SEED0 = 1_000_000


def model_key(params):
    return json.dumps({k: params[k] for k in train.MODEL_KEYS}, sort_keys=True)


def applied(params, edit):
    _, key, value = edit
    out = dict(params)
    if key is not None:
        out[key] = value
    return out


def git(repo, *args):
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


def new_repo(repo, arx, python, paired, k):
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(repo)
    shutil.copy(os.path.join(HERE, "train.py"), os.path.join(repo, "train.py"))
    with open(os.path.join(repo, "params.json"), "w") as f:
        json.dump(START, f, indent=1)
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write("__pycache__/\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "bench@example.com")
    git(repo, "config", "user.name", "bench")
    # The command names its loop (the experiment ignores BENCH_LOOP): arx
    # draws a segment's seeds from its objective, so two repositories with
    # the same arx.toml get the same seeds, and a deterministic experiment
    # would play one paired loop five times.
    command = f"BENCH_LOOP={k} {python} train.py"
    subprocess.run(
        [arx, "init", "--metric", "val_mse", "--direction", "min", "--command", command],
        cwd=repo, check=True, capture_output=True,
    )
    # As `arx init` writes it, but unattended (no approval gates), and with
    # the arm's seeds.
    toml = open(os.path.join(repo, "arx.toml")).read()
    toml = toml.replace("execute = true", "execute = false")
    toml = toml.replace("kg_write = true", "kg_write = false")
    if paired:
        toml = toml.replace(
            'command = "%s"\n' % command, 'command = "%s"\nseeds = "paired"\n' % command
        )
        assert 'seeds = "paired"' in toml
    with open(os.path.join(repo, "arx.toml"), "w") as f:
        f.write(toml)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")


def apply_in_tree(repo, edit):
    desc, key, value = edit
    if key is None:
        with open(os.path.join(repo, "train.py"), "a") as f:
            f.write("\n# The split is stratified by class, so every digit is in both parts.\n")
        return
    path = os.path.join(repo, "params.json")
    params = json.load(open(path))
    params[key] = value
    with open(path, "w") as f:
        json.dump(params, f, indent=1)


class Trainer:
    """A `train.py --serve` process: it imports scikit-learn once and
    trains every run sent to its socket, so a run of the experiment costs
    its training, not 1-2 s of imports. Ends with this process."""

    def __init__(self, python):
        self.dir = tempfile.mkdtemp(prefix="arx-rm-")
        self.socket = os.path.join(self.dir, "trainer.sock")
        self.proc = subprocess.Popen(
            [python, os.path.join(HERE, "train.py"), "--serve", self.socket],
            stdout=subprocess.PIPE, text=True,
        )
        if self.proc.stdout.readline().strip() != "ready":
            raise SystemExit("bench: the trainer did not start")

    def env(self):
        return dict(os.environ, BENCH_TRAIN_SOCKET=self.socket)

    def close(self):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def check_trainer(python):
    """The trainer gives what a run that trains in its own process gives,
    bit for bit: `python train.py` run both ways at a few settings and
    seeds, its printed line compared as text."""
    trainer = Trainer(python)
    settings = [START, dict(START, width=64), dict(START, activation="tanh", batch_size=32)]
    try:
        with tempfile.TemporaryDirectory() as d:
            for params in settings:
                with open(os.path.join(d, "params.json"), "w") as f:
                    json.dump(params, f)
                for seed in (11, 2_000_003):
                    env = dict(os.environ, ARX_SEED=str(seed))
                    env.pop("BENCH_TRAIN_SOCKET", None)
                    run = [python, os.path.join(HERE, "train.py")]
                    own = subprocess.run(run, cwd=d, env=env, check=True,
                                         capture_output=True, text=True).stdout
                    env["BENCH_TRAIN_SOCKET"] = trainer.socket
                    served = subprocess.run(run, cwd=d, env=env, check=True,
                                            capture_output=True, text=True).stdout
                    if own != served or "__RESULT__" not in own:
                        raise SystemExit(f"bench: the trainer gives {served!r} where a run of "
                                         f"its own gives {own!r} ({params}, seed {seed})")
    finally:
        trainer.close()
    print(f"bench: the trainer gives the runs' own results bit for bit "
          f"({len(settings) * 2} runs both ways)", file=sys.stderr)


def arx_loop(arm, k, args):
    repo = os.path.join(args.work, f"{arm}-{k}")
    new_repo(repo, args.arx, args.python, arm == "paired", k)
    trainer = Trainer(args.python) if args.trainer else None
    env = trainer.env() if trainer else None
    started = time.time()
    try:
        loop = arx_tries(arm, k, repo, env, args)
    finally:
        if trainer:
            trainer.close()
    loop["seconds"] = round(time.time() - started, 1)
    return loop


def arx_tries(arm, k, repo, env, args):
    log = open(os.path.join(args.work, f"{arm}-{k}.log"), "w")
    # The baseline: `arx try` on the clean start measures it.
    subprocess.run([args.arx, "try"], cwd=repo, stdout=log, stderr=log, env=env)
    best = dict(START)
    tries = []
    for edit in EDITS:
        cand = applied(best, edit)
        apply_in_tree(repo, edit)
        proc = subprocess.run(
            [args.arx, "--json", "try", "-m", edit[0]],
            cwd=repo, capture_output=True, text=True, env=env,
        )
        log.write(proc.stderr)
        try:
            out = json.loads(proc.stdout)
        except ValueError:
            out = {}
        status = (out.get("ratchet") or {}).get("status") or out.get("outcome") or "error"
        if proc.returncode == 2 or status not in ("keep", "discard", "guard", "holdout", "checks_failed"):
            log.write(f"bench: `arx try` exit {proc.returncode}, status {status}\n")
        if git(repo, "status", "--porcelain").strip():
            raise SystemExit(f"bench: {repo}: the tree is not clean after `{edit[0]}`")
        now = json.loads(git(repo, "show", "HEAD:params.json"))
        kept = status == "keep"
        if kept != (model_key(now) == model_key(cand)) and edit[1] in train.MODEL_KEYS:
            raise SystemExit(f"bench: {repo}: status {status} but HEAD holds {now}")
        tries.append({
            "edit": edit[0], "status": status, "exit": proc.returncode,
            "best": best, "candidate": cand, "line": out.get("line"),
            "basis": (out.get("ratchet") or {}).get("basis"),
            "paired": (out.get("ratchet") or {}).get("paired"),
            "runs": len(out.get("attempts") or []) or (1 if out.get("metrics") else 0),
        })
        if kept:
            best = cand
    runs = 0
    for line in open(os.path.join(repo, ".arx", "journal.jsonl")):
        rec = json.loads(line)
        runs += len(rec.get("attempts") or []) or (1 if rec.get("metrics") else 0)
    log.close()
    return {"arm": arm, "loop": k, "runs": runs, "tries": tries, "final": best}


def loop_from_journal(arm, k, args):
    """A loop of an arx arm read back from its repository's journal (the
    edits it tried, in order, and their statuses), or None when it did not
    try every edit."""
    repo = os.path.join(args.work, f"{arm}-{k}")
    path = os.path.join(repo, ".arx", "journal.jsonl")
    if not os.path.exists(path):
        return None
    edits = {e[0]: e for e in EDITS}
    best, tries, runs = dict(START), [], 0
    for line in open(path):
        rec = json.loads(line)
        runs += len(rec.get("attempts") or []) or (1 if rec.get("metrics") else 0)
        r = rec.get("ratchet") or {}
        edit = edits.get(r.get("description"))
        if edit is None:
            continue
        cand = applied(best, edit)
        tries.append({"edit": edit[0], "status": r.get("status"), "best": best,
                      "candidate": cand, "basis": r.get("basis"), "paired": r.get("paired"),
                      "runs": len(rec.get("attempts") or []) or 1})
        if r.get("status") == "keep":
            best = cand
    if [t["edit"] for t in tries] != [e[0] for e in EDITS]:
        return None
    return {"arm": arm, "loop": k, "runs": runs, "tries": tries, "final": best}


def naive_loop(k):
    rng = random.Random(7_000 + k)
    seed = lambda: rng.randrange(2**31 - 1)  # noqa: E731  (fresh seeds, never the truth's)
    best = dict(START)
    best_value = train.val_mse(best, seed())
    tries = []
    for edit in EDITS:
        cand = applied(best, edit)
        value = train.val_mse(cand, seed())
        status = "keep" if value < best_value else "discard"
        tries.append({"edit": edit[0], "status": status, "best": best, "candidate": cand,
                      "value": value, "vs": best_value, "runs": 1})
        if status == "keep":
            best, best_value = cand, value
    return {"arm": "naive", "loop": k, "runs": 1 + len(EDITS), "tries": tries, "final": best}


def truth_run(job):
    key, seed = job
    return key, seed, train.val_mse(json.loads(key), seed)


def truths(loops, args):
    cache = {}
    if os.path.exists(args.cache):
        cache = json.load(open(args.cache))
    # Every edit on the start too: the per-edit table and the seed
    # effects read them.
    keys = {model_key(START)} | {model_key(applied(START, e)) for e in EDITS}
    for loop in loops:
        for t in loop["tries"]:
            keys.add(model_key(t["best"]))
            keys.add(model_key(t["candidate"]))
    jobs = [(key, TRUTH_SEED0 + s) for key in sorted(keys)
            for s in range(args.truth_seeds) if len(cache.get(key, [])) <= s]
    if jobs:
        print(f"bench: the truth of {len({j[0] for j in jobs})} settings, {len(jobs)} runs",
              file=sys.stderr)
        with Pool(args.jobs) as pool:
            for key, seed, value in pool.imap_unordered(truth_run, jobs, chunksize=4):
                values = cache.setdefault(key, [])
                values.extend([None] * (seed - TRUTH_SEED0 + 1 - len(values)))
                values[seed - TRUTH_SEED0] = value
        tmp = args.cache + ".tmp"
        with open(tmp, "w") as f:
            json.dump(cache, f)
        os.replace(tmp, args.cache)
    return {key: cache[key][: args.truth_seeds] for key in keys}


def mean(xs):
    return sum(xs) / len(xs)


def sd(xs):
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def step_truth(truth, best, cand):
    """The true gain of `cand` over `best` (positive = lower loss) and its
    standard error over the paired truth seeds."""
    d = [b - c for b, c in zip(truth[model_key(best)], truth[model_key(cand)])]
    return mean(d), (sd(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0)


def classify(gain, se):
    # 30 seeds: 2.05 standard errors is a two-sided 5% t test.
    if gain > 2.05 * se and gain > 0:
        return "better"
    if gain < -2.05 * se and gain < 0:
        return "worse"
    return "null"


def report(loops, truth, args):
    sigma = sd(truth[model_key(START)])
    start = mean(truth[model_key(START)])
    print(f"Start: val_mse {start:.4f} over {args.truth_seeds} seeds, run noise σ {sigma:.4f}.")
    print()
    arms = [a for a in ("paired", "unpaired", "naive") if any(l["arm"] == a for l in loops)]
    names = {"paired": '`seeds = "paired"`', "unpaired": "arx default (unpaired)",
             "naive": "naive loop (1 run, keep if lower)"}
    rows = {}
    for arm in arms:
        ls = [l for l in loops if l["arm"] == arm]
        r = dict(runs=0, tries=0, keeps=0, false_keeps=0, harm_kept=0.0, better=0,
                 better_discarded=0, better_discarded_big=0, gain_kept=0.0, gain_discarded=0.0, net=0.0,
                 ends=[], worse_ends=0)
        for loop in ls:
            r["runs"] += loop["runs"]
            for t in loop["tries"]:
                gain, se = step_truth(truth, t["best"], t["candidate"])
                t["truth"], t["truth_se"], t["class"] = gain, se, classify(gain, se)
                r["tries"] += 1
                kept = t["status"] == "keep"
                r["keeps"] += kept
                if t["class"] == "better":
                    r["better"] += 1
                    if kept:
                        r["gain_kept"] += gain
                    else:
                        r["better_discarded"] += 1
                        r["better_discarded_big"] += gain >= 0.1 * sigma
                        r["gain_discarded"] += gain
                elif kept:
                    r["false_keeps"] += 1
                    r["harm_kept"] += gain
            end, _ = step_truth(truth, START, loop["final"])
            r["net"] += end
            r["ends"].append(end)
            r["worse_ends"] += end < 0
        r["per_loop"] = [(end, loop["runs"]) for end, loop in zip(r["ends"], ls)]
        rows[arm] = r
    head = "| | " + " | ".join(names[a] for a in arms) + " |"
    print(head)
    print("|---|" + "---:|" * len(arms))

    def row(label, f):
        print(f"| {label} | " + " | ".join(f(rows[a]) for a in arms) + " |")

    row("loops", lambda r: str(len(r["ends"])))
    row("runs (baselines included)", lambda r: str(r["runs"]))
    row("tries / keeps", lambda r: f"{r['tries']} / {r['keeps']}")
    row("false keeps (kept, not truly better)",
        lambda r: f"{r['false_keeps']} (true change {r['harm_kept']:+.4f})")
    row("true gains discarded (of truly better tries)",
        lambda r: f"{r['better_discarded']} of {r['better']} ({r['better_discarded_big']} of them ≥ 0.1σ)")
    row("true step gains kept / discarded",
        lambda r: f"{r['gain_kept']:.4f} / {r['gain_discarded']:.4f}")
    row("true gain, all loops (start − end)", lambda r: f"{r['net']:.4f} ({r['net'] / sigma:.2f}σ)")
    row("true gain per 100 runs", lambda r: f"{100 * r['net'] / r['runs']:.4f}")
    row("each loop's true gain", lambda r: ", ".join(f"{e:+.4f}" for e in r["ends"]))
    row("loops ending worse than the start", lambda r: str(r["worse_ends"]))
    print()
    a = {arm: 100 * rows[arm]["net"] / rows[arm]["runs"] for arm in arms}
    for arm in arms[:-1]:
        ok = a[arm] >= a["naive"] and rows[arm]["worse_ends"] == 0
        print(f"- {names[arm]}: true gain per 100 runs {a[arm]:.4f} against the naive "
              f"loop's {a['naive']:.4f} ({a[arm] / a['naive'] if a['naive'] else float('nan'):.2f}×), "
              f"{rows[arm]['worse_ends']} loop(s) ending worse than the start: "
              f"{'PASS' if ok else 'FAIL'}")
    print()
    spread(rows, arms, sigma)
    print()
    print("Each edit: its true gain against the start (σ units), then per arm how often it "
          "was kept, and the true gains it lost (discards of a truly better try):")
    print()
    print("| edit | true gain at the start | " + " | ".join(f"{a}: kept / lost" for a in arms) + " |")
    print("|---|---:|" + "---:|" * len(arms))
    for edit in EDITS:
        g, se = step_truth(truth, START, applied(START, edit)) if model_key(
            applied(START, edit)) in truth else (float("nan"), 0)
        cells = []
        for arm in arms:
            ts = [t for l in loops if l["arm"] == arm for t in l["tries"] if t["edit"] == edit[0]]
            kept = sum(t["status"] == "keep" for t in ts)
            lost = [t for t in ts if t["class"] == "better" and t["status"] != "keep"]
            cells.append(f"{kept}/{len(ts)} / {len(lost)} ({sum(t['truth'] for t in lost):.4f})")
        print(f"| {edit[0]} | {g:+.4f} ({g / sigma:+.2f}σ) | " + " | ".join(cells) + " |")
    print()
    seed_effects(truth, sigma)
    print()
    lost_gains(loops, sigma, args)
    print()
    first_seed_signs(loops, args)
    print()
    own_pairs(loops, args)
    print()
    runs_by_edit(loops, sigma)
    with open(os.path.join(args.work, "records.jsonl"), "w") as f:
        for loop in loops:
            f.write(json.dumps(loop) + "\n")


def per_100(loops):
    """Summed true gain per 100 summed runs of (gain, runs) pairs."""
    runs = sum(n for _, n in loops)
    return 100 * sum(g for g, _ in loops) / runs if runs else float("nan")


def spread(rows, arms, sigma, draws=4000):
    """Each arx arm's true gain per 100 runs against the naive loop's: the
    ratio, the difference (σ units) with a 95% bootstrap interval over
    loops (each arm's loops resampled on their own, the difference of the
    resampled sums' gains per 100 runs), the share of draws in which the
    arm gains at least the naive loop's per run, and each loop's gain per
    100 runs: how much of a ratio five or ten loops can tell. (A ratio's
    own interval is undefined whenever a draw of the naive loops gains
    nothing.)"""
    rng = random.Random(20_261_129)
    naive = rows["naive"]["per_loop"]
    print("The ratio's noise: each arm's true gain per 100 runs against the naive loop's; "
          f"the difference with a 95% bootstrap interval over loops ({draws} draws, each arm's "
          "loops resampled on their own), the share of draws where the arm is at least the "
          "naive loop, and each loop's own true gain per 100 runs (σ units):")
    print()
    print("| arm | gain per 100 runs | of the naive loop's | minus the naive loop's (σ) | "
          "95% bootstrap (σ) | draws ≥ naive | each loop's gain per 100 runs (σ) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for arm in arms:
        own = rows[arm]["per_loop"]
        point = per_100(own)
        loops = ", ".join(f"{100 * g / n / sigma:+.2f}" for g, n in own)
        if arm == "naive":
            print(f"| {arm} | {point:.4f} | 1.00× | – | – | – | {loops} |")
            continue
        boot = []
        for _ in range(draws):
            a = per_100([rng.choice(own) for _ in own])
            b = per_100([rng.choice(naive) for _ in naive])
            boot.append((a - b) / sigma)
        boot.sort()
        lo, hi = boot[int(0.025 * draws)], boot[int(0.975 * draws) - 1]
        ahead = sum(x >= 0 for x in boot) / draws
        base = per_100(naive)
        ratio = f"{point / base:.2f}×" if base > 0 else "–"
        print(f"| {arm} | {point:.4f} | {ratio} | {(point - base) / sigma:+.3f} | "
              f"{lo:+.3f} to {hi:+.3f} | {ahead:.0%} | {loops} |")


def runs_by_edit(loops, sigma):
    """Where each arx arm spends its runs, per edit: the edit's true gain
    where it was tried (σ units, the mean over loops), how many loops kept
    it, the candidate runs its tries took (a try is decided at its last
    run's look), how many ended on one run, on two or three, on four or
    more, and the true gain its discards lost."""
    print("Runs per edit, arx arms (true gain where tried, in σ; a try is decided at "
          "the look of its last run):")
    print()
    print("| arm | edit | true gain (σ) | kept | candidate runs | ended at run 1 / 2–3 / 4+ | "
          "true gain lost (σ) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for arm in ("paired", "unpaired"):
        ts_all = [t for l in loops if l["arm"] == arm for t in l["tries"]]
        for edit in EDITS:
            ts = [t for t in ts_all if t["edit"] == edit[0]]
            if not ts:
                continue
            runs = [t["runs"] for t in ts]
            lost = sum(t["truth"] for t in ts if t["class"] == "better" and t["status"] != "keep")
            print(f"| {arm} | {edit[0]} | {mean([t['truth'] for t in ts]) / sigma:+.2f} | "
                  f"{sum(t['status'] == 'keep' for t in ts)}/{len(ts)} | {sum(runs)} | "
                  f"{sum(r <= 1 for r in runs)} / {sum(2 <= r <= 3 for r in runs)} / "
                  f"{sum(r >= 4 for r in runs)} | {lost / sigma:.2f} |")
        total = [t["runs"] for t in ts_all]
        print(f"| {arm} | all | | {sum(t['status'] == 'keep' for t in ts_all)}/{len(ts_all)} | "
              f"{sum(total)} | {sum(r <= 1 for r in total)} / "
              f"{sum(2 <= r <= 3 for r in total)} / {sum(r >= 4 for r in total)} | |")


def seed_values(rec):
    """A journal record's runs as {seed: value}."""
    r = rec.get("ratchet") or {}
    runs = [a["metrics"].get(r.get("metric")) for a in rec.get("attempts") or []]
    if not runs and rec.get("metrics"):
        runs = [rec["metrics"].get(r.get("metric"))]
    return dict(zip(r.get("seeds") or [], runs))


def lost_gains(loops, sigma, args):
    """How arx decided each truly better try of at least 0.1σ it did not
    keep, read from the loop's journal: the runs, whether the decision was
    paired, at the candidate's first seed its run against the best's run
    there (what a paired screen compares), its z unpaired, on its own
    pairs and at the segment's pooled spread of a difference, the
    positions of its seeds among the best's, and the cause it is put
    down to (`loss_cause`)."""
    from scipy.stats import t as student_t

    print("Truly better tries (≥ 0.1σ) arx did not keep, from the journals:")
    print()
    print("| arm | loop | edit | true gain | candidate runs | decided | ended at | line's change | "
          "first run − the best's run at its seed | z at the last look, unpaired | "
          "z on its own pairs | z at the pooled spread | own / pooled spread | "
          "at the best's seeds | cause |")
    print("|---|---:|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    ends, causes = {}, {}
    for loop in loops:
        if loop["arm"] == "naive":
            continue
        path = os.path.join(args.work, f"{loop['arm']}-{loop['loop']}", ".arx", "journal.jsonl")
        trail = paired_trail(path)
        records = {}
        for line in open(path):
            rec = json.loads(line)
            records[(rec.get("ratchet") or {}).get("description")] = rec
        for t in loop["tries"]:
            if t["class"] != "better" or t["status"] == "keep" or t["truth"] < 0.1 * sigma:
                continue
            rec, v = records[t["edit"]], trail[t["edit"]]
            r = rec["ratchet"]
            n_runs = len(rec.get("attempts") or []) or 1
            diffs, pooled = v["diffs"], v["pooled"]
            same = f"{-diffs[0]:+.4f}" if diffs else "–"
            paired = r.get("paired") or {}
            decided = f"paired ({paired['pairs']} pairs)" if paired else "unpaired"
            # The unpaired look's statistic: the improvement over its
            # standard error, the run noise over the candidate's runs and
            # the best's recorded ones.
            z = "–"
            if not paired and r.get("noise") and r.get("best_runs"):
                se = r["noise"] * math.sqrt(1 / n_runs + 1 / r["best_runs"])
                z = f"{r.get('improvement', float('nan')) / se:+.2f}"
            zp = f"{t_own(diffs):+.2f}" if len(diffs) >= 2 else "–"
            zpool, ratio = "–", "–"
            if len(diffs) >= 1 and pooled:
                zpool = f"{mean(diffs) / (pooled / math.sqrt(len(diffs))):+.2f}"
            if len(diffs) >= 2 and pooled:
                ratio = f"{sd(diffs) / pooled:.2f}"
            end = stop_of(n_runs, paired, r.get("best_runs") or 0)
            cause = loss_cause(loop["arm"], paired, v, end, student_t)
            ends.setdefault((loop["arm"], end), []).append(t["truth"])
            causes.setdefault((loop["arm"], cause), []).append(t["truth"])
            at = ",".join(str(a) for a in v["at"][:8]) or "–"
            print(f"| {loop['arm']} | {loop['loop']} | {t['edit']} | {t['truth']:.4f} "
                  f"({t['truth'] / sigma:.2f}σ) | {n_runs} | {decided} | {end} | "
                  f"{(r.get('basis') or {}).get('change', float('nan')):+.4f} | {same} | {z} | "
                  f"{zp} | {zpool} | {ratio} | {at} | {cause} |")
    print()
    print("Where those lost gains ended, per arm (tries, and their true gain in σ):")
    print()
    print("| arm | ended at | tries | true gain lost (σ) |")
    print("|---|---|---:|---:|")
    for (arm, end), gains in sorted(ends.items()):
        print(f"| {arm} | {end} | {len(gains)} | {sum(gains) / sigma:.2f} |")
    print()
    print("What those lost gains are put down to, per arm (tries, and their true gain in σ):")
    print()
    print("| arm | cause | tries | true gain lost (σ) |")
    print("|---|---|---:|---:|")
    for (arm, cause), gains in sorted(causes.items()):
        print(f"| {arm} | {cause} | {len(gains)} | {sum(gains) / sigma:.2f} |")


def loss_cause(arm, paired, v, end, student_t):
    """What a lost true gain is put down to, the first that fits:
    - `decided unpaired`: under paired seeds, its pairing not shown;
    - `the segment's first paired try`: no earlier differences, so
      tested on its own pairs alone (4 degrees of freedom on 5 pairs);
    - `own spread far below the pool`: decided paired on 3 pairs or more,
      its own differences spread under half the pooled spread, and a
      one-sided paired t test at 95% on them alone calls it better;
    - `worse at the segment's seeds`: ended at a futility bound, not
      better on the mean of its pairs, which sit at the same seeds of
      the best as every try's against that best;
    - `last pair`: ended at the last of the best's seeded runs;
    - `futility, better at its pairs`: ended at a futility bound, better
      on the mean of its pairs but not by enough;
    - `calibration`: an unpaired try (the screen, futility and last-look
      bounds of a rule calibrated at its confidence, on a gain this
      small; `ended at` says which)."""
    diffs, pooled = v["diffs"], v["pooled"]
    if arm != "paired":
        return "calibration"
    if not paired:
        return "decided unpaired"
    if v["first"]:
        return "the segment's first paired try"
    if (len(diffs) >= 3 and pooled and sd(diffs) < 0.5 * pooled
            and t_own(diffs) >= student_t.ppf(0.95, len(diffs) - 1)):
        return "own spread far below the pool"
    if "futility" in end:
        return ("worse at the segment's seeds" if diffs and mean(diffs) <= 0
                else "futility, better at its pairs")
    return "last pair"


def first_seed_signs(loops, args):
    """Per paired loop: its truly better tries, how many were worse than
    the best at the best's first seed (where every try of a segment
    starts), and how many were lost. Seeds that disfavour one gain
    disfavour the others where the gains move together seed by seed."""
    print("Paired loops: truly better tries, those worse than the best at its first seed, "
          "and those lost:")
    print()
    print("| loop | truly better tries | worse at the best's first seed | lost | "
          "lost and worse there |")
    print("|---:|---:|---:|---:|---:|")
    for loop in loops:
        if loop["arm"] != "paired":
            continue
        trail = paired_trail(os.path.join(args.work, f"paired-{loop['loop']}", ".arx",
                                          "journal.jsonl"))
        better = [t for t in loop["tries"] if t["class"] == "better"]
        worse = [t for t in better if trail[t["edit"]]["diffs"][:1] and
                 trail[t["edit"]]["diffs"][0] <= 0 and trail[t["edit"]]["at"][:1] == [1]]
        lost = [t for t in better if t["status"] != "keep"]
        both = [t for t in worse if t["status"] != "keep"]
        print(f"| {loop['loop']} | {len(better)} | {len(worse)} | {len(lost)} | {len(both)} |")


def seed_effects(truth, sigma):
    """Each edit on the start at the truth's seeds, as paired seeds see
    it: the correlation of its runs with the start's at the same seed
    (ρ), the spread of one paired difference, its true gain in units of
    that spread, and how its differences seed by seed correlate with the
    other gains' (the median over them). A segment pairs every try with
    the same few seeds of its best: where gains move together seed by
    seed, seeds that disfavour one disfavour them all."""
    base = truth[model_key(START)]
    diffs = {}
    for edit in EDITS:
        key = model_key(applied(START, edit))
        if key in truth:
            diffs[edit[0]] = [b - c for b, c in zip(base, truth[key])]
    gains = [e for e, d in diffs.items() if sd(d) > 0 and mean(d) > 2.05 * sd(d) / math.sqrt(len(d))]

    def corr(a, b):
        ma, mb = mean(a), mean(b)
        num = sum((x - ma) * (y - mb) for x, y in zip(a, b))
        den = math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
        return num / den if den > 0 else float("nan")

    print("Each edit on the start, seed by seed at the truth's seeds: ρ with the start's run at "
          "the same seed, the spread of one paired difference, the true gain in units of it, and "
          "the median correlation of its differences with those of the other truly better edits:")
    print()
    print("| edit | true gain (σ) | ρ | spread of a difference (σ) | gain / spread | "
          "median correlation with the other gains, seed by seed |")
    print("|---|---:|---:|---:|---:|---:|")
    for edit in EDITS:
        d = diffs.get(edit[0])
        if d is None:
            continue
        cand = truth[model_key(applied(START, edit))]
        spread = sd(d)
        rho = corr(base, cand) if spread > 0 else 1.0
        others = sorted(corr(d, diffs[o]) for o in gains if o != edit[0])
        med = f"{others[len(others) // 2]:.2f}" if others and spread > 0 else "–"
        ratio = f"{mean(d) / spread:+.2f}" if spread > 0 else "–"
        print(f"| {edit[0]} | {mean(d) / sigma:+.2f} | {rho:.2f} | {spread / sigma:.2f} | {ratio} | {med} |")


def paired_trail(path):
    """Each try of a loop's journal as the paired rule saw it, by its
    description: its differences at the best's seeds (positive =
    better), the positions of its seeds among the best's (1 = the best's
    first seed), and the spread of one difference pooled over the
    segment's earlier tries and its own pairs, plainly (the rule also
    leaves out a try beyond the others by an F test at 10⁻⁴), and whether
    it is the segment's first try with pairs (no earlier differences)."""
    best, best_seeds, history, out = {}, [], [], {}
    for line in open(path):
        rec = json.loads(line)
        r = rec.get("ratchet") or {}
        runs = seed_values(rec)
        seeds = [s for s in r.get("seeds") or [] if s in runs]
        diffs = [best[s] - runs[s] for s in seeds if s in best]
        if r.get("direction") == "max":
            diffs = [-x for x in diffs]
        with_own = history + ([diffs] if len(diffs) >= 2 else [])
        df = sum(len(h) - 1 for h in with_own)
        pooled = (math.sqrt(sum(sum((x - mean(h)) ** 2 for x in h) for h in with_own) / df)
                  if df else None)
        out[r.get("description")] = dict(
            diffs=diffs, pooled=pooled, paired=r.get("paired"), first=not history,
            at=[best_seeds.index(s) + 1 if s in best_seeds else 0 for s in seeds])
        if len(diffs) >= 2:
            history.append(diffs)
        if r.get("status") in ("baseline", "keep"):
            best, best_seeds = runs, seeds
    return out


def t_own(diffs):
    """A paired t statistic on a try's own differences alone."""
    own = sd(diffs)
    if own > 0:
        return mean(diffs) / (own / math.sqrt(len(diffs)))
    return math.inf if mean(diffs) > 0 else -math.inf


def own_pairs(loops, args):
    """The paired arm's tries decided paired on three pairs or more: the
    spread of their own differences against the spread pooled over the
    segment (the rule judges a try at the pooled spread unless an F test
    at 0.4 shows its own larger), and how many a one-sided paired t test
    at 95% on their own differences alone, at their last look, would call
    better: by the truth of the try and by arx's decision."""
    from scipy.stats import t as student_t

    rows = {}
    for loop in loops:
        if loop["arm"] != "paired":
            continue
        trail = paired_trail(os.path.join(args.work, f"paired-{loop['loop']}", ".arx",
                                          "journal.jsonl"))
        for t in loop["tries"]:
            v = trail.get(t["edit"])
            if not v or not v["paired"] or len(v["diffs"]) < 3 or not v["pooled"]:
                continue
            diffs = v["diffs"]
            passes = t_own(diffs) >= student_t.ppf(0.95, len(diffs) - 1)
            row = rows.setdefault(t["class"], dict(tries=0, kept=0, ratios=[], pass_kept=0,
                                                   pass_discarded=0))
            row["tries"] += 1
            row["kept"] += t["status"] == "keep"
            row["ratios"].append(sd(diffs) / v["pooled"])
            row["pass_kept" if t["status"] == "keep" else "pass_discarded"] += passes
    print("Paired tries decided on 3 pairs or more: their own differences' spread against the "
          "segment's pooled one, and a one-sided paired t test at 95% on their own differences "
          "alone at the last look:")
    print()
    print("| truth of the try | tries | kept by arx | own spread / pooled (median, range) | "
          "own t test says better: kept / discarded by arx |")
    print("|---|---:|---:|---:|---:|")
    for cls in ("better", "null", "worse"):
        r = rows.get(cls)
        if not r:
            continue
        q = sorted(r["ratios"])
        print(f"| {cls} | {r['tries']} | {r['kept']} | {q[len(q) // 2]:.2f} ({q[0]:.2f}–{q[-1]:.2f}) | "
              f"{r['pass_kept']} / {r['pass_discarded']} |")


def stop_of(n_runs, paired, best_runs, cap=8):
    """Which look of the `sequential` design ended a discarded try: the
    one-run screen, a futility bound before the last look, or the last
    look (the cap of 8 runs unpaired; the best's last seeded run paired,
    where the bounds meet)."""
    if paired:
        last = min(best_runs, cap) if best_runs else cap
        where = "last pair" if paired["pairs"] >= last else "futility"
        return f"paired, {where} ({paired['pairs']} pairs)"
    if n_runs <= 1:
        return "unpaired, screen (run 1)"
    if n_runs >= cap:
        return f"unpaired, last look (run {n_runs})"
    return "unpaired, futility (runs 2–7)"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--arx", required=True)
    p.add_argument("--python", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--cache", required=True)
    p.add_argument("--loops", type=int, default=5)
    p.add_argument("--truth-seeds", type=int, default=30)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--edits", type=int, default=len(EDITS))
    p.add_argument("--arms", default="paired,unpaired",
                   help="the arx arms to run, comma-separated (the naive loop always runs)")
    p.add_argument("--no-trainer", dest="trainer", action="store_false",
                   help="every run imports scikit-learn and trains in its own process")
    p.add_argument("--from-records", action="store_true",
                   help="no new loops: read the arx loops that tried every edit back from WORK")
    args = p.parse_args()
    del EDITS[args.edits:]
    arms = [a for a in args.arms.split(",") if a]
    if not arms or any(a not in ("paired", "unpaired") for a in arms):
        p.error("--arms takes paired and/or unpaired")
    if args.from_records:
        loops = [l for arm in arms for k in range(args.loops)
                 for l in [loop_from_journal(arm, k, args)] if l is not None]
        loops += [naive_loop(k) for k in range(args.loops)]
        report(loops, truths(loops, args), args)
        return
    os.makedirs(args.work, exist_ok=True)
    if args.trainer:
        check_trainer(args.python)
    # The arms' loops in turn (loop 0 of each arm, then loop 1, ...), so
    # that a run stopped early has as many loops of each arm.
    jobs = [(arm, k) for k in range(args.loops) for arm in arms]
    loops = []
    with ThreadPoolExecutor(args.jobs) as pool:
        for loop in pool.map(lambda j: arx_loop(j[0], j[1], args), jobs):
            print(f"bench: {loop['arm']} loop {loop['loop']}: {loop['runs']} runs in "
                  f"{loop['seconds']} s, keeps: "
                  + ", ".join(t["edit"] for t in loop["tries"] if t["status"] == "keep"),
                  file=sys.stderr)
            loops.append(loop)
    for k in range(args.loops):
        loops.append(naive_loop(k))
    truth = truths(loops, args)
    report(loops, truth, args)


if __name__ == "__main__":
    main()
