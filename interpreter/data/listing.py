"""The bundled variants and strategies listed with their titles and descriptions (``machikoro
list``, the web app's choices)."""

from __future__ import annotations

from pathlib import Path

from ..errors import DataError
from .bundled import STRATEGY_FOLDER, bundled_files
from .yaml_reader import read_yaml


def bundled_entries() -> dict[str, list[dict]]:
    """``{"variants": [...], "strategies": [...]}``, each entry ``{name, title,
    description}``: ``name`` as ``--variant`` takes it (``house/radio-tower-18``), or as
    ``--agents`` takes a strategy (``cheese-factory``). A file that cannot be read is
    listed with its problem as description (``machikoro validate`` says more)."""
    out: dict[str, list[dict]] = {"variants": [], "strategies": []}
    for name, file in bundled_files().items():
        try:
            data = read_yaml(file).data
        except DataError as exc:
            data = {"description": f"(cannot be read: {exc.problems[0].message})"}
        data = data if isinstance(data, dict) else {}
        strategy = name.startswith(STRATEGY_FOLDER + "/")
        out["strategies" if strategy else "variants"].append({
            "name": Path(name).name if strategy else name,
            "title": str(data.get("name", "")),
            "description": str(data.get("description", "")),
        })
    return out
