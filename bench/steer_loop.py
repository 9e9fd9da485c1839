#!/usr/bin/env python3
"""A real loop through the CLI, steered against a uniform pick.

A scripted agent works a small model (logistic regression trained by SGD,
Python's standard library only) in a fresh git repository: it writes a
fixed backlog of 20 ideas in 5 families with `arx idea add --family`, then
until the run budget is spent picks an idea (`arx next` when steered; a
random open idea of `arx idea list --json` when uniform), applies its edit
to params.json and runs `arx try --idea ID` (an idea the best already
holds is dropped instead). When no idea is open (or `arx next` has none to
offer), it adds again each idea discarded before the best last moved (a
new parent makes it a new try); with none left, the loop ends before the
budget. Keeps per 100 runs are counted
from the experiment's own runs.

Usage: steer_loop.py --arx PATH [--runs N] [--loops K] [--seed S] [--dir D]
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

TRAIN = r'''
import json, math, os, random, sys
p = json.load(open("params.json"))
data = random.Random(12345)
def sample(n):
    rows = []
    for _ in range(n):
        x = [data.gauss(0, 1) for _ in range(5)]
        z = 0.7 + 1.2 * x[0] - 0.8 * x[1] + 1.5 * x[0] * x[1] - 0.6 * x[2] * x[2]
        y = 1 if data.random() < 1 / (1 + math.exp(-z)) else 0
        rows.append((x, y))
    return rows
train, val = sample(300), sample(1000)
def features(x):
    f = list(x)
    if p["cubes"]:
        f += [v * v * v for v in x]
    if p["interactions"]:
        f += [x[i] * x[j] for i in range(5) for j in range(i + 1, 5)]
    if p["squares"]:
        f += [v * v for v in x]
    if p["bias"]:
        f.append(1.0)
    return f
run = random.Random(os.urandom(8))
d = len(features(train[0][0]))
w = [run.gauss(0, p["init_scale"]) * 0.1 for _ in range(d)]
for epoch in range(p["epochs"]):
    order = list(range(len(train)))
    run.shuffle(order)
    lr = p["lr"] / (1 + epoch) ** 0.5
    for i in order[: len(order) * 2 // 3]:
        f = features(train[i][0])
        z = max(-30, min(30, sum(a * b for a, b in zip(w, f))))
        g = 1 / (1 + math.exp(-z)) - train[i][1]
        w = [wi - lr * (g * fi + p["l2"] * wi) for wi, fi in zip(w, f)]
loss = 0.0
for x, y in val:
    z = max(-30, min(30, sum(a * b for a, b in zip(w, features(x)))))
    q = min(max(1 / (1 + math.exp(-z)), 1e-9), 1 - 1e-9)
    loss -= y * math.log(q) + (1 - y) * math.log(1 - q)
with open(os.environ["STEER_LOOP_RUNS"], "a") as out:
    out.write("run\n")
print("__RESULT__ " + json.dumps({"val_loss": loss / len(val)}))
'''

PARAMS = {
    "lr": 0.1,
    "l2": 0.01,
    "epochs": 3,
    "init_scale": 1.0,
    "cubes": False,
    "interactions": False,
    "squares": False,
    "bias": False,
}

# (family, statement, edit of params.json)
BACKLOG = [
    ("features", "add pairwise interaction features", {"interactions": True}),
    ("features", "add squared features", {"squares": True}),
    ("features", "add a bias feature", {"bias": True}),
    ("features", "add cubic features", {"cubes": True}),
    ("lr", "learning rate 0.3", {"lr": 0.3}),
    ("lr", "learning rate 0.03", {"lr": 0.03}),
    ("lr", "learning rate 1.0", {"lr": 1.0}),
    ("lr", "learning rate 0.01", {"lr": 0.01}),
    ("regularization", "weight decay 0.001", {"l2": 0.001}),
    ("regularization", "weight decay 0.1", {"l2": 0.1}),
    ("regularization", "weight decay 0.0001", {"l2": 0.0001}),
    ("regularization", "weight decay 0.03", {"l2": 0.03}),
    ("schedule", "train 6 epochs", {"epochs": 6}),
    ("schedule", "train 2 epochs", {"epochs": 2}),
    ("schedule", "train 10 epochs", {"epochs": 10}),
    ("schedule", "train 1 epoch", {"epochs": 1}),
    ("init", "initial weights scale 0", {"init_scale": 0.0}),
    ("init", "initial weights scale 0.5", {"init_scale": 0.5}),
    ("init", "initial weights scale 2", {"init_scale": 2.0}),
    ("init", "initial weights scale 4", {"init_scale": 4.0}),
]


def sh(args, cwd, env, check=True):
    r = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if check and r.returncode not in (0, 1, 3):
        sys.exit(f"steer_loop: {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r


def loop(arx, policy, runs_budget, seed, workdir):
    rng = random.Random(seed)
    repo = os.path.join(workdir, f"{policy}-{seed}")
    os.makedirs(repo)
    counter = os.path.join(workdir, f"{policy}-{seed}.runs")
    open(counter, "w").close()
    env = dict(os.environ, STEER_LOOP_RUNS=counter, GIT_AUTHOR_NAME="bench",
               GIT_AUTHOR_EMAIL="bench@example.com", GIT_COMMITTER_NAME="bench",
               GIT_COMMITTER_EMAIL="bench@example.com")
    with open(os.path.join(repo, "train.py"), "w") as f:
        f.write(TRAIN)
    with open(os.path.join(repo, "params.json"), "w") as f:
        json.dump(PARAMS, f, indent=1)
    sh(["git", "init", "-q"], repo, env)
    r = sh([arx, "init", "--metric", "val_loss", "--direction", "min",
            "--command", f"{sys.executable} train.py", "--protect", "train.py"], repo, env)
    if r.returncode != 0:
        sys.exit(f"steer_loop: arx init failed ({r.returncode}): {r.stderr.strip()}")
    sh(["git", "add", "-A"], repo, env)
    sh(["git", "commit", "-qm", "start"], repo, env)
    edits = {}

    def add(family, statement, edit):
        r = sh([arx, "idea", "add", "--family", family, statement], repo, env)
        if r.returncode != 0:
            sys.exit(f"steer_loop: arx idea add failed: {r.stderr.strip()}")
        edits[r.stdout.strip()] = (family, statement, edit)

    for family, statement, edit in BACKLOG:
        add(family, statement, edit)
    sh([arx, "try", "--no-gates", "-m", "baseline"], repo, env)
    keeps = tries = 0
    # The keeps before each idea's last try: one discarded before the best
    # moved is worth trying again at the new best.
    tried_at = {}
    while True:
        runs = sum(1 for _ in open(counter))
        if runs >= runs_budget:
            break
        if policy == "steered":
            r = sh([arx, "next"], repo, env)
            idea = r.stdout.strip() if r.returncode == 0 else None
        else:
            items = json.loads(sh([arx, "idea", "list", "--json"], repo, env).stdout)
            open_ids = [i["id"] for i in items if i.get("status") == "open"]
            idea = rng.choice(open_ids) if open_ids else None
        if idea is None:
            # Nothing open: each idea discarded before the best moved is a
            # new try at the new parent.
            items = json.loads(sh([arx, "idea", "list", "--json"], repo, env).stdout)
            again = [i for i in items if i.get("status") == "tried" and i.get("last") != "keep"
                     and tried_at.get(i["id"], keeps) < keeps]
            if not again:
                break
            for i in again:
                tried_at.pop(i["id"])
                add(*edits[i["id"]])
            continue
        family, statement, edit = edits[idea]
        path = os.path.join(repo, "params.json")
        params = json.load(open(path))
        if all(params.get(k) == v for k, v in edit.items()):
            # The best already has it: nothing to try.
            sh([arx, "idea", "drop", idea], repo, env)
            continue
        params.update(edit)
        json.dump(params, open(path, "w"), indent=1)
        r = sh([arx, "try", "--no-gates", "--idea", idea], repo, env)
        tried_at[idea] = keeps
        tries += 1
        if r.returncode == 0:
            keeps += 1
    runs = sum(1 for _ in open(counter))
    return keeps, tries, runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arx", required=True)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--loops", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir")
    a = ap.parse_args()
    workdir = a.dir or tempfile.mkdtemp(prefix="steer-loop-")
    totals = {}
    try:
        for k in range(a.loops):
            for policy in ("uniform", "steered"):
                keeps, tries, runs = loop(a.arx, policy, a.runs, a.seed + k, workdir)
                t = totals.setdefault(policy, [0, 0, 0])
                t[0] += keeps
                t[1] += tries
                t[2] += runs
                print(f"loop {k + 1} {policy}: {keeps} keeps, {tries} tries, {runs} runs", file=sys.stderr)
    finally:
        if not a.dir:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"| policy | loops | tries | runs | keeps | keeps per 100 runs |")
    print("|---|---:|---:|---:|---:|---:|")
    rate = {}
    for policy in ("uniform", "steered"):
        keeps, tries, runs = totals[policy]
        rate[policy] = 100.0 * keeps / max(runs, 1)
        print(f"| {policy} | {a.loops} | {tries} | {runs} | {keeps} | {rate[policy]:.2f} |")
    ratio = rate["steered"] / rate["uniform"] if rate["uniform"] > 0 else float("nan")
    print(f"\nsteered / uniform keeps per 100 runs: {ratio:.2f}x")


if __name__ == "__main__":
    main()
