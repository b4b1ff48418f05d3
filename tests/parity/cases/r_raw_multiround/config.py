"""Parity case r_raw_multiround: OpenCompass GenInferencer(multiround=True): each empty assistant message of raw messages answered in turn. Written by tools/parity_r_cases.py."""

from opencompass.datasets import RawPromptTemplate
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

raw_multiround_datasets = [
    dict(
        abbr='multiround_empty_turns',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['dialogue', 'gold_dialogue', 'answered', 'question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='system',
                        content='sys',
                    ),
                    dict(
                        expand_column='dialogue',
                    ),
                ],
                format_variables=False,
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
                multiround=True,
            ),
        ),
    ),
    dict(
        abbr='multiround_gold_between',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['dialogue', 'gold_dialogue', 'answered', 'question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        expand_column='gold_dialogue',
                    ),
                ],
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
                multiround=True,
            ),
        ),
    ),
    dict(
        abbr='multiround_nothing_to_answer',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['dialogue', 'gold_dialogue', 'answered', 'question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        expand_column='answered',
                    ),
                ],
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
                multiround=True,
            ),
        ),
    ),
    dict(
        abbr='multiround_template_turns',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['dialogue', 'gold_dialogue', 'answered', 'question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='user',
                        content='{question}',
                    ),
                    dict(
                        role='assistant',
                        content='',
                    ),
                    dict(
                        role='user',
                        content='again',
                    ),
                    dict(
                        role='assistant',
                        content='',
                    ),
                ],
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
                multiround=True,
            ),
        ),
    ),
    dict(
        abbr='multiround_prompt_template',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['dialogue', 'gold_dialogue', 'answered', 'question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    round=[
                        dict(
                            role='HUMAN',
                            prompt='{question}',
                        ),
                        dict(
                            role='BOT',
                            prompt='{answer}',
                        ),
                    ],
                ),
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
                multiround=True,
            ),
        ),
    ),
    dict(
        abbr='not_multiround_empty_turns',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['dialogue', 'gold_dialogue', 'answered', 'question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        expand_column='dialogue',
                    ),
                ],
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
]

# ---- the five model kinds every parity case renders against ----------------
_internlm_chat_meta = dict(
    round=[
        dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
        dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n')],
    eos_token_id=92542,
)
_llama2_chat_meta = dict(
    round=[
        dict(role='HUMAN', begin='[INST] ', end=' [/INST]'),
        dict(role='BOT', begin=' ', end=' ', generate=True),
    ],
)
_api_meta = dict(
    round=[
        dict(role='HUMAN', api_role='HUMAN'),
        dict(role='BOT', api_role='BOT', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
)
models = [
    dict(abbr='internlm-chat-style', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/internlm-chat',
         meta_template=_internlm_chat_meta, max_out_len=64, batch_size=1),
    dict(abbr='llama2-chat-style', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/llama2-chat',
         meta_template=_llama2_chat_meta, max_out_len=64, batch_size=1),
    dict(abbr='plain-base', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/base-model',
         max_out_len=64, batch_size=1),
    dict(abbr='openai-api', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         meta_template=_api_meta, max_out_len=64, batch_size=1),
    dict(abbr='hf-chat-template', type=HuggingFacewithChatTemplate,
         path='/nonexistent/parity/chat-model', max_out_len=64, batch_size=1),
]

# ---- API models with a list meta template, and without one ------------------
models += [
    dict(abbr='openai-list-meta', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         meta_template=[dict(role='system', content='META SYSTEM. '), dict(role='user', content='>> ')],
         max_out_len=64, batch_size=1),
    dict(abbr='openai-list-meta-late', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         meta_template=[dict(role='user', content='[u] '), dict(role='assistant', content='[a] '),
                        dict(role='system', content='[late system]')],
         max_out_len=64, batch_size=1),
    dict(abbr='openai-no-meta', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         max_out_len=64, batch_size=1),
    dict(abbr='hf-list-meta', type=HuggingFaceCausalLM, path='/nonexistent/parity/list-meta',
         meta_template=[dict(role='system', content='S')], max_out_len=64, batch_size=1),
]
