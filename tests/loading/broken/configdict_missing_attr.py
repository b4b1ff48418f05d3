# broken: base values are ConfigDicts; a missing attribute raises
from mmengine.config import read_base

with read_base():
    from ._bases.gsm8k_base import gsm8k_reader_cfg

split = gsm8k_reader_cfg.test_split
