# broken: the workbench.toml beside this config is not valid TOML
from mmengine.config import read_base

with read_base():
    from .._bases.gsm8k_base import gsm8k_datasets  # noqa: F401
