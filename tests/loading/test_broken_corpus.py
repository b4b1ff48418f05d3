"""The broken-config corpus: each config fails with exactly this message, at this line.

Every case in ``broken/`` (a file, or a folder's ``config.py``) is loaded and rendered
through the real path (worker process, placeholder or local rows, the core).  The first
error must match the table: the file it points at (relative to ``broken/``; ``<broken>``
stands for that folder inside messages), the line, the message; and carry a hint.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import all_errors

BROKEN = Path(__file__).parent / "broken"

EXPECTED: dict[str, tuple[str, int | None, str]] = {
    # Python syntax and names
    "syntax_error.py": ("syntax_error.py", 2, "SyntaxError: invalid syntax"),
    "indentation_error.py": ("indentation_error.py", 3, "SyntaxError: unexpected indent"),
    "name_error.py": ("name_error.py", 4, "NameError: name 'GenInferencer' is not defined"),
    "not_utf8.py": ("not_utf8.py", 2, "config is not UTF-8 text (byte 0xe9)"),
    "key_error.py": ("key_error.py", 3, "KeyError: 'test_split'"),
    "configdict_missing_attr.py": ("configdict_missing_attr.py", 7,
                                   "AttributeError: 'ConfigDict' object has no attribute 'test_split'"),
    "error_in_base.py": ("_bases/raises.py", 4, "ZeroDivisionError: integer division or modulo by zero"),
    # read_base as mmengine reads it
    "base_missing_relative.py": ("base_missing_relative.py", 5,
                                 "read_base cannot find ._bases.no_such_base: no file "
                                 "<broken>/_bases/no_such_base.py"),
    "base_missing_package.py": ("base_missing_package.py", 5,
                                "read_base cannot find opencompass.configs.datasets.nope.nope_gen: no "
                                "opencompass/configs/datasets/nope/nope_gen.py under the config roots "
                                "(no --config-root given)"),
    "base_missing_name.py": ("base_missing_name.py", 5,
                             "cannot import name 'gsm8k_dataset' from gsm8k_base.py"),
    "circular_read_base.py": ("_bases/circular_b.py", 4,
                              "circular read_base import: circular_read_base.py → circular_b.py → "
                              "circular_read_base.py"),
    "read_base_from_dot.py": ("read_base_from_dot.py", 5,
                              "`from . import name` is not allowed in `with read_base():`"),
    "read_base_code_inside.py": ("read_base_code_inside.py", 6,
                                 "only `from ... import ...` statements may appear inside "
                                 "`with read_base():`"),
    "with_open_before_bases.py": ("with_open_before_bases.py", 4,
                                  "only `with read_base():` may be used as a `with` block in a config"),
    "second_read_base.py": ("second_read_base.py", 7,
                            "only the first `with read_base():` block of a config is read"),
    "relative_import_outside.py": ("relative_import_outside.py", 2,
                                   "relative import of ._bases.gsm8k_base outside `with read_base():`"),
    "star_import_framework.py": ("star_import_framework.py", 2,
                                 "`from opencompass.openicl.icl_retriever import *` is only allowed "
                                 "inside `with read_base():`"),
    "calls_framework.py": ("calls_framework.py", 4,
                           "the config calls opencompass.utils.text_postprocessors."
                           "first_capital_postprocess() while loading"),
    # the classic _base_ mode
    "base_key_in_lazy.py": ("base_key_in_lazy.py", 4,
                            "`_base_ = ...` cannot be mixed with `with read_base():` or framework imports"),
    "base_duplicate_keys.py": ("base_duplicate_keys.py", 2,
                               "Duplicate key is not allowed among bases. Duplicate keys: ['shared']"),
    "delete_type_mismatch.py": ("delete_type_mismatch.py", 4,
                                "inferencer is a dict in the child config but a str in the base config"),
    "classic_base_is_lazy.py": ("classic_base_is_lazy.py", 2,
                                "lazy_style.py uses `with read_base():` or framework imports, but the "
                                "config importing it through `_base_` does not"),
    "file_in_classic_mode.py": ("file_in_classic_mode.py", 4, "NameError: name '__file__' is not defined"),
    "env_var_missing.py": ("env_var_missing.py", 2,
                           "`WORKBENCH_SURELY_UNSET_VARIABLE` cannot be found in `os.environ`"),
    "self_containing.py": ("self_containing.py", 3, "dataset holds a structure that contains itself"),
    # configs that take the process down
    "sys_exit.py": ("sys_exit.py", 4, "the config called sys.exit(2)"),
    "os_exit.py": ("os_exit.py", 4, "the config ended the loader process with exit status 5"),
    "huge_allocation.py": ("huge_allocation.py", 2, "the config ran out of memory (limit 2048 MiB)"),
    "recursion.py": ("recursion.py", 3, "the config recurses without end"),
    # shapes the loader checks
    "datasets_not_list.py": ("datasets_not_list.py", 7,
                             "`datasets` must be a list of dataset dicts, got ConfigDict"),
    "dataset_entry_not_dict.py": ("dataset_entry_not_dict.py", 2, "a dataset entry is a str, not a dict"),
    "dataset_no_abbr_no_path.py": ("dataset_no_abbr_no_path.py", 7,
                                   "dataset has no abbr and no path to derive one from"),
    "model_no_abbr_no_path.py": ("model_no_abbr_no_path.py", 9,
                                 "model has no abbr and no path to derive one from"),
    # shapes the core refuses (located at the part at fault: the template, the retriever, the
    # inferencer, the model's meta template; else at the dataset's dict)
    "ice_token_missing.py": ("ice_token_missing.py", 12, "prompt_template: '</E>' not in 'Q: {question}\nA:'"),
    "round_not_list.py": ("round_not_list.py", 13, "prompt_template: 'round' must be a list, got dict"),
    "role_missing.py": ("role_missing.py", 15,  # the template item naming the role, not the meta template
                        "role 'SYSTEM' of a dialogue round is not in the meta template's round "
                        "(KeyError: 'SYSTEM')"),
    "label_dict_empty.py": ("label_dict_empty.py", 11, "prompt_template: the template dict is empty"),
    "retriever_bad_index.py": ("retriever_bad_index.py", 13,
                               "FixKRetriever: fix_id_list holds '0', not an int index"),
    "inferencer_no_type.py": ("inferencer_no_type.py", 12, "infer_cfg.inferencer must be a dict with a type"),
    "meta_role_duplicate.py": ("meta_role_duplicate.py", 27, "role HUMAN in meta prompt must be unique!"),
    "missing_column.py": ("missing_column.py", 7, "in-context example 0 has no output column 'answer'"),
    "no_infer_cfg.py": ("no_infer_cfg.py", 3, "dataset 'demo' has no infer_cfg dict"),
    "custom_dataset.py": ("custom_dataset.py", 3,
                          "dataset 'my_qa' has no infer_cfg: it is an OpenCompass custom dataset (no "
                          "`type`, data_type='qa', infer_method='gen'), whose reader_cfg and infer_cfg "
                          "OpenCompass builds at run time from the data file and its .meta.json "
                          "(make_custom_dataset_config), so the config holds no prompt to show"),
    # rows and settings files
    "data_file_bad_line.py": ("_data/bad_line.jsonl", 2,
                              "invalid JSON: Expecting property name enclosed in double quotes (column 34)"),
    "settings_bad/config.py": ("settings_bad/workbench.toml", 3, "invalid TOML: Invalid value"),
    # JSON / YAML / TOML configs
    "json_syntax.json": ("json_syntax.json", 4, "invalid JSON: Expecting value (column 3)"),
    "json_duplicate_key.json": ("json_duplicate_key.json", 3, "duplicate key 'abbr' in a JSON object"),
    "json_top_not_object.json": ("json_top_not_object.json", 1,
                                 "a JSON config must be a mapping of names (datasets, models, ...), got list"),
    "json_datasets_not_list.json": ("json_datasets_not_list.json", 3,
                                    "`datasets` must be a list of dataset dicts, got dict"),
    "json_base_missing.json": ("json_base_missing.json", 2,
                               "base config not found: <broken>/no_such_file.json"),
    "yaml_syntax.yaml": ("yaml_syntax.yaml", 5, "invalid YAML: expected ',' or ']', but got ':'"),
    "yaml_entry_not_mapping.yaml": ("yaml_entry_not_mapping.yaml", 2, "a dataset entry is a str, not a dict"),
    "toml_syntax.toml": ("toml_syntax.toml", 3, "invalid TOML: Invalid value"),
    "toml_model_no_abbr.toml": ("toml_model_no_abbr.toml", 4,
                                "model has no abbr and no path to derive one from"),
}


def _cases() -> list[str]:
    found = []
    for path in sorted(BROKEN.iterdir()):
        if path.name.startswith(("_", ".")) or path.name == "ruff.toml":  # helpers, lint files
            continue
        found.append(f"{path.name}/config.py" if path.is_dir() else path.name)
    return found


def test_the_corpus_is_large_and_every_case_has_an_expectation():
    assert len(EXPECTED) >= 40
    assert sorted(_cases()) == sorted(EXPECTED)


@pytest.fixture
def in_broken():
    old = os.getcwd()
    os.chdir(BROKEN)  # relative dataset paths resolve from here, as the frameworks do
    yield
    os.chdir(old)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_broken_config_gives_its_exact_error(case, loader, in_broken):
    if case.endswith((".yaml", ".yml")):
        pytest.importorskip("yaml")
    workspace = loader.load([BROKEN / case])
    errors = all_errors(workspace)
    assert errors, f"{case} loaded and rendered without an error"
    error = errors[0]
    file = os.path.relpath(error.file, BROKEN) if error.file else None
    message = error.message.replace(str(BROKEN), "<broken>")
    assert (file, error.line, message) == EXPECTED[case]
    assert error.hint, f"{case}: the error has no hint"
    # the file the error points at is watched, so saving a fix reloads
    if error.file and os.path.exists(error.file):
        assert Path(error.file).resolve() in workspace.files
