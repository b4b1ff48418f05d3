from mmengine.config import read_base

with read_base():
    from .mmlu_pro_0shot_cot_gen_08c1de import mmlu_pro_datasets  # noqa: F401, F403