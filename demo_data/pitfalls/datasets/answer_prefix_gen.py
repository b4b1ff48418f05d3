# PITFALL: a generating turn's prompt that is never sent.  The test round ends with
# dict(role='BOT', prompt='A:'), meant as an answer prefix; but for a GenInferencer the
# meta template generates at BOT's `begin`, so the final input ends there and 'A:' is
# dropped (compare the PromptList with the final input).  The fix: put the prefix at the
# end of the HUMAN turn ("...\nA:"), where it is sent.
from opencompass.datasets import GSM8KDataset
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

answer_prefix_datasets = [
    dict(
        abbr='answer-prefix',
        type=GSM8KDataset,
        path='../../data/gsm8k_like',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(round=[
                    dict(role='HUMAN', prompt='Q: {question}'),
                    dict(role='BOT', prompt='A:'),
                ]),
            ),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer, max_out_len=512),
        ),
    )
]
