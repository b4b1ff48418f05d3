# broken: a dataset with no infer_cfg cannot make prompts
datasets = [
    dict(abbr='demo', reader_cfg=dict(input_columns=['question'], output_column='answer')),
]
