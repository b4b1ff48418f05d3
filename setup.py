"""The wheel carries the bundled demo and themes: the top-level ``demo_data/`` and ``themes/``
stay the source and are mapped into the package as ``workbench/demo_data`` and
``workbench/themes`` (found with ``importlib.resources`` in an install, beside the package in a
checkout). Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

DATA_FOLDERS = {"workbench.demo_data": "demo_data", "workbench.themes": "themes"}

setup(
    packages=[*find_packages(include=["workbench", "workbench.*"]), *DATA_FOLDERS],
    package_dir=DATA_FOLDERS,
    package_data={
        "workbench": ["**/*.json", "**/*.jinja", "**/*.toml", "**/*.txt"],
        "workbench.demo_data": ["**/*"],
        "workbench.themes": ["*.toml"],
    },
    exclude_package_data={"workbench.demo_data": ["**/__pycache__/*", "**/*.pyc"]},
)
