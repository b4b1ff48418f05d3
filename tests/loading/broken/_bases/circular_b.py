from mmengine.config import read_base

with read_base():
    from ..circular_read_base import loop_datasets  # noqa: F401
