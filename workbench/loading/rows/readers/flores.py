"""FLORES (first 100 sentences): ``dev/<lang>.dev`` and ``devtest/<lang>.devtest``, one
sentence a line, aligned across languages.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from pathlib import Path

from ....core.errors import ConfigError
from . import ReaderCall, ReadResult, Row, native_reader
from ._files import from_list, read_text, require, text_lines


def _pairs(source: Path, target: Path, source_lang: str, target_lang: str) -> list[Row]:
    sources, targets = text_lines(read_text(source)), text_lines(read_text(target))
    require(len(sources) == len(targets), target, None,
            f"{len(targets)} lines here but {len(sources)} in {source.name}",
            "the two languages' files are aligned line by line")
    rows = [{f"sentence_{source_lang}": s.strip(), f"sentence_{target_lang}": t.strip()}
            for s, t in zip(sources, targets, strict=True)]
    return from_list(rows, source)


@native_reader("FloresFirst100Dataset")
def read_flores(call: ReaderCall) -> ReadResult:
    """``name`` is ``<source>-<target>`` (``eng_Latn-zho_Hans``); rows hold both sentences."""
    name = str(call.kwargs.get("name"))
    languages = name.split("-")
    if len(languages) != 2:
        raise ConfigError(f"FLORES's name is source-target (eng_Latn-zho_Hans), not {name!r}")
    source, target = languages
    folder = call.path()
    return {split: _pairs(folder / split / f"{source}.{split}", folder / split / f"{target}.{split}",
                          source, target)
            for split in ("dev", "devtest")}
