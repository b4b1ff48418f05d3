# broken: the base defines gsm8k_datasets, not gsm8k_dataset
from mmengine.config import read_base

with read_base():
    from ._bases.gsm8k_base import gsm8k_dataset  # noqa: F401
