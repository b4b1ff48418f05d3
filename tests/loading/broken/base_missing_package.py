# broken: a package import no config root provides
from mmengine.config import read_base

with read_base():
    from opencompass.configs.datasets.nope.nope_gen import nope_datasets  # noqa: F401
