"""The experiment of bench/real_model.sh: scikit-learn's MLP regressor on
the diabetes data (442 patients, 10 features), its settings read from
params.json. The train/validation split and the network's initialisation
and batch order follow ARX_SEED (a fresh seed per run when it is unset).
Prints the validation mean squared error, in units of the training
target's variance, as arx's result line (lower is better).

    python train.py          # one run, as arx runs it
"""

import json
import os
import warnings

# The keys of params.json the model reads; any other key (a logging
# setting, say) does not touch the result.
MODEL_KEYS = ("width", "lr", "alpha", "batch_size", "activation", "max_iter")


def val_mse(params, seed):
    """The validation error of the settings `params` at seed `seed`."""
    from sklearn.datasets import load_diabetes
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.model_selection import train_test_split
    from sklearn.neural_network import MLPRegressor
    from sklearn.preprocessing import StandardScaler

    x, y = load_diabetes(return_X_y=True)
    x_tr, x_va, y_tr, y_va = train_test_split(x, y, test_size=0.3, random_state=seed)
    scaler = StandardScaler().fit(x_tr)
    mu, sd = y_tr.mean(), y_tr.std()
    model = MLPRegressor(
        hidden_layer_sizes=(int(params["width"]),),
        alpha=float(params["alpha"]),
        learning_rate_init=float(params["lr"]),
        batch_size=int(params["batch_size"]),
        activation=str(params["activation"]),
        max_iter=int(params["max_iter"]),
        random_state=seed,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(scaler.transform(x_tr), (y_tr - mu) / sd)
    pred = model.predict(scaler.transform(x_va)) * sd + mu
    return float(((pred - y_va) ** 2).mean() / sd**2)


def main():
    with open("params.json") as f:
        params = json.load(f)
    seed = os.environ.get("ARX_SEED")
    seed = int(seed) if seed else int.from_bytes(os.urandom(4), "little") >> 1
    print("__RESULT__ " + json.dumps({"val_mse": val_mse(params, seed)}))


if __name__ == "__main__":
    main()
