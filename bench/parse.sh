#!/usr/bin/env bash
# Benchmark `arx parse` on a large training log against the Python reference
# (autoresearch-core's parse_metrics_line) and against ripgrep as the scanning
# limit; also measures arx's startup time. Prints a Markdown report on stdout.
#
# Usage: bench/parse.sh [--quick] [--help]
#
#   --quick        smoke run: 32 MiB log, 3 timed runs, 50 startup runs
#
# Environment (all optional):
#   ARX_BIN            arx binary to measure (default: build with cargo --profile dist)
#   BENCH_MIB          log size in MiB (default 256, 32 with --quick)
#   BENCH_REPS         timed runs per command after one warm-up (default 5, 3 with --quick)
#   BENCH_STARTUP_RUNS runs of `arx classify < /dev/null` (default 200, 50 with --quick)
#   BENCH_DIR          cache for logs, tools and the last report (default target/bench)
#   BENCH_VENV         virtualenv for the reference (default target/bench-venv)
#   BENCH_PYTHON       python used to create the venv and run the harness (default python3)
#   BENCH_STRICT=1     exit 2 when a performance target is missed (default: report only)
#
# Exit status: 0 report printed; 1 setup error; 3 a command failed;
#              4 arx's output differs from the reference; 2 target missed (BENCH_STRICT=1).
#
# Everything it creates lives under target/ (gitignored). It installs ripgrep
# (apt-get, else `cargo install` into $BENCH_DIR/tools) only when rg is missing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HARNESS="$ROOT/bench/parse_harness.py"
REF_PKG="autoresearch-core==0.4.4"

QUICK=0
for arg in "$@"; do
    case "$arg" in
        --quick) QUICK=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "parse.sh: unknown argument: $arg (try --help)" >&2; exit 1 ;;
    esac
done

if [[ $QUICK == 1 ]]; then
    MIB="${BENCH_MIB:-32}"; REPS="${BENCH_REPS:-3}"; STARTUP_RUNS="${BENCH_STARTUP_RUNS:-50}"
else
    MIB="${BENCH_MIB:-256}"; REPS="${BENCH_REPS:-5}"; STARTUP_RUNS="${BENCH_STARTUP_RUNS:-200}"
fi
BENCH_DIR="${BENCH_DIR:-$ROOT/target/bench}"
VENV="${BENCH_VENV:-$ROOT/target/bench-venv}"
PY="${BENCH_PYTHON:-python3}"
mkdir -p "$BENCH_DIR"
# One run at a time: two runs would skew each other's timings (and share files).
if command -v flock >/dev/null; then
    exec 9>"$BENCH_DIR/parse.lock"
    if ! flock -n 9; then
        printf '[bench] another bench/parse.sh run holds %s; waiting\n' "$BENCH_DIR/parse.lock" >&2
        flock 9
    fi
fi
SETUP_LOG="$BENCH_DIR/parse-setup.log"   # noisy output of pip / apt / cargo goes here
: > "$SETUP_LOG"

note() { printf '[bench] %s\n' "$*" >&2; }
die()  { printf '[bench] error: %s\n' "$*" >&2; exit 1; }

# Run a command as root: directly, or through passwordless sudo. Fails otherwise.
as_root() {
    if [[ $(id -u) == 0 ]]; then "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo -n "$@"
    else return 1
    fi
}

# apt-get install, quietly; runs `apt-get update` once if the first try fails.
APT_UPDATED=0
apt_install() {
    command -v apt-get >/dev/null || return 1
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get install -y -qq "$@" >>"$SETUP_LOG" 2>&1 && return 0
    [[ $APT_UPDATED == 1 ]] && return 1
    APT_UPDATED=1
    as_root apt-get update -qq >>"$SETUP_LOG" 2>&1 || return 1
    as_root apt-get install -y -qq "$@" >>"$SETUP_LOG" 2>&1
}

# --- 0. python3: runs the harness (and hosts the reference venv) -------------
if ! command -v "$PY" >/dev/null; then
    note "$PY not found; installing python3 with apt-get"
    apt_install python3 python3-venv || die "python3 is required (see $SETUP_LOG)"
fi

# --- 1. the arx binary ------------------------------------------------------
if [[ -n "${ARX_BIN:-}" ]]; then
    ARX="$ARX_BIN"
else
    note "building arx (cargo build --profile dist)"
    (cd "$ROOT" && cargo build --profile dist --quiet) || die "cargo build --profile dist failed"
    ARX="${CARGO_TARGET_DIR:-$ROOT/target}/dist/arx"
fi
[[ -x "$ARX" ]] || die "arx binary not found or not executable: $ARX"
ARX="$(cd "$(dirname "$ARX")" && pwd)/$(basename "$ARX")"

# --- 2. the reference implementation in a virtualenv ------------------------
# Reused when it already holds the pinned version; a failed install only skips
# the reference column.
REF_PY=""
ref_ok() {
    "$VENV/bin/python" -c 'import importlib.metadata as m, sys, autoresearch_core.contract
sys.exit(m.version("autoresearch-core") != "0.4.4")' 2>/dev/null
}
if [[ -x "$VENV/bin/python" ]] && ref_ok; then
    REF_PY="$VENV/bin/python"
else
    note "installing $REF_PKG into $VENV"
    if ! "$PY" -m venv "$VENV" >>"$SETUP_LOG" 2>&1; then
        # Debian splits ensurepip out of python3; try to add it once.
        apt_install python3-venv || true
        "$PY" -m venv "$VENV" >>"$SETUP_LOG" 2>&1 || true
    fi
    if [[ -x "$VENV/bin/python" ]] &&
       "$VENV/bin/python" -m pip install -q --disable-pip-version-check "$REF_PKG" >>"$SETUP_LOG" 2>&1 &&
       ref_ok; then
        REF_PY="$VENV/bin/python"
    else
        note "WARNING: could not install $REF_PKG (see $SETUP_LOG); the reference column is skipped"
    fi
fi

# --- 3. ripgrep, the scanning limit -----------------------------------------
RG=""
TOOLS="$BENCH_DIR/tools"
if command -v rg >/dev/null; then
    RG="$(command -v rg)"
elif [[ -x "$TOOLS/bin/rg" ]]; then
    RG="$TOOLS/bin/rg"
else
    note "ripgrep not found; trying apt-get install ripgrep"
    if apt_install ripgrep && command -v rg >/dev/null; then
        RG="$(command -v rg)"
    else
        note "apt-get failed; trying cargo install ripgrep --locked (a few minutes)"
        if cargo install ripgrep --locked --quiet --root "$TOOLS" >>"$SETUP_LOG" 2>&1; then
            RG="$TOOLS/bin/rg"
        else
            note "WARNING: could not install ripgrep (see $SETUP_LOG); the rg column is skipped"
        fi
    fi
fi

# --- 4. GNU time, for peak RSS ----------------------------------------------
GNU_TIME=""
gnu_time_ok() { [[ -x /usr/bin/time ]] && /usr/bin/time -f '%M' -o /dev/null true 2>/dev/null; }
if ! gnu_time_ok; then
    note "GNU time not found; trying apt-get install time"
    apt_install time || true
fi
if gnu_time_ok; then
    GNU_TIME=/usr/bin/time
else
    note "WARNING: no GNU time; peak RSS falls back to wait4 (an upper bound)"
fi

# --- 5. the log, generated once per size ------------------------------------
LOG="$BENCH_DIR/train-v1-${MIB}MiB.log"
if [[ ! -f "$LOG" || $(stat -c %s "$LOG") != $((MIB * 1024 * 1024)) ]]; then
    note "generating $LOG"
    "$PY" "$HARNESS" gen "$LOG" "$MIB"
fi

# --- 6. measure -------------------------------------------------------------
# Commands are described as JSON for the harness; `stdin` is null (file
# argument), "file" (`< LOG`) or "pipe" (`cat LOG |`). Commands marked
# "context" are not targets: they show the limits each arx mode runs into
# ("vs" names the arx mode they are compared with in an info row).
CONFIG="$BENCH_DIR/parse-config.json"
STATUS="$BENCH_DIR/parse-status.json"
# The reference reads the whole input into one str, as its callers do; `-` = stdin.
REF_CODE='import sys, json; from autoresearch_core.contract import parse_metrics_line
if sys.argv[1] == "-":
    sys.stdin.reconfigure(encoding="utf-8", errors="replace"); text = sys.stdin.read()
else:
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
print(json.dumps(parse_metrics_line(text)))'
"$PY" - "$CONFIG" "$ARX" "$REF_PY" "$RG" "$LOG" "$REPS" "$STARTUP_RUNS" "$STATUS" "$REF_CODE" "$GNU_TIME" <<'PY'
import json, sys
config, arx, ref_py, rg, log, reps, startup_runs, status, ref_code, gnu_time = sys.argv[1:]
cmds = [
    {"name": "arx parse LOG", "kind": "arx", "mode": "file", "argv": [arx, "parse", log], "stdin": None},
    {"name": "arx parse < LOG", "kind": "arx", "mode": "redirect", "argv": [arx, "parse"], "stdin": "file"},
    {"name": "cat LOG | arx parse", "kind": "arx", "mode": "pipe", "argv": [arx, "parse"], "stdin": "pipe"},
]
if rg:
    cmds.append({"name": "rg -m1 -F __RESULT__ LOG", "kind": "rg", "argv": [rg, "-m1", "-F", "__RESULT__", log], "stdin": None})
    # rg maps the file into memory; with read(2), as arx does, it is the read-based limit.
    cmds.append({"name": "rg --no-mmap -m1 -F __RESULT__ LOG", "kind": "rg", "context": True,
                 "vs": "file", "ratio": "arx/ctx",
                 "argv": [rg, "--no-mmap", "-m1", "-F", "__RESULT__", log], "stdin": None})
    # The same scan through a pipe: the limit for `cat LOG | arx parse`.
    cmds.append({"name": "cat LOG | rg -m1 -F __RESULT__", "kind": "rg", "context": True,
                 "vs": "pipe", "ratio": "arx/ctx",
                 "argv": [rg, "-m1", "-F", "__RESULT__"], "stdin": "pipe"})
# Moving the log through a pipe at all, with no scanning: the pipe-mode floor.
cmds.append({"name": "cat LOG | dd of=/dev/null bs=1M", "kind": "drain", "context": True,
             "vs": "pipe", "ratio": "arx/ctx",
             "argv": ["dd", "of=/dev/null", "bs=1M", "status=none"], "stdin": "pipe"})
if ref_py:
    cmds.append({"name": "reference: python read() + parse_metrics_line", "kind": "ref",
                 "argv": [ref_py, "-c", ref_code, log], "stdin": None})
    # The reference fed the same way as the pipe mode (sys.stdin.read()).
    cmds.append({"name": "cat LOG | reference (stdin)", "kind": "ref", "context": True,
                 "vs": "pipe", "ratio": "ctx/arx",
                 "argv": [ref_py, "-c", ref_code, "-"], "stdin": "pipe"})
json.dump({
    "log": log, "reps": int(reps), "gnu_time": gnu_time, "commands": cmds, "status_file": status,
    "raw_file": status.replace("parse-status.json", "parse-raw.json"),
    "startup": {"runs": int(startup_runs),
                "commands": [["arx classify < /dev/null", [arx, "classify"]],
                             ["/bin/true (process spawn baseline)", ["/bin/true"]]]},
    "arx_startup": "arx classify < /dev/null",
}, open(config, "w"), indent=1)
PY

# The pipe cases need both cores (cat and the reader); anything else running
# on the machine shows up there first, so the load is recorded in the report.
LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$LOAD_BEFORE" 'BEGIN { exit !(l > 0.5) }'; then
    note "WARNING: load average is $LOAD_BEFORE; other work on the machine will skew the figures"
fi
note "measuring (${MIB} MiB, ${REPS} runs each, ${STARTUP_RUNS} startup runs)"
REPORT="$BENCH_DIR/parse-report.md"
{
    echo "## arx parse benchmark"
    echo
    echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -sr)"
    echo "Tools: $("$ARX" --version 2>/dev/null || echo arx)," \
         "${RG:+$("$RG" --version 2>/dev/null | sed -n 1p),}" \
         "${REF_PY:+$("$REF_PY" --version) with $REF_PKG}"
    echo
} > "$REPORT"
set +e
"$PY" "$HARNESS" run "$CONFIG" >> "$REPORT"
rc=$?
set -e
echo "Load average (1 min) before / after the measurements: $LOAD_BEFORE / $(cut -d' ' -f1 /proc/loadavg)." >> "$REPORT"
if [[ $rc != 0 ]]; then
    cat "$REPORT"
    note "benchmark failed (exit $rc)"
    exit "$rc"
fi
cat "$REPORT"

failed=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["failed"])' "$STATUS")
if [[ $failed != 0 ]]; then
    note "$failed target(s) missed"
    [[ "${BENCH_STRICT:-0}" == 1 ]] && exit 2
fi
note "report saved to $REPORT"
