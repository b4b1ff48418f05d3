"""The wheel carries the bundled demo, themes and the configs ``compare`` ships: the top-level
``demo_data/``, ``themes/`` and ``shipped_configs/`` stay the source and are mapped into the
package as ``workbench/demo_data``, ``workbench/themes`` and ``workbench/shipped_configs``
(found with ``importlib.resources`` in an install, beside the package in a checkout).
Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

DATA_FOLDERS = {"workbench.demo_data": "demo_data", "workbench.themes": "themes",
                "workbench.shipped_configs": "shipped_configs"}

setup(
    packages=[*find_packages(include=["workbench", "workbench.*"]), *DATA_FOLDERS],
    package_dir=DATA_FOLDERS,
    package_data={
        "workbench": ["**/*.json", "**/*.jinja", "**/*.toml", "**/*.txt"],
        "workbench.demo_data": ["**/*"],
        "workbench.themes": ["*.toml"],
        "workbench.shipped_configs": ["**/*"],
    },
    exclude_package_data={"workbench.demo_data": ["**/__pycache__/*", "**/*.pyc"],
                          "workbench.shipped_configs": ["**/__pycache__/*", "**/*.pyc"]},
)
