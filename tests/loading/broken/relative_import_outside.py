# broken: a base config imported outside read_base
from ._bases.gsm8k_base import gsm8k_datasets

datasets = gsm8k_datasets
