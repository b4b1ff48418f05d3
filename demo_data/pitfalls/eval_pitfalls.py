# The demo's pitfalls: `workbench --pitfalls` opens this file (`workbench render
# --pitfalls` renders it).  Each dataset here holds one mistake worth seeing once, with
# the message the workbench gives for it; README.md beside the demo walks through them.
# The models are the demo's own four.
from mmengine.config import read_base

with read_base():
    from .datasets.mmlu_like_ppl import mmlu_like_datasets
    from .datasets.gsm8k_rows_file import gsm8k_rows_file_datasets
    from .datasets.answer_prefix_gen import answer_prefix_datasets
    from .datasets.multiturn_aisbench_gen import multiturn_demo_datasets
    from .datasets.multimodal_gen import multimodal_demo_datasets
    from ..models.internlm_chat_like import models as internlm_chat_models
    from ..models.llama2_chat_like import models as llama2_chat_models
    from ..models.api_model import models as api_models
    from ..models.chat_template_model import models as chat_template_models

datasets = sum((v for k, v in locals().items() if k.endswith('_datasets')), [])
models = [*internlm_chat_models, *llama2_chat_models, *api_models, *chat_template_models]
