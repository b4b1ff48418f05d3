"""Parity case seed_meta_moss_ppl: shared/spec/seeds/004 (meta template design): the MOSS meta template with label -> dialogue templates (the doc's mmlu.py form; a second dataset adds an end section), perplexity mode."""

from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer, PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever

meta_moss_ppl_datasets = [
    dict(
        abbr='meta_moss_ppl',
        type='ParityJsonDataset',
        path='parity/seed',
        reader_cfg=dict(input_columns=['input', 'A', 'B', 'C', 'D'], output_column='target'),
        infer_cfg=dict(
        ice_template=dict(
            type=PromptTemplate,
            template=dict(
                round=[
                    dict(role='HUMAN', prompt='{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '),
                    dict(role='BOT', prompt='{target}'),
                ],
            ),
        ),
        prompt_template=dict(
            type=PromptTemplate,
            template={
                target: dict(
                    begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='The following are '
                                'multiple choice questions (with answers) about physics.'),
                           '</E>',
                           ],
                    round=[
                        dict(role='HUMAN', prompt='{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '),
                        dict(role='BOT', prompt=f'{target}'),
                    ],
                )
                for target in ['A', 'B', 'C', 'D']  # use the actual answer
            },
            ice_token='</E>',
        ),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=PPLInferencer),
    ),
    ),
    dict(
        abbr='meta_moss_ppl_with_end',
        type='ParityJsonDataset',
        path='parity/seed',
        reader_cfg=dict(input_columns=['input', 'A', 'B', 'C', 'D'], output_column='target'),
        infer_cfg=dict(
        ice_template=dict(
            type=PromptTemplate,
            template=dict(
                round=[
                    dict(role='HUMAN', prompt='{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '),
                    dict(role='BOT', prompt='{target}'),
                ],
            ),
        ),
        prompt_template=dict(
            type=PromptTemplate,
            template={
                target: dict(
                    begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='The following are '
                                'multiple choice questions (with answers) about physics.'),
                           '</E>',
                           ],
                    round=[
                        dict(role='HUMAN', prompt='{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '),
                        dict(role='BOT', prompt=f'{target}'),
                    ],
                    end="end of dataset prompt template.",
                )
                for target in ['A', 'B', 'C', 'D']  # use the actual answer
            },
            ice_token='</E>',
        ),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=PPLInferencer),
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

# ---- the meta template of the meta-template design doc (MOSS) ---------------
_moss_meta = dict(
    begin='meta instruction\nYou are an AI assistant.\n',
    round=[
        dict(role='HUMAN', begin='<|HUMAN|>:', end='脷\n'),
        dict(role='THOUGHTS', begin='<|Inner Thoughts|>:', end='茔\n', prompt='None'),
        dict(role='COMMANDS', begin='<|Commands|>:', end='蝮\n', prompt='None'),
        dict(role='RESULTS', begin='<|Results|>:', end='兒\n', prompt='None'),
        dict(role='BOT', begin='<|MOSS|>:', generate=True, end='氡\n'),
    ],
    end='end of conversion',
    reserved_roles=[dict(role='SYSTEM', begin='<|SYSTEM|>: ', end='\n')],
    eos_token_id=65605,
)
models.append(
    dict(abbr='moss-meta-template', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/moss',
         meta_template=_moss_meta, max_out_len=64, batch_size=1))
