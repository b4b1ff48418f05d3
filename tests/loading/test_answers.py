"""A reload's answer carries only the datasets and models that changed; the rest are the parent's own.

Counted, not timed: ``ConfigWorker.reused`` is how many entries the last answer did not resend.
Every test also checks what the workspace shows, so an entry wrongly reused would fail it.
"""

from __future__ import annotations

import pytest

from workbench.loading.config import answers
from workbench.loading.workspace import Loader

from .conftest import write

BASE = """\
shared_reader = dict(input_columns=['q'], output_column='a')
shared_suffix = '{suffix}'
"""
DATASET = """\
from mmengine.config import read_base
from opencompass.openicl.icl_prompt_template import PromptTemplate
with read_base():
    from .base import shared_reader, shared_suffix
{name}_datasets = [dict(abbr='{name}', path='x', reader_cfg=shared_reader,
                        infer_cfg=dict(prompt_template=dict(type=PromptTemplate,
                                                            template='{text} {{q}}' + shared_suffix)))]
"""
TOP = """\
from mmengine.config import read_base
with read_base():
    from .one import one_datasets
    from .two import two_datasets
    from .three import three_datasets
datasets = [*one_datasets, *two_datasets, *three_datasets]
models = [dict(abbr='m', type='HuggingFaceCausalLM', path='some/model')]
"""


def _suite(folder, suffix="!"):
    write(folder / "base.py", BASE.format(suffix=suffix))
    for name in ("one", "two", "three"):
        write(folder / f"{name}.py", DATASET.format(name=name, text=name))
    return write(folder / "top.py", TOP)


def _templates(workspace) -> dict[str, str]:
    assert not workspace.errors, [e.located() for e in workspace.errors]
    return {d.abbr: d.cfg["infer_cfg"]["prompt_template"]["template"] for d in workspace.datasets}


@pytest.fixture
def own_loader():
    with Loader(code_cache=None) as loader:
        yield loader


def test_an_unchanged_config_resends_nothing_and_keeps_its_entries(tmp_path, own_loader):
    top = _suite(tmp_path)
    first = own_loader.load_file(top)
    assert own_loader._worker.reused == 0
    again = own_loader.load_file(top)
    assert own_loader._worker.reused == 4  # three datasets and the model
    assert again == first
    assert all(a is b for a, b in zip(again["datasets"], first["datasets"], strict=True))


def test_a_save_of_one_dataset_file_resends_that_dataset_only(tmp_path, own_loader):
    top = _suite(tmp_path)
    own_loader.load([top])
    write(tmp_path / "two.py", DATASET.format(name="two", text="edited"))
    templates = _templates(own_loader.load([top]))
    assert own_loader._worker.reused == 3
    assert templates == {"one": "one {q}!", "two": "edited {q}!", "three": "three {q}!"}


def test_a_save_of_a_shared_base_resends_every_dependant(tmp_path, own_loader):
    top = _suite(tmp_path)
    own_loader.load([top])
    write(tmp_path / "base.py", BASE.format(suffix="?"))
    templates = _templates(own_loader.load([top]))
    assert own_loader._worker.reused == 1  # the model alone
    assert templates == {"one": "one {q}?", "two": "two {q}?", "three": "three {q}?"}


def test_a_reordered_list_reuses_entries_by_where_they_were_written(tmp_path, own_loader):
    top = _suite(tmp_path)
    own_loader.load([top])
    top.write_text(TOP.replace("[*one_datasets, *two_datasets, *three_datasets]",
                               "[*three_datasets, *one_datasets]"))
    workspace = own_loader.load([top])
    assert own_loader._worker.reused == 3
    assert list(_templates(workspace)) == ["three", "one"]


def test_a_restarted_worker_answers_in_full(tmp_path, own_loader):
    top = _suite(tmp_path)
    own_loader.load([top])
    own_loader._worker._kill()  # as when a config took the worker down
    write(tmp_path / "one.py", DATASET.format(name="one", text="after"))
    templates = _templates(own_loader.load([top]))
    assert own_loader._worker.reused == 0
    assert templates["one"] == "after {q}!"


def test_a_failed_load_is_not_kept_and_the_next_answer_is_whole(tmp_path, own_loader):
    top = _suite(tmp_path)
    own_loader.load([top])
    write(tmp_path / "one.py", "this is not python\n")
    assert own_loader.load([top]).errors
    write(tmp_path / "one.py", DATASET.format(name="one", text="fixed"))
    assert _templates(own_loader.load([top]))["one"] == "fixed {q}!"
    assert own_loader._worker.reused == 0


def test_a_reference_to_an_entry_the_parent_does_not_hold_is_refused():
    kept = answers.Kept(1, {"datasets": [{"cfg": {}}], "models": []}, {})
    with pytest.raises(ValueError):
        answers.restore({"datasets": [{"same": 1}], "models": []}, kept)
    with pytest.raises(ValueError):
        answers.restore({"datasets": [{"same": 0}], "models": []}, None)
    assert answers.restore({"datasets": [{"same": 0}], "models": []}, kept)["datasets"][0] is \
        kept.result["datasets"][0]


def test_the_workspace_rederives_only_the_datasets_that_changed(tmp_path, own_loader):
    top = _suite(tmp_path)
    first = own_loader.load([top])
    assert {d.framework for d in first.datasets} == {"opencompass"}
    own_loader.load([top])
    assert own_loader.derived_reused == 3
    # an AISBench type makes this dataset an AISBench one: a stale derivation would not say so
    write(tmp_path / "two.py", DATASET.format(name="two", text="two").replace(
        "opencompass.openicl.icl_prompt_template", "ais_bench.benchmark.openicl.icl_prompt_template"))
    workspace = own_loader.load([top])
    assert own_loader.derived_reused == 2
    assert {d.abbr: d.framework for d in workspace.datasets} == {
        "one": "opencompass", "two": "ais_bench", "three": "opencompass"}
    assert workspace.datasets[0].locations == first.datasets[0].locations


def test_the_first_config_asked_for_at_start_is_answered_once(tmp_path):
    # the app asks the worker for its first config before it has imported the loader; the
    # load that follows takes that answer instead of running the config a second time
    from workbench.loading.config import worker

    top = _suite(tmp_path)
    worker.prestart_for(top, code_cache=tmp_path / "cache")
    write(tmp_path / "one.py", DATASET.format(name="one", text="saved meanwhile"))
    with Loader(code_cache=tmp_path / "cache") as loader:
        workspace = loader.load([top])
        assert loader._worker.early_taken == 1
        # what the worker read when asked (the file was saved before it got there, or not):
        # either way the next load, which the watcher would start, reads the file again
        assert _templates(loader.load([top]))["one"] == "saved meanwhile {q}!"
        assert loader._worker.early_taken == 1
    assert len(workspace.datasets) == 3


def test_an_answer_asked_for_another_config_is_not_taken(tmp_path):
    from workbench.loading.config import worker

    top = _suite(tmp_path)
    other = write(tmp_path / "other.py", TOP.replace(", *three_datasets]", "]"))
    worker.prestart_for(top, code_cache=tmp_path / "cache")
    with Loader(code_cache=tmp_path / "cache") as loader:
        assert list(_templates(loader.load([other]))) == ["one", "two"]
        assert loader._worker.early_taken == 0
        assert list(_templates(loader.load([top]))) == ["one", "two", "three"]


def test_a_reused_dataset_still_reads_its_rows_and_a_broken_rows_file_is_listed(tmp_path, own_loader):
    top = _suite(tmp_path)
    rows = write(tmp_path / "rows" / "one.json", '[{"q": "first row", "a": "x"}]')
    write(tmp_path / "workbench.toml", '[data]\none = "rows/one.json"\n')
    assert own_loader.load([top]).datasets[0].rows == [{"q": "first row", "a": "x"}]
    rows.write_text('[{"q": "broken')
    workspace = own_loader.load([top])
    assert own_loader.derived_reused == 3  # the entry was the parent's own; its rows were read again
    assert [(abbr, error.file) for _, abbr, error in workspace.failed_datasets] == [("one", str(rows))]
    assert [d.abbr for d in workspace.datasets] == ["two", "three"]


@pytest.mark.parametrize(("before", "after"), [("1", "True"), ("1", "1.0"), ("0.0", "-0.0"),
                                               ("[1, 2]", "(1, 2)")])
def test_a_value_equal_in_python_but_not_the_same_is_sent_again(tmp_path, own_loader, before, after):
    # 1 == True == 1.0 and 0.0 == -0.0 in Python: an entry compared with == would stay stale
    top = _suite(tmp_path)
    one = (tmp_path / "one.py").read_text()
    write(tmp_path / "one.py", one.replace("path='x',", f"path='x', knob={before},"))
    own_loader.load([top])
    write(tmp_path / "one.py", one.replace("path='x',", f"path='x', knob={after},"))
    workspace = own_loader.load([top])
    assert own_loader._worker.reused == 3
    knob = workspace.datasets[0].cfg["knob"]
    assert (type(knob), repr(knob)) == (type(eval(after)), repr(eval(after)))
