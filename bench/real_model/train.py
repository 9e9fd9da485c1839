"""The experiment of bench/real_model.sh: scikit-learn's MLP regressor on
the diabetes data (442 patients, 10 features), its settings read from
params.json. The train/validation split and the network's initialisation
and batch order follow ARX_SEED (a fresh seed per run when it is unset).
Prints the validation mean squared error, in units of the training
target's variance, as arx's result line (lower is better).

    python train.py                  # one run, as arx runs it
    python train.py --serve SOCKET   # a trainer that keeps scikit-learn loaded

A run is about 0.1 s of training after 1-2 s of importing scikit-learn.
When BENCH_TRAIN_SOCKET names a trainer's socket, a run sends its
settings and seed there and prints what the trainer's training returns:
the same training, in a process that imported scikit-learn once (the
bench checks the two give bit-identical results before its loops start).
Without it, a run trains here.
"""

import json
import os
import socket
import sys
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


def _recv_line(conn):
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def serve(path):
    """Train, one request at a time, the runs sent to the socket `path`:
    a line {"params": ..., "seed": ...} in, a line {"val_mse": ...} (or
    {"error": ...}) out. Ends when the process that started it ends."""
    val_mse(
        {"width": 2, "lr": 0.001, "alpha": 0.0001, "batch_size": 200,
         "activation": "relu", "max_iter": 1},
        0,
    )  # imports scikit-learn before the first request
    parent = os.getppid()
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(8)
    srv.settimeout(2.0)
    print("ready", flush=True)
    while os.getppid() == parent:
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
        with conn:
            conn.settimeout(None)
            try:
                req = json.loads(_recv_line(conn))
                reply = {"val_mse": val_mse(req["params"], int(req["seed"]))}
            except Exception as e:  # noqa: BLE001  (told to the run, which fails)
                reply = {"error": f"{type(e).__name__}: {e}"}
            conn.sendall((json.dumps(reply) + "\n").encode())


def remote_val_mse(path, params, seed):
    """`val_mse(params, seed)` trained by the trainer at the socket `path`."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        conn.sendall((json.dumps({"params": params, "seed": seed}) + "\n").encode())
        reply = json.loads(_recv_line(conn))
    if "error" in reply:
        raise RuntimeError("the trainer: " + reply["error"])
    return reply["val_mse"]


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
        return
    with open("params.json") as f:
        params = json.load(f)
    seed = os.environ.get("ARX_SEED")
    seed = int(seed) if seed else int.from_bytes(os.urandom(4), "little") >> 1
    trainer = os.environ.get("BENCH_TRAIN_SOCKET")
    value = remote_val_mse(trainer, params, seed) if trainer else val_mse(params, seed)
    print("__RESULT__ " + json.dumps({"val_mse": value}))


if __name__ == "__main__":
    main()
