"""A learned value: the chance that a seat wins from a position, as an average of small
networks over :class:`~.features.Features`, in plain NumPy (playing needs nothing else).

Weights are data, one ``.npz`` file per rule set and player count (NumPy's archive, read
with ``allow_pickle=False``: nothing in it runs). It holds, per network ``k``, its layers'
matrices ``net{k}.w{i}`` and offsets ``net{k}.b{i}`` (ReLU between layers, a logistic
output), and ``meta``: JSON text with ``format``, the rule set's ``ruleset`` name and
``digest`` (:attr:`~machikoro.rules.ruleset.RuleSet.digest`), ``players``, ``features``
(their count), ``sha256`` of the arrays, and how they were made (``seed``, ``games``,
``command``, ``strength``...) and, where measured, ``calibration`` (:meth:`ValueNet.chance`).
Weights are used only with the rule set and player count
they were trained for: any other, or a file whose arrays do not match their ``sha256``,
is refused with a :class:`~machikoro.errors.WeightsError` that says what to do.

Where they are found (:func:`find_weights`): the bundled ``weights/`` folder of the package,
then the user's data folder (``machikoro train`` writes there), by digest and players.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import zipfile
from pathlib import Path

import numpy as np

from ..errors import WeightsError
from ..rules.ruleset import RuleSet

FORMAT = 1
"""The weights file format this code reads and writes."""


def _arrays_digest(arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(name.encode() + str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    return h.hexdigest()


class ValueNet:
    """An average of networks: ``layers`` is a list per network of ``(w, b)`` pairs
    (float32 matrices ``inputs x outputs`` and vectors); ``meta`` the file's record."""

    def __init__(self, layers: list[list[tuple[np.ndarray, np.ndarray]]], meta: dict):
        self.layers = layers
        self.meta = meta
        self.features = int(layers[0][0][0].shape[0])
        self._fused = _fused(layers)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The chance to win of each row of ``x`` (``rows x features``): a vector of
        ``rows`` values in 0-1, the average of the networks' outputs. From
        :data:`THREADED_ROWS` rows on, the products run on one BLAS thread
        (:func:`one_blas_thread`)."""
        if x.shape[0] < THREADED_ROWS:
            return self._values(x)
        with one_blas_thread():
            return self._values(x)

    def _values(self, x: np.ndarray) -> np.ndarray:
        if self._fused:  # every network at once: one product per layer
            (w, b), later = self._fused[0], self._fused[1:]
            h = x @ w + b  # (rows, nets * width): the first layers side by side
            if later:
                np.maximum(h, 0.0, out=h)
                h = h.reshape(len(x), len(self.layers), -1).transpose(1, 0, 2)
                for i, (w, b) in enumerate(later):  # (nets, rows, width): per network
                    h = np.matmul(h, w) + b
                    if i < len(later) - 1:
                        np.maximum(h, 0.0, out=h)
                h = h[:, :, 0].T
            return (1.0 / (1.0 + np.exp(-np.clip(h, -30, 30)))).mean(axis=1)
        total = np.zeros(x.shape[0], dtype=np.float64)
        for net in self.layers:
            h = x
            for i, (w, b) in enumerate(net):
                h = h @ w + b
                if i < len(net) - 1:
                    np.maximum(h, 0.0, out=h)
            total += 1.0 / (1.0 + np.exp(-np.clip(h[:, 0], -30, 30)))
        return total / len(self.layers)

    def chance(self, x: np.ndarray) -> np.ndarray:
        """The chance to win of each row of ``x`` as a probability (float64, 0-1): the
        value (:meth:`__call__`) through :meth:`calibrate`."""
        return self.calibrate(self(x))

    def calibrate(self, values) -> np.ndarray:
        """``values`` of this value (0-1) as probabilities (float64): mapped by the file's
        ``calibration``, ``{"scale": a, "shift": b}``: ``1 / (1 + exp(-(a * logit(value)
        + b)))``, fitted to the outcomes of self-play between ``expert`` seats
        (:func:`machikoro.lab.training.calibration`); the values themselves where the file
        has none. The map rises with the value, so the expert's choices (its highest
        value) are the same either way; where the value is read as a chance (the
        advisor's playouts cut short), it is this one."""
        values = np.asarray(values, dtype=np.float64)
        found = self.meta.get("calibration")
        if not found:
            return values
        v = np.clip(values, 1e-6, 1 - 1e-6)
        z = found["scale"] * np.log(v / (1 - v)) + found["shift"]
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def arrays(self) -> dict[str, np.ndarray]:
        """The networks as named arrays (the file's)."""
        out = {}
        for k, net in enumerate(self.layers):
            for i, (w, b) in enumerate(net):
                out[f"net{k}.w{i}"] = np.asarray(w, dtype=np.float32)
                out[f"net{k}.b{i}"] = np.asarray(b, dtype=np.float32)
        return out

    def save(self, path: str | Path) -> None:
        """Write the file whole (beside it, then renamed over it: an interrupted save
        leaves the previous weights as they were). Raises OSError."""
        arrays = self.arrays()
        meta = dict(self.meta, format=FORMAT, sha256=_arrays_digest(arrays))
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        with open(part, "wb") as out:
            np.savez(out, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
        os.replace(part, path)


_BLAS: list = []  # the process's BLAS thread pools (threadpoolctl) and the modules then
THREADED_ROWS = 16
"""Rows of a value's input from which its products are run on one BLAS thread: OpenBLAS
shares them among threads from about 20 rows on (16 rows took 45-85 us, 20 rows up to
0.7-1.5 ms on two busy cores); on fewer rows there is nothing to save."""


def one_blas_thread():
    """A context (``with``) in which NumPy's BLAS runs its products on one thread, as it
    was outside it afterwards. The value's products are small (tens of rows, a few hundred
    columns): on several threads each waits for the others to wake, and where the cores
    are busy (a lab's workers, another run) that wait grew the expert's CPU per decision
    on Harbor from 1.2 ms to 3.7 ms (measured in the same games, another run on the
    other core; OpenBLAS shares a product among threads from about 20 rows on, which a
    build decision on Harbor often has): :data:`THREADED_ROWS`."""
    loaded = len(sys.modules)  # (a module imported since, SciPy's, may bring its own BLAS)
    if not _BLAS or _BLAS[1] != loaded:
        from threadpoolctl import ThreadpoolController

        _BLAS[:] = [ThreadpoolController(), len(sys.modules)]
    return _BLAS[0].limit(limits=1, user_api="blas")


def _fused(layers: list) -> list | None:
    """The networks side by side, when they have the same shape: the first layers'
    matrices next to each other (one product for all), each later layer's stacked
    (``nets x inputs x outputs``, one batched product), with their offsets; None
    otherwise. (A block-diagonal matrix for the later layers did five times the work.)"""
    shapes = {tuple(w.shape for w, _ in net) for net in layers}
    if len(shapes) != 1:
        return None
    fused = [(np.concatenate([net[0][0] for net in layers], axis=1),
              np.concatenate([net[0][1] for net in layers]))]
    for i in range(1, len(layers[0])):
        fused.append((np.stack([net[i][0] for net in layers]),
                      np.stack([net[i][1] for net in layers])[:, None, :]))
    return fused


def read_weights(path: str | Path) -> ValueNet:
    """The weights in ``path``. Raises :class:`~machikoro.errors.WeightsError` naming the
    file for a file that cannot be read, is not a weights file, is truncated, or whose
    arrays were changed since they were written."""
    path = Path(path)
    again = "train them again (machikoro train)"
    if not zipfile.is_zipfile(path):
        raise WeightsError(f"{path}: not a weights file (not a NumPy .npz archive, or cut "
                           f"short); {again}")
    try:
        with np.load(path, allow_pickle=False) as archive:
            names = list(archive.files)
            if "meta" not in names:
                raise WeightsError(f"{path}: not a machikoro weights file (no 'meta')")
            meta = json.loads(str(archive["meta"]))
            arrays = {n: archive[n] for n in names if n != "meta"}
    except WeightsError:
        raise
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, KeyError) as exc:
        raise WeightsError(f"{path}: cannot be read as weights ({type(exc).__name__}: "
                           f"{exc}); {again}") from None
    if not isinstance(meta, dict):
        raise WeightsError(f"{path}: its 'meta' is not a JSON object; {again}")
    if meta.get("format") != FORMAT:
        raise WeightsError(f"{path}: weights format {meta.get('format')!r:.20}, this "
                           f"version reads {FORMAT}: {again}")
    found = meta.get("calibration")
    if found is not None and not (isinstance(found, dict) and all(
            type(found.get(k)) in (int, float) and np.isfinite(found[k]) and
            (k != "scale" or found[k] > 0) for k in ("scale", "shift"))):
        raise WeightsError(f"{path}: its calibration is not a positive 'scale' and a "
                           f"'shift' (numbers): {json.dumps(found)[:80]}; {again}")
    if meta.get("sha256") != _arrays_digest(arrays):
        raise WeightsError(f"{path}: the arrays do not match their sha256: the file was "
                           f"changed or damaged; {again}")
    layers = _networks(arrays)
    if isinstance(layers, str):
        raise WeightsError(f"{path}: {layers}; {again}")
    return ValueNet(layers, meta)


def _networks(arrays: dict[str, np.ndarray]) -> list | str:
    """The networks the named arrays hold (see the module text), or what is wrong with
    them: a missing array, shapes that do not chain, an output that is not one value."""
    layers: list[list] = []
    k = 0
    while f"net{k}.w0" in arrays:
        net, i = [], 0
        while f"net{k}.w{i}" in arrays:
            w, b = arrays[f"net{k}.w{i}"], arrays.get(f"net{k}.b{i}")
            if b is None:
                return f"network {k} has no 'net{k}.b{i}'"
            if w.ndim != 2 or b.shape != (w.shape[1],) or \
                    (net and net[-1][0].shape[1] != w.shape[0]) or \
                    not np.issubdtype(w.dtype, np.floating):
                return f"network {k}'s layer {i} has shapes that do not chain"
            net.append((w, b))
            i += 1
        if net[-1][0].shape[1] != 1 or (layers and net[0][0].shape[0]
                                         != layers[0][0][0].shape[0]):
            return f"network {k} does not read the others' inputs into one value"
        layers.append(net)
        k += 1
    if not layers:
        return "it holds no network"
    if len(arrays) != sum(2 * len(net) for net in layers):
        return "it holds arrays that belong to no network"
    return layers


def check_fits(net: ValueNet, rules: RuleSet, players: int, path: str | Path,
               features: int | None = None) -> None:
    """Raise :class:`~machikoro.errors.WeightsError` unless ``net`` was trained for
    ``rules`` (its digest) at ``players`` seats, with ``features`` inputs (default: the
    size of the features its ``meta`` says it reads, :func:`~.features.features_for`)."""
    meta = net.meta
    if meta.get("digest") != rules.digest:
        raise WeightsError(
            f"{path}: these weights were trained for the rule set {meta.get('ruleset')!r} "
            f"(digest {str(meta.get('digest'))[:12]}), not {rules.name!r} (digest "
            f"{rules.digest[:12]}): its rules changed since; train them again: machikoro "
            "train --variant ...")
    if meta.get("players") != players:
        raise WeightsError(f"{path}: these weights are for {meta.get('players')} players, "
                           f"not {players}: machikoro train --players {players}")
    if features is None:
        from .features import features_for

        features = features_for(rules, players, net).size
    if net.features != features or meta.get("features") != features:
        raise WeightsError(f"{path}: these weights read {net.features} features, the rule "
                           f"set has {features}: train them again (machikoro train)")


def bundled_folder() -> Path | None:
    """The bundled weights folder (``weights/`` of the package data), if any."""
    from ..data.bundled import data_folder

    found = data_folder("weights")
    return Path(found) if found else None


def user_folder() -> Path:
    """Where ``machikoro train`` saves weights: ``weights/`` in the user's data folder
    (platformdirs; ``MACHIKORO_WEIGHTS`` overrides it)."""
    given = os.environ.get("MACHIKORO_WEIGHTS")
    if given:
        return Path(given)
    import platformdirs

    return Path(platformdirs.user_data_dir("machikoro")) / "weights"


def weights_name(rules: RuleSet, players: int) -> str:
    """The file name of ``rules``' weights at ``players`` seats (by the rule set's
    digest)."""
    return f"{rules.digest[:16]}-{players}p.npz"


def find_weights(rules: RuleSet, players: int) -> Path | None:
    """The weights file for ``rules`` at ``players`` seats: the user's (trained last)
    before the bundled ones; None when there is none."""
    name = weights_name(rules, players)
    for folder in (user_folder(), bundled_folder()):
        if folder is not None and (folder / name).is_file():
            return folder / name
    return None


_LOADED: dict = {}


def value_for(rules: RuleSet, players: int, features: int | None = None) -> ValueNet:
    """The checked value of ``rules`` at ``players`` seats (read once per process;
    ``features``: :func:`check_fits`'s).
    Raises :class:`~machikoro.errors.WeightsError` when there are none (saying how to
    train them) or they do not fit."""
    path = find_weights(rules, players)
    if path is None:
        raise WeightsError(
            f"no learned weights for {rules.name!r} at {players} players (digest "
            f"{rules.digest[:12]}; looked for {weights_name(rules, players)} in "
            f"{user_folder()} and the bundled weights): train them with machikoro train "
            f"--players {players} --variant <this rule set>")
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    net = _LOADED.get(key)
    if net is None:
        net = read_weights(path)
        _LOADED[key] = net
    check_fits(net, rules, players, path, features)
    return net
