from mmengine.config import read_base

with read_base():
    from .math_gen_a58d9d import math_datasets  # noqa: F401, F403
