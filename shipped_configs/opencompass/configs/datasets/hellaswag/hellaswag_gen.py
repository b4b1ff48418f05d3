from mmengine.config import read_base

with read_base():
    from .hellaswag_10shot_gen_e42710 import hellaswag_datasets  # noqa: F401, F403