from mmengine.config import read_base

with read_base():
    from .gsm8k_base import gsm8k_datasets  # noqa: F401
