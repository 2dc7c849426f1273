"""``machikoro schema``: print, locate or write the JSON Schemas of the file kinds, for
editors and CI outside this project's folder (docs/schemas.md).

``machikoro schema`` lists them; ``machikoro schema KIND`` prints one (JSON);
``--path`` prints the installed folder (with ``KIND``, the file); ``--draft-07`` picks
the draft-07 versions (for the YAML language server, which knows no later draft);
``--write DIR`` writes every schema, of both drafts, into ``DIR`` (``DIR/draft-07/`` for
the draft-07 ones, the installed layout). Exit 0; 1 when ``DIR`` cannot be written (the
message names the file or folder); 2 for bad usage.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..data import schema_files
from ..data.draft07 import FOLDER
from ..data.schemas import KINDS
from ..errors import MachikoroError
from .arguments import UsageError, non_empty

HELP = "print, locate or write the JSON Schemas of the file kinds (for editors and CI)"


def add_arguments(schema: argparse.ArgumentParser) -> None:
    """The schema command's options."""
    schema.add_argument("kind", nargs="?", choices=KINDS, metavar="KIND",
                        help=f"print the schema of one file kind ({', '.join(KINDS)})")
    schema.add_argument("--draft-07", dest="draft07", action="store_true",
                        help="the draft-07 version, for editors that know no later draft "
                             "(the YAML language server)")
    what = schema.add_mutually_exclusive_group()
    what.add_argument("--path", action="store_true",
                      help="print the folder of the installed schemas (with KIND: its file)")
    what.add_argument("--write", metavar="DIR", type=non_empty("a folder"),
                      help=f"write every schema into DIR, the draft-07 versions into "
                           f"DIR/{FOLDER}/ (made when missing; files there are replaced)")


def run(args) -> int:
    """Print or write what was asked; exit 0 (errors: see the module)."""
    try:
        if args.write is not None:
            return _write(args)
        if args.path:
            print(schema_files.schema_path(args.kind, args.draft07) if args.kind
                  else schema_files.schema_folder(args.draft07))
        elif args.kind:
            sys.stdout.write(schema_files.schema_path(args.kind, args.draft07)
                             .read_text("utf-8"))
        else:
            print(_listing())
    except FileNotFoundError as exc:  # an installation without its data folder
        raise MachikoroError(f"the installed schemas are missing: {exc}") from None
    return 0


def _write(args) -> int:
    if args.kind or args.draft07:
        raise UsageError("--write writes every schema of both drafts: give it no KIND "
                         "nor --draft-07")
    folder = Path(args.write)
    if folder.exists() and not folder.is_dir():
        raise MachikoroError(f"cannot write the schemas into {args.write}: it is a file, "
                             "not a folder")
    written = schema_files.write_schemas(folder)
    print(f"wrote {len(written)} files: {len(KINDS)} schemas (JSON Schema draft 2020-12) "
          f"into {folder}, their draft-07 versions (for editors) into {folder / FOLDER}")
    return 0


def _listing() -> str:
    folder = schema_files.schema_folder()
    lines = [f"JSON Schemas of the file kinds, in {folder} (draft 2020-12)",
             f"and {folder / FOLDER} (the same for editors that know draft-07 only):"]
    for kind in KINDS:
        name = schema_files.file_name(kind)
        lines.append(f"  {kind:<9} {name:<21} $id {schema_files.schema_id(kind)}")
    lines.append("machikoro schema KIND prints one, --path names the file, --write DIR "
                 "writes them all (docs/schemas.md)")
    return "\n".join(lines)
