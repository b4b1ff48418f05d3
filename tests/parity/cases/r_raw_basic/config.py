"""Parity case r_raw_basic: OpenCompass RawPromptTemplate: filling, format_variables, the ICE placeholder, and API models with dict / list / no meta templates. Written by tools/parity_r_cases.py."""

from opencompass.datasets import RawPromptTemplate
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever

raw_basic_datasets = [
    dict(
        abbr='raw_user_only',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
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
    dict(
        abbr='raw_system_user_assistant',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='system',
                        content='Answer briefly.',
                    ),
                    dict(
                        role='user',
                        content='Q: {question}',
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
            ),
        ),
    ),
    dict(
        abbr='raw_output_not_masked',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='user',
                        content='{question} (gold: {answer})',
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
    dict(
        abbr='raw_format_variables_false',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='user',
                        content='{question} stays as written',
                    ),
                ],
                format_variables=False,
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='raw_unknown_placeholder',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='user',
                        content='{question} {nothing}',
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
    dict(
        abbr='raw_ice_fixk',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='user',
                        content='Q: {question}',
                    ),
                    dict(
                        role='assistant',
                        content='{answer}',
                    ),
                ],
            ),
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='system',
                        content='Few-shot.',
                    ),
                    '</E>',
                    'a stray string',
                    dict(
                        role='user',
                        content='Q: {question}',
                    ),
                ],
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[1, 0, 2],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='raw_ice_custom_token',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='user',
                        content='{question}',
                    ),
                    '</E>',
                    dict(
                        role='assistant',
                        content='{answer}',
                    ),
                ],
            ),
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    '</E>',
                    dict(
                        role='user',
                        content='Q: {question}',
                    ),
                    '<ICE>',
                ],
                ice_token='<ICE>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='raw_ice_only_zero',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=RawPromptTemplate,
                messages=[
                    '</E>',
                    dict(
                        role='user',
                        content='{question}',
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
    dict(
        abbr='raw_ice_string_examples',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='{question}={answer}',
            ),
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    '</E>',
                    dict(
                        role='user',
                        content='{question}',
                    ),
                ],
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 1],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='raw_gen_field_replace_token',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='user',
                        content='{question} [{answer}]',
                    ),
                ],
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
                gen_field_replace_token='<ANS>',
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
