# broken: the base file does not exist
from mmengine.config import read_base

with read_base():
    from ._bases.no_such_base import gsm8k_datasets  # noqa: F401
