"""The reference side of bench/next.sh: `arx next`'s cold path written on the
reference packages. It folds a run journal into the precision hierarchy
(lrs-agents 0.2.1 `HierarchicalPrecision`), the per-candidate success
counts and the plateau tracks (autoresearch-core 0.4.4 `detect_plateau`),
then scores every candidate with lrs-agents' expected free energy and takes
the lowest. It applies arx's documented observation rules (README, "The
engines") so the two folds can be compared value for value.

It does less than `arx next`: no policy-cache Q-values and no weekday
counts, so its time is a lower bound for a Python host.

Usage: python next_reference.py JOURNAL CANDIDATES_TOML   (prints JSON)
"""

import json
import sys
import tomllib
from types import SimpleNamespace

from autoresearch_core import detect_plateau
from lrs.core.free_energy import calculate_expected_free_energy
from lrs.core.precision import HierarchicalPrecision

WINDOW = 3
ALL = "*"


def posterior_mean(c):
    """Success estimate of counts [successes, failures, runs], Beta(1, 1) prior."""
    return (1 + c[0]) / (2 + c[0] + c[1]) if c else 0.5


def main(journal_path, candidates_path):
    precision = HierarchicalPrecision()
    counts = {}  # key -> [successes, failures, runs]
    tracks = {}  # candidate -> (recent verdicts, on a plateau)
    runs = 0
    with open(journal_path, "rb") as journal:
        for line in journal:
            if not line.endswith(b"\n"):
                break  # a torn last line is not read
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if not isinstance(rec, dict):
                continue
            verdict_obj = rec.get("verdict")
            verdict = verdict_obj.get("verdict") if isinstance(verdict_obj, dict) else None
            candidate = rec.get("candidate")
            clean = (
                (rec.get("exit_code", 0) == 0 or rec.get("stopped_on_result", False))
                and not rec.get("timed_out", False)
                and not rec.get("interrupted", False)
                and verdict != "inconclusive"
            )
            predicted = posterior_mean(counts.get(candidate if candidate is not None else ALL))

            began = False
            if candidate is not None and verdict is not None:
                recent, was = tracks.get(candidate, ([], False))
                recent.append(verdict)
                if len(recent) > WINDOW:
                    del recent[0]
                now = detect_plateau(recent, WINDOW)
                began = now and not was
                tracks[candidate] = (recent, now)

            precision.update("execution", 0.0 if clean else 1.0)
            if verdict in ("supported", "refuted"):
                outcome = 1.0 if verdict == "supported" else 0.0
                precision.update("planning", abs(outcome - predicted))
            if began:
                precision.update("abstract", 1.0)

            keys = [ALL]
            if candidate is not None and candidate != ALL:
                keys.append(candidate)
            for tag in rec.get("tags") or []:
                if tag not in keys:
                    keys.append(tag)
            for key in keys:
                c = counts.setdefault(key, [0, 0, 0])
                c[2] += 1
                if verdict == "supported":
                    c[0] += 1
                elif verdict == "refuted":
                    c[1] += 1
            runs += 1

    with open(candidates_path, "rb") as f:
        names = [c["name"] for c in tomllib.load(f)["candidate"]]
    levels = {}
    for level in ("execution", "planning", "abstract"):
        p = precision.get_level(level)
        levels[level] = {"alpha": p.alpha, "beta": p.beta}
    planning = levels["planning"]["alpha"] / (levels["planning"]["alpha"] + levels["planning"]["beta"])
    scores = {}
    for name in names:
        tool = SimpleNamespace(name=name, success_rate=posterior_mean(counts.get(name)))
        scores[name] = calculate_expected_free_energy([tool], precision=planning)
    chosen = min(names, key=lambda n: scores[n])
    print(json.dumps({
        "runs": runs,
        "levels": levels,
        "success": {n: posterior_mean(counts.get(n)) for n in names},
        "lrs_greedy": chosen,
    }))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
