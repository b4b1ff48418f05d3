# The bundled demo workspace: `workbench` with no argument opens this file.
#
# A top-level evaluation config in the OpenCompass style: `read_base()` pulls in one
# dataset list per file and one model list per file, then `datasets` and `models`
# collect them, exactly as `opencompass eval_demo.py` would read it.
# Everything here (configs and rows) is made up for the demo, and every pair renders
# cleanly; `workbench --pitfalls` opens pitfalls/, the mistakes worth seeing once.
from mmengine.config import read_base

with read_base():
    # datasets: few-shot math, few-shot multiple choice, a multi-turn chat
    from .datasets.gsm8k_like_gen import gsm8k_like_datasets
    from .datasets.mmlu_like_gen import mmlu_like_datasets
    from .datasets.multiturn_chat_gen import multiturn_chat_datasets
    # models: two meta-template local models, an API model, a chat-template model
    from .models.internlm_chat_like import models as internlm_chat_models
    from .models.llama2_chat_like import models as llama2_chat_models
    from .models.api_model import models as api_models
    from .models.chat_template_model import models as chat_template_models

datasets = sum((v for k, v in locals().items() if k.endswith('_datasets')), [])
models = [*internlm_chat_models, *llama2_chat_models, *api_models, *chat_template_models]
