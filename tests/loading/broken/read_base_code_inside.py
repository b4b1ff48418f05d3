# broken: only imports may sit inside read_base
from mmengine.config import read_base

with read_base():
    from ._bases.gsm8k_base import gsm8k_datasets
    gsm8k_datasets[0]['abbr'] = 'gsm8k-mine'
