# broken: the base imports this file back
from mmengine.config import read_base

with read_base():
    from ._bases.circular_b import loop_datasets  # noqa: F401
