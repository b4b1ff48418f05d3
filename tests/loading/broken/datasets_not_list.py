# broken: datasets must be a list of dicts
from mmengine.config import read_base

with read_base():
    from ._bases.gsm8k_base import gsm8k_datasets

datasets = gsm8k_datasets[0]
