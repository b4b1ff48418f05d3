# broken: a dataset name where the dataset dict belongs
datasets = [
    'gsm8k',
]
