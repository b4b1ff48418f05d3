# broken: an OpenCompass model needs abbr or path
from mmengine.config import read_base
from opencompass.models import OpenAI

with read_base():
    from ._bases.gsm8k_base import gsm8k_datasets  # noqa: F401

models = [
    dict(type=OpenAI, key='ENV', max_out_len=100),
]
