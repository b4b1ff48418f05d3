# broken: mmengine reads the bases of the first read_base block only
from mmengine.config import read_base

with read_base():
    from ._bases.gsm8k_base import gsm8k_datasets  # noqa: F401

with read_base():
    from ._bases.gsm8k_base import gsm8k_reader_cfg  # noqa: F401
