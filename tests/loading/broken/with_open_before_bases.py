# broken: mmengine refuses any with-block but read_base before the bases
from mmengine.config import read_base

with open('prompts.txt') as f:
    prompt = f.read()

with read_base():
    from ._bases.gsm8k_base import gsm8k_datasets  # noqa: F401
