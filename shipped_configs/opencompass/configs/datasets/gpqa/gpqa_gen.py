from mmengine.config import read_base

with read_base():
    from .gpqa_openai_simple_evals_gen_5aeece import gpqa_datasets  # noqa: F401, F403
