# PITFALL: rows in a layout the dataset class does not read.  GSM8KDataset.load() reads
# a FOLDER holding train.jsonl and test.jsonl; this `path` is one JSON file of
# {"train": [...], "test": [...]}.  The workbench still shows the rows (read as a plain
# rows file) and warns that a real run fails at this dataset.  The fix: the layout the
# class reads (the demo's data/gsm8k_like/ folder), or a class that reads this file.
from opencompass.datasets import GSM8KDataset
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

gsm8k_rows_file_datasets = [
    dict(
        abbr='gsm8k-rows-file',
        type=GSM8KDataset,
        path='../data/gsm8k_like.json',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(round=[
                    dict(role='HUMAN', prompt="Question: {question}\nAnswer:"),
                    dict(role='BOT', prompt='{answer}\n'),
                ]),
            ),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer, max_out_len=512),
        ),
    )
]
