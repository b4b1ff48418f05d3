# Multi-turn chat, OpenCompass style: ChatInferencer turns each row's `question` and
# `answer` lists into one conversation (turn k: HUMAN question k, BOT answer k), and
# infer_mode='every_with_gt' sends one request per turn, each carrying the earlier
# turns with their ground-truth answers.  The timeline pane shows the requests.
#
# `type` names the loader: CustomDataset reads a .jsonl file, a JSON object a line.
from opencompass.datasets import CustomDataset
from opencompass.openicl.icl_inferencer import ChatInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

multiturn_chat_reader_cfg = dict(input_columns=['question'], output_column='answer')

multiturn_chat_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
        ),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=ChatInferencer, infer_mode='every_with_gt', max_out_len=512),
)

multiturn_chat_datasets = [
    dict(
        abbr='multiturn-chat',
        type=CustomDataset,
        path='../data/multiturn_chat.jsonl',
        reader_cfg=multiturn_chat_reader_cfg,
        infer_cfg=multiturn_chat_infer_cfg,
    )
]
