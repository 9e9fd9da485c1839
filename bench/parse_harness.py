#!/usr/bin/env python3
"""Helper for bench/parse.sh: generates the log and does the measuring.

Sub-commands:
  gen PATH MIB            write a training-style log of MIB MiB ending in one
                          `__RESULT__ {...}` line (atomically: PATH.tmp + rename)
  run CONFIG.json         time every command, check outputs, print Markdown

Only the standard library is used, so the system python3 is enough.

Method:
* Wall time: each process is started with os.posix_spawn and reaped with
  os.wait4; time.perf_counter() brackets spawn..reap, so no shell or wrapper
  process is timed.
* Peak RSS: measured in separate runs under GNU time (`/usr/bin/time -f %M`),
  wrapping only the measured process (in the pipe case arx, not cat).  Not
  taken from the timed runs: posix_spawn uses vfork, and Linux folds the
  parent's RSS (this Python, ~15 MiB) into the child's ru_maxrss at exec.
  Without GNU time, wait4's ru_maxrss is used and reported as an upper bound.
  The floor of the method (the same measurement of /bin/true) is reported.
* Ratios: median over median, and also against the other tool's best run;
  a target passes only if both pass (the reference's timings vary most).
"""

import json
import os
import random
import statistics
import sys
import tempfile
import time

RESULT_LINE = b'__RESULT__ {"acc": 0.83, "loss": 0.41}\n'
GEN_VERSION = 1  # bump when the generated content changes (part of the cache key)


# --------------------------------------------------------------------------
# Log generation
# --------------------------------------------------------------------------

def _block(rng: random.Random, target_bytes: int, epoch: int, step0: int) -> bytes:
    """About target_bytes of plausible training output (ASCII only)."""
    total_steps = 50000
    out = []
    size = 0
    step = step0
    while size < target_bytes:
        step = step % total_steps + 10
        r = rng.random()
        if r < 0.80:
            line = (
                f"epoch {epoch} step {step}/{total_steps} loss={rng.uniform(0.05, 2.5):.4f} "
                f"lr={rng.choice((1.0, 2.0, 3.0, 5.0))}e-0{rng.randint(3, 5)} "
                f"grad_norm={rng.uniform(0.1, 9.9):.2f} tokens/s={rng.randint(30000, 65000)} "
                f"[gpu{rng.randint(0, 7)} mem {rng.uniform(10, 79.9):.1f}G]"
            )
        elif r < 0.86:
            line = (
                f"[eval] step {step} val_loss={rng.uniform(0.2, 1.5):.4f} "
                f"val_acc={rng.uniform(0.5, 0.95):.4f} ppl={rng.uniform(1.1, 30):.2f}"
            )
        elif r < 0.90:
            # tqdm in ascii mode, as written when stdout is not a terminal
            pct = rng.randint(0, 100)
            bar = "#" * (pct // 10) + " " * (10 - pct // 10)
            line = (
                f"train: {pct:3d}%|{bar}| {pct * 50}/5000 "
                f"[01:{rng.randint(10, 59)}<02:{rng.randint(10, 59)}, {rng.uniform(5, 40):.2f}it/s]"
            )
        elif r < 0.93:
            line = rng.choice((
                f"WARNING:torch.distributed: rank {rng.randint(0, 7)} straggling by {rng.uniform(0.1, 3):.2f}s",
                f"/opt/venv/lib/python3.11/site-packages/torch/utils/data/dataloader.py:{rng.randint(100, 900)}: "
                f"UserWarning: worker {rng.randint(0, 15)} took {rng.uniform(1, 9):.2f}s to fetch batch",
                "WARNING: gradient overflow detected, skipping step; reducing loss scale to "
                f"{2 ** rng.randint(8, 16)}",
            ))
        elif r < 0.96:
            # braces and underscores: dict-style config / metric dumps
            line = (
                f"metrics: {{'step': {step}, 'train_loss': {rng.uniform(0.05, 2.5):.4f}, "
                f"'lr_scale': {rng.uniform(0, 1):.3f}, '__meta__': {{'host': 'node{rng.randint(1, 64)}', "
                f"'run_id': 'run_{rng.randint(1000, 9999)}'}}}}"
            )
        elif r < 0.985:
            # a traceback-ish fragment from a retried data worker
            line = (
                f'  File "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", '
                f"line {rng.randint(1000, 1600)}, in _call_impl\n"
                f"    return forward_call(*args, **kwargs)  # __call__ -> __init__ hooks"
            )
        else:
            # near misses for a `__RESULT__` scanner: prefixes, lower case, RESULTS
            line = rng.choice((
                f"saving checkpoint to ./__results__/ckpt_{step}.pt",
                f"env: __RESULT_DIR__=/scratch/run_{rng.randint(1, 99)} RESULT_FILE=metrics.json",
                f"note: __RESULTS__ will be printed at the end (step {step})",
                "__RESULT_ pending {'acc': null}",
            ))
        b = (line + "\n").encode("ascii")
        out.append(b)
        size += len(b)
    return b"".join(out)


def gen(path: str, mib: int) -> None:
    target = mib * 1024 * 1024
    rng = random.Random(20240601 + mib)
    # A pool of distinct ~1 MiB blocks written in a shuffled order, with a
    # unique progress line between blocks: fast to write, not byte-periodic.
    pool = [_block(rng, 1 << 20, epoch=i % 7, step0=i * 3000) for i in range(16)]
    for b in pool:
        assert b"__RESULT__" not in b
    tmp = path + ".tmp"
    written = 0
    with open(tmp, "wb", buffering=1 << 20) as f:
        n = 0
        while True:
            b = pool[rng.randrange(len(pool))]
            sep = f"checkpoint {n}: saved shard_{n:05d}.safetensors in {rng.uniform(0.5, 9):.2f}s\n".encode()
            if written + len(b) + len(sep) + len(RESULT_LINE) > target:
                break
            f.write(b)
            f.write(sep)
            written += len(b) + len(sep)
            n += 1
        # Pad with whole ordinary lines up to the exact size (the last gap is a
        # ruler line), then the single result line.
        rest = target - written - len(RESULT_LINE)
        tail = _block(rng, rest, epoch=9, step0=45000)[:rest]
        tail = tail[: tail.rfind(b"\n") + 1]
        gap = rest - len(tail)
        if gap > 0:
            tail += b"=" * (gap - 1) + b"\n"
        f.write(tail)
        f.write(RESULT_LINE)
        # Flush to disk now, so that writeback does not run during the timings.
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# --------------------------------------------------------------------------
# Process running
# --------------------------------------------------------------------------

def _spawn(argv, stdin_fd=None, stdout_fd=None):
    acts = []
    if stdin_fd is not None:
        acts.append((os.POSIX_SPAWN_DUP2, stdin_fd, 0))
    if stdout_fd is not None:
        acts.append((os.POSIX_SPAWN_DUP2, stdout_fd, 1))
    return os.posix_spawnp(argv[0], argv, os.environ, file_actions=acts)


def _wait(pid):
    _, status, ru = os.wait4(pid, 0)
    return os.waitstatus_to_exitcode(status), ru.ru_maxrss  # KiB on Linux


def run_once(cmd, gnu_time=None):
    """Run one command spec. Returns (wall_s, rss_kib, exit_code, stdout_bytes).

    cmd: {"argv": [...], "stdin": null|"file"|"pipe", "input": path}
      stdin == "file": the input file is the process's stdin (shell `< FILE`)
      stdin == "pipe": `cat FILE | argv`; wall time covers both, RSS is argv's
    gnu_time: path of GNU time; when given, argv runs under `time -f %M` and
    rss_kib is its figure (the wall time then includes the wrapper: unused).
    """
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as tfile:
        mode = cmd.get("stdin")
        if gnu_time:
            cmd = dict(cmd, argv=[gnu_time, "-f", "%M", "-o", tfile.name, *cmd["argv"]])
        t0 = time.perf_counter()
        if mode == "file":
            fd = os.open(cmd["input"], os.O_RDONLY)
            pid = _spawn(cmd["argv"], stdin_fd=fd, stdout_fd=out.fileno())
            os.close(fd)
            code, rss = _wait(pid)
        elif mode == "pipe":
            r, w = os.pipe()
            cat = _spawn(["cat", cmd["input"]], stdout_fd=w)
            pid = _spawn(cmd["argv"], stdin_fd=r, stdout_fd=out.fileno())
            os.close(r)
            os.close(w)
            code, rss = _wait(pid)
            cat_code, _ = _wait(cat)
            # cat may die of SIGPIPE if the reader stops early; that is fine.
            if cat_code not in (0, -13):
                code = code or 100 + abs(cat_code)
        else:
            devnull = os.open(os.devnull, os.O_RDONLY)
            pid = _spawn(cmd["argv"], stdin_fd=devnull, stdout_fd=out.fileno())
            os.close(devnull)
            code, rss = _wait(pid)
        wall = time.perf_counter() - t0
        if gnu_time:
            rss = int(tfile.read().split()[-1])
        out.seek(0)
        return wall, rss, code, out.read()


def startup_mean(argv, runs):
    """Mean wall time per run of argv with stdin and stdout on /dev/null."""
    devnull_r = os.open(os.devnull, os.O_RDONLY)
    devnull_w = os.open(os.devnull, os.O_WRONLY)
    try:
        for _ in range(min(10, runs)):  # warm-up
            _wait(_spawn(argv, devnull_r, devnull_w))
        t0 = time.perf_counter()
        for _ in range(runs):
            code, _ = _wait(_spawn(argv, devnull_r, devnull_w))
            if code != 0:
                raise SystemExit(f"startup command {argv} exited {code}")
        return (time.perf_counter() - t0) / runs
    finally:
        os.close(devnull_r)
        os.close(devnull_w)


# --------------------------------------------------------------------------
# The benchmark proper
# --------------------------------------------------------------------------

def normalize(kind, raw: bytes):
    """Map a command's stdout to comparable metrics (list of (key, float))."""
    text = raw.decode("utf-8", "replace").strip()
    if kind in ("rg", "drain"):
        return text
    obj = json.loads(text, object_pairs_hook=list)
    return [(k, float(v)) for k, v in obj]


def cell(text):
    """A Markdown table cell: `|` must be escaped even inside code spans."""
    return text.replace("|", "\\|")


def fmt_ms(s):
    return f"{s * 1000:.1f}"


def fmt_mib(kib):
    return f"{kib / 1024:.1f}"


def run(config_path):
    cfg = json.load(open(config_path))
    log = cfg["log"]
    size = os.path.getsize(log)
    reps = cfg["reps"]
    gnu_time = cfg.get("gnu_time") or None
    rss_runs = min(reps, 3)
    cmds = cfg["commands"]  # list of {"name", "kind", "argv", "stdin"}
    for c in cmds:
        c["input"] = log

    # Warm-up (also puts the log in the page cache) and output check.
    results = {c["name"]: [] for c in cmds}
    rss_results = {c["name"]: [] for c in cmds}
    outputs = {}
    for c in cmds:
        wall, rss, code, out = run_once(c)
        if code != 0:
            print(f"ERROR: `{c['name']}` exited {code}; stdout: {out[:500]!r}", file=sys.stderr)
            sys.exit(3)
        outputs[c["name"]] = normalize(c["kind"], out)

    # Correctness: every arx mode must print the reference's metrics.
    ref = [c for c in cmds if c["kind"] == "ref" and not c.get("context")]
    arx = [c for c in cmds if c["kind"] == "arx"]
    expected = outputs[ref[0]["name"]] if ref else [("acc", 0.83), ("loss", 0.41)]
    bad = False
    for c in arx:
        got = outputs[c["name"]]
        if got != expected:
            print(f"MISMATCH: `{c['name']}` printed {got}, reference printed {expected}", file=sys.stderr)
            bad = True
        elif [k for k, _ in got] != [k for k, _ in expected]:
            print(f"MISMATCH (key order): `{c['name']}` {got} vs {expected}", file=sys.stderr)
            bad = True
    for c in cmds:
        if c["kind"] == "ref" and outputs[c["name"]] != expected:
            print(f"MISMATCH: `{c['name']}` printed {outputs[c['name']]}, expected {expected}", file=sys.stderr)
            bad = True
        if c["kind"] == "rg" and "__RESULT__" not in outputs[c["name"]]:
            print(f"MISMATCH: `{c['name']}` did not find the result line", file=sys.stderr)
            bad = True
    if bad:
        print("\n!!! OUTPUTS DIFFER: arx does not agree with the reference. !!!\n", file=sys.stderr)
        sys.exit(4)

    # Timed repetitions, round-robin across commands so drift hits all alike.
    for _ in range(reps):
        for c in cmds:
            wall, rss, code, out = run_once(c)
            if code != 0 or normalize(c["kind"], out) != outputs[c["name"]]:
                print(f"ERROR: `{c['name']}` changed behaviour between runs (exit {code})", file=sys.stderr)
                sys.exit(3)
            results[c["name"]].append(wall)

    # Peak RSS, in separate runs (see the module docstring).
    for _ in range(rss_runs):
        for c in cmds:
            _, rss, code, out = run_once(c, gnu_time)
            if code != 0 or normalize(c["kind"], out) != outputs[c["name"]]:
                print(f"ERROR: `{c['name']}` changed behaviour under GNU time (exit {code})", file=sys.stderr)
                sys.exit(3)
            rss_results[c["name"]].append(rss)
    floor = run_once({"argv": ["/bin/true"]}, gnu_time)[1]
    startup = cfg.get("startup")
    st = {}
    if startup:
        for name, argv in startup["commands"]:
            st[name] = startup_mean(argv, startup["runs"])

    # ---- report --------------------------------------------------------
    med = {n: statistics.median(v) for n, v in results.items()}
    best = {n: min(v) for n, v in results.items()}
    peak = {n: max(v) for n, v in rss_results.items()}
    mib = size / (1 << 20)

    print(f"Input: `{log}` ({mib:.0f} MiB, result line at the very end); "
          f"{reps} timed runs per command after 1 warm-up run; peak RSS is the maximum of "
          f"{rss_runs} further runs under "
          + ("GNU time" if gnu_time else "wait4 (no GNU time: UPPER BOUND, includes the spawning Python)")
          + f", whose floor (`/bin/true`) is {fmt_mib(floor)} MiB.\n")
    print("| command | median wall (ms) | best (ms) | peak RSS (MiB) | throughput (GiB/s, median) |")
    print("|---|---:|---:|---:|---:|")
    for c in cmds:
        n = c["name"]
        gibs = size / med[n] / (1 << 30)
        print(f"| {cell('`' + n + '`')} | {fmt_ms(med[n])} | {fmt_ms(best[n])} | {fmt_mib(peak[n])} | {gibs:.2f} |")
    for n, v in st.items():
        print(f"| {cell('`' + n + '`')} (startup, mean of {startup['runs']}) | {v * 1000:.2f} | | | |")
    print()

    rows = []  # (target, measured, goal, status)

    def add(target, value, goal, ok):
        rows.append((target, value, goal, "PASS" if ok else "FAIL"))

    ref_name = ref[0]["name"] if ref else None
    rg = [c for c in cmds if c["kind"] == "rg" and not c.get("context")]
    rg_name = rg[0]["name"] if rg else None
    # The speed targets compare arx on the log file (as an argument or a
    # redirect) with the reference and ripgrep reading the same file. With
    # a pipe every reader is bound by the pipe itself (see `cat | dd`), so
    # the pipe mode is compared only with the same tools behind the same
    # pipe, in the (info) rows below.
    file_modes = [c for c in arx if c["mode"] != "pipe"]
    for c in file_modes:
        mode = c["mode"]
        if ref_name:
            # Judged on the lower of: median / median, and the reference's
            # best run / arx's median (the reference's timings vary most).
            x = med[ref_name] / med[c["name"]]
            y = best[ref_name] / med[c["name"]]
            add(f"reference / arx ({mode})", f"{x:.1f}x faster ({y:.1f}x vs its best run)", ">= 8x",
                min(x, y) >= 8)
        else:
            rows.append((f"reference / arx ({mode})", "n/a", ">= 8x", "SKIP (reference not installed)"))
    for c in file_modes:
        mode = c["mode"]
        if rg_name:
            # Judged on the higher of: median / median, and arx's median /
            # rg's best run.
            x = med[c["name"]] / med[rg_name]
            y = med[c["name"]] / best[rg_name]
            add(f"arx ({mode}) / rg", f"{x:.2f}x ({y:.2f}x vs rg's best run)", "<= 2x", max(x, y) <= 2)
        else:
            rows.append((f"arx ({mode}) / rg", "n/a", "<= 2x", "SKIP (ripgrep not available)"))
    for c in arx:
        ok = peak[c["name"]] < 16 * 1024
        if ok or gnu_time:
            add(f"peak RSS arx ({c['mode']})", f"{fmt_mib(peak[c['name']])} MiB", "< 16 MiB", ok)
        else:  # an upper bound above the goal proves nothing
            rows.append((f"peak RSS arx ({c['mode']})", f"<= {fmt_mib(peak[c['name']])} MiB", "< 16 MiB",
                         "INCONCLUSIVE (no GNU time)"))
    # The pipe mode against the file-based goals, shown but not judged.
    for c in [c for c in arx if c["mode"] == "pipe"]:
        if ref_name:
            x = med[ref_name] / med[c["name"]]
            rows.append(("(info) reference on the file / arx (pipe)", f"{x:.1f}x faster", "(>= 8x for files)", "info"))
        if rg_name:
            x = med[c["name"]] / med[rg_name]
            rows.append(("(info) arx (pipe) / rg on the file", f"{x:.2f}x", "(<= 2x for files)", "info"))
    # Context commands: each is compared with one arx mode ("vs"), as
    # arx / context (a limit) or context / arx (another reference).
    arx_by_mode = {c["mode"]: c["name"] for c in arx}
    for cx in [c for c in cmds if c.get("context")]:
        a = arx_by_mode[cx["vs"]]
        if cx["ratio"] == "arx/ctx":
            label, x = f"arx ({cx['vs']}) / `{cx['name']}`", med[a] / med[cx["name"]]
        else:
            label, x = f"`{cx['name']}` / arx ({cx['vs']})", med[cx["name"]] / med[a]
        rows.append((f"(info) {label}", f"{x:.2f}x", "", "info"))
    if "arx_startup" in cfg:
        v = st[cfg["arx_startup"]] * 1000
        add(f"startup `{cfg['arx_startup']}`", f"{v:.2f} ms", "< 5 ms", v < 5)

    print("| target | measured | goal | result |")
    print("|---|---:|---:|---|")
    for r in rows:
        print("| " + " | ".join(cell(x) for x in r) + " |")
    print()
    against = "the reference" if ref else "the expected metrics (reference not installed)"
    print(f"Output check: arx (file, redirect, pipe) printed the same metrics as {against}: "
          + json.dumps(dict(expected)))

    # Raw figures, for a closer look.
    raw_path = cfg["raw_file"]
    json.dump({"wall_s": results, "rss_kib": rss_results, "startup_s": st}, open(raw_path, "w"), indent=1)
    print(f"\nRaw timings: `{raw_path}`.")

    failed = [r for r in rows if r[3] == "FAIL"]
    json.dump({"failed": len(failed)}, open(cfg["status_file"], "w"))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "gen":
        gen(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) >= 2 and sys.argv[1] == "run":
        run(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
