# broken for the workbench: an OpenCompass custom dataset, whose prompts OpenCompass makes at run time
datasets = [
    dict(abbr='my_qa', path='_data/no_answer.jsonl', data_type='qa', infer_method='gen'),
]
