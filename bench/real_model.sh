#!/usr/bin/env bash
# A real model through the CLI, against the truth: scikit-learn's MLP
# regressor on the diabetes data (bench/real_model/train.py, its split,
# initialisation and batch order following ARX_SEED), 14 edits tried in a
# fixed order (learning rate, weight decay, width, batch size, activation,
# iterations; two no-op edits; some harmful), in three arms in one run:
#   paired    `arx try` with `[objective] seeds = "paired"`
#   unpaired  `arx try` with the arx.toml `arx init` writes (fresh seeds)
#   naive     one run a candidate, kept if lower than the best's one run
# Each loop is a fresh git repository from the same start. The truth of
# every setting reached is its mean over 30 seeds arx never hands out,
# cached in the work directory (TRUTH_SEEDS and the cache survive reruns).
# Prints, per arm: runs, false keeps, true gains discarded, true step gains
# kept and discarded, true gain per 100 runs, each loop's true gain; and
# PASS/FAIL against the target (arx's true gain per 100 runs at
# least the naive loop's, and no arx loop ending worse than its start);
# then the ratio's noise (a bootstrap over loops of each arx arm's gain
# per 100 runs minus the naive loop's, and each loop's own), each edit
# on the start as paired seeds see it (rho, the spread of a difference,
# how the gains move together seed by seed), where each lost gain ended
# (screen, futility, last look; paired or not), each paired try's own
# spread against the segment's pooled one, and where each arx arm
# spends its runs, edit by edit; and what each lost gain is put down to
# (a try's own spread far below the pool, worse at the segment's seeds,
# decided unpaired, or the calibrated bounds).
#
# Every run is a real training of the model: arx runs `python train.py`
# for each run as a user's loop would, and that run sends its settings and
# seed to a long-lived trainer (`train.py --serve`, one a loop, scikit-
# learn imported once), which trains and returns the result. The bench
# first checks that the trainer and a run of its own give the same
# result bit for bit; TRAINER=0 makes every run train in its own process.
#
# Usage: bench/real_model.sh      (LOOPS=20 JOBS=3, a release arx: 10 minutes on 2 busy shared cores)
#   PYTHON=path          a Python with numpy and scikit-learn; otherwise a
#                        venv is made (or reused) in .venv at the repository root
#   LOOPS=N              loops per arm (default 5)
#   TRUTH_SEEDS=N        seeds of the truth (default 30)
#   EDITS=N              the first N edits only (default all 14)
#   WORK=DIR             where the loops' repositories and the truth cache
#                        go (default target/bench-real-model); kept afterwards
#   ARX=path             the arx binary (default: target/debug/arx, built)
#   JOBS=N               loops (and truth runs) at once (default 2)
#   ARMS=LIST            the arx arms, comma-separated (default
#                        paired,unpaired; the naive loop always runs). Two
#                        runs of one arm each in two WORK directories,
#                        their loops moved into one, read back with
#                        REPORT_ONLY=1 as one run
#   TRAINER=0            no trainer: every run imports scikit-learn (1-2 s)
#   REPORT_ONLY=1        run no loop: read back the arx loops in WORK that
#                        tried every edit, and report them
# Needs git, python3 (3.9+) and, without PYTHON, network access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)

command -v git > /dev/null || { echo "bench: git is needed" >&2; exit 2; }

if [[ -z "${PYTHON:-}" ]]; then
  venv=$here/.venv
  if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import sklearn, numpy' 2> /dev/null; then
    command -v python3 > /dev/null || { echo "bench: python3 is needed" >&2; exit 2; }
    echo "bench: installing numpy and scikit-learn into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet numpy scikit-learn
  fi
  PYTHON=$venv/bin/python
fi
"$PYTHON" -c 'import sklearn, numpy' || { echo "bench: $PYTHON has no scikit-learn" >&2; exit 2; }

if [[ -z "${ARX:-}" && -z "${REPORT_ONLY:-}" ]]; then
  cargo build --quiet --bin arx
  ARX=$here/target/debug/arx
fi
[[ -n "${ARX:-}" ]] && ARX=$(realpath "$ARX")

work=${WORK:-$here/target/bench-real-model}
# One thread a run: a run is small, and threads only fight over 2 cores.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
mkdir -p "$work"
started=$(date +%s)
"$PYTHON" bench/real_model/loops.py --arx "${ARX:-arx}" --python "$(realpath -s "$PYTHON")" \
  --work "$work/loops" --cache "$work/truth.json" \
  --loops "${LOOPS:-5}" --truth-seeds "${TRUTH_SEEDS:-30}" --edits "${EDITS:-14}" --jobs "${JOBS:-2}" \
  --arms "${ARMS:-paired,unpaired}" \
  ${REPORT_ONLY:+--from-records} $([[ "${TRAINER:-1}" == 0 ]] && echo --no-trainer)
echo "bench: done in $(($(date +%s) - started)) s; the loops' repositories and records.jsonl are in $work/loops" >&2
