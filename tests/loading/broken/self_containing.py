# broken: a dict that holds itself
dataset = dict(abbr='loop')
dataset['again'] = dataset
datasets = [dataset]
