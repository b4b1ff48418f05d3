"""What a config hands back is bounded: at most 64 MiB of datasets and models, said where.

The bound is enforced in the config's own process (which is limited to 2 GiB), so the
workbench never holds more than that, and a regression fails here under an address-space
limit instead of growing the workbench by gigabytes.
"""

from __future__ import annotations

import textwrap

import pytest

from workbench.core.errors import ConfigError
from workbench.loading.config import plain_data as plain
from workbench.loading.config.worker import MAX_RESULT_BYTES
from workbench.loading.workspace import Loader

from .helpers import needs_fork, run, write

pytestmark = needs_fork

# One 1 MiB string shared by 600 datasets: little memory in the config's process, 600 MiB
# once written out, which is what the workbench would have to read back.
WIDE = textwrap.dedent("""\
    blob = 'x' * (1 << 20)
    datasets = [
        dict(abbr=f'd{i}', blob=blob)
        for i in range(600)
    ]
""")


def test_a_config_returning_hundreds_of_megabytes_is_a_located_error(tmp_path):
    write(tmp_path / "wide.py", WIDE)
    done = run("render", "wide.py", "-f", "text", cwd=tmp_path, memory=1536 * 1024**2)
    assert done.code == 3, done.err
    assert done.lines == [
        f"{tmp_path / 'wide.py'}:3: the config returns more than 64 MiB of datasets and models "
        "(dataset 'd10' alone is 1.0 MiB); the workbench takes at most 64 MiB from one config "
        "(hint: keep sample rows in data files (--data FILE), not in the config)"]


def test_one_dataset_over_the_bound_is_located_at_its_own_line(tmp_path):
    config = write(tmp_path / "one.py", textwrap.dedent(f"""\
        small = [dict(abbr='small')]
        datasets = small + [
            dict(abbr='huge', rows=['y' * 1024] * {MAX_RESULT_BYTES // 1024 + 10}),
        ]
    """))
    with Loader() as loader:
        (error,) = loader.load([config]).errors
    assert (error.file, error.line) == (str(config), 3)
    assert error.message.startswith("the config returns more than 64 MiB of datasets and models "
                                    "(dataset 'huge' alone is 64.")


def test_a_config_just_under_the_bound_loads(tmp_path):
    config = write(tmp_path / "under.py", textwrap.dedent("""\
        blob = 'x' * (1 << 20)
        datasets = [dict(abbr=f'd{i}', blob=blob) for i in range(40)]
    """))
    with Loader() as loader:
        workspace = loader.load([config])
    assert not workspace.errors
    assert len(workspace.datasets) == 40 and len(workspace.datasets[39].cfg["blob"]) == 1 << 20


def test_a_value_that_expands_past_the_bound_is_refused_at_once():
    shared: list = [1]
    for _ in range(60):  # 2**60 values once written out
        shared = [shared, shared]
    with pytest.raises(ConfigError) as caught:
        plain.to_plain({"abbr": "bomb", "e": shared})
    assert caught.value.message == "the config's value expands to more than 2,000,000 parts"


@pytest.mark.parametrize("source", [
    "d = {}\nd['me'] = d\ndatasets = [dict(abbr='x', extra=d)]\n",
    "l = []\nl.append(l)\ndatasets = [dict(abbr='x', extra=l)]\n",
    "datasets = [dict(abbr='x')]\ndatasets[0]['me'] = datasets[0]\n",
    "def f():\n    d = {}\n    d['me'] = [d]\n    return d\ndatasets = [dict(abbr='x', e=f())]\n",
], ids=["dict", "list", "entry", "made-in-a-function"])
def test_a_structure_that_contains_itself_is_located_without_waiting_out_the_limit(tmp_path, source):
    write(tmp_path / "cycle.py", source)
    done = run("render", "cycle.py", "--timeout", "60", cwd=tmp_path)
    assert done.code == 3
    (line,) = done.lines
    assert line.startswith(f"{tmp_path / 'cycle.py'}:") and " holds a structure that contains itself " \
        "(hint: a dict or list must not appear inside itself)" in line, line


def test_a_value_shared_many_times_over_is_checked_in_linear_time(tmp_path):
    # cycle detection visits each container once: 2**40 paths, forty containers
    from workbench.loading.config.executor import contains_itself

    shared: list = [1]
    for _ in range(40):
        shared = [shared, shared]
    assert contains_itself(shared) is False
    shared[0].append(shared)
    assert contains_itself(shared) is True
