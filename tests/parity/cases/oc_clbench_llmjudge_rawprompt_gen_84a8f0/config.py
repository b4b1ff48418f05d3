"""Parity case oc_clbench_llmjudge_rawprompt_gen_84a8f0: opencompass/configs/datasets/CLBench/clbench_llmjudge_rawprompt_gen_84a8f0.py (clbench_datasets[:1]), flattened by tools/make_parity_cases.py."""

from opencompass.datasets import CLBenchDataset, RawPromptTemplate, clbench_llmjudge_postprocess, clbench_pred_postprocess
from opencompass.evaluator import GenericLLMEvaluator
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import ZeroRetriever

clbench_datasets = [
    dict(
        type=CLBenchDataset,
        abbr='clbench',
        path='tencent/CL-bench',
        split='train',
        reader_cfg=dict(
            input_columns=[
                'messages',
                'rubrics',
                'rubrics_text',
                'task_id',
                'context_category',
            ],
            output_column='rubrics_text',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        expand_column='messages',
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
        eval_cfg=dict(
            evaluator=dict(
                type=GenericLLMEvaluator,
                prompt_template=dict(
                    type=RawPromptTemplate,
                    messages=[
                        dict(
                            role='user',
                            content='Starting now, you are a rigorous instruction-following grading teacher. Your task is to accurately grade and score student answers based on the 【Rubrics】.\n\nGrading Criteria\nThis is a strict, all-or-nothing grading system. The final score is binary.\nTo receive a score of 1, the student\'s answer must perfectly satisfy every single requirement listed in the 【Rubrics】.\nIf even one requirement is not fully met, the final score will be 0.\nGrading Process\nPlease strictly follow the steps below for analysis—no steps may be skipped:\nStep 1: Analyze the Standard Answer\nList all explicit requirements in the 【Rubrics】 item by item (including format, content, quantity, order, etc.).\nIdentify implicit requirements in the 【Rubrics】 (e.g., language style, logical structure).\nDefine specific evaluation criteria for each requirement (e.g., "must include X," "must not exceed Y").\nStep 2: Check Each Requirement Against the Student\'s Answer\nFor every requirement in the 【Rubrics】, verify one by one whether the student\'s answer fully satisfies it.\nStep 3: Self-Reflection\nBefore giving the final score, you must conduct the following checks:\n  Completeness Check: Whether all requirements in the standard answer have been reviewed with no omissions.\n  Strictness Check: Whether the evaluation strictly adheres to the "fully satisfied" standard without relaxing requirements due to subjective judgment.\n  Consistency Check: Whether the grading rationale aligns logically with the final score.\n  Objectivity Check: Whether judgments are based on objective facts rather than subjective speculation.\nOutput Format Requirements\n【Grading Rationale】: xxx\n【List of Requirement Satisfaction Status】: [x₁, x₂, …, xᵢ, …, xₙ] (where n is the total number of requirements in the 【Rubrics】, and xᵢ indicates whether the student\'s answer meets the i-th requirement, with values "yes"/"no")\n【Overall Score】: x points (x is an integer, either 0 or 1.)\n\nContent to Be Graded\n【Rubrics】:\n{rubrics_text}\n【Student Response】:\n{prediction}\n\nPlease strictly output ONLY the following JSON format (do not output any other content):\n{\n  "Grading Rationale": "Your detailed grading rationale",\n  "List of Requirement Satisfaction Status": ["yes", "no", ...],\n  "Overall Score": 0 or 1\n}\n',
                        ),
                    ],
                ),
                dataset_cfg=dict(
                    type=CLBenchDataset,
                    path='tencent/CL-bench',
                    split='train',
                    reader_cfg=dict(
                        input_columns=[
                            'messages',
                            'rubrics',
                            'rubrics_text',
                            'task_id',
                            'context_category',
                        ],
                        output_column='rubrics_text',
                    ),
                ),
                judge_cfg=dict(),
                dict_postprocessor=dict(
                    type=clbench_llmjudge_postprocess,
                ),
                pred_postprocessor=dict(
                    type=clbench_pred_postprocess,
                ),
            ),
        ),
        n=1,
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
