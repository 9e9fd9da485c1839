"""A small real experiment for bench/paired.sh: scikit-learn's MLP on the
digits data. The train/validation split and the network's initialisation
both follow ARX_SEED (a fresh seed per run when it is unset); the settings
come from params.json. Prints the validation log-loss as arx's result line.

    python paired_digits.py            # one run
    python paired_digits.py --seeds 20 # the mean over seeds 0..19 (no result line)
"""

import json
import os
import sys
import warnings

import numpy as np
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler


def val_loss(params, seed):
    x, y = load_digits(return_X_y=True)
    x_tr, x_va, y_tr, y_va = train_test_split(
        x, y, test_size=0.3, random_state=seed, stratify=y
    )
    scaler = StandardScaler().fit(x_tr)
    model = MLPClassifier(
        hidden_layer_sizes=(int(params["width"]),),
        alpha=float(params["alpha"]),
        learning_rate_init=float(params["lr"]),
        max_iter=int(params["max_iter"]),
        random_state=seed,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(scaler.transform(x_tr), y_tr)
    return log_loss(y_va, model.predict_proba(scaler.transform(x_va)))


def main():
    with open("params.json") as f:
        params = json.load(f)
    if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
        n = int(sys.argv[2])
        # Seeds far from the ones arx hands out.
        losses = [val_loss(params, 10_000 + k) for k in range(n)]
        print(json.dumps({"mean": float(np.mean(losses)), "sd": float(np.std(losses, ddof=1))}))
        return
    seed = os.environ.get("ARX_SEED")
    seed = int(seed) if seed else int.from_bytes(os.urandom(4), "little") >> 1
    print("__RESULT__ " + json.dumps({"val_loss": val_loss(params, seed)}))


if __name__ == "__main__":
    main()
