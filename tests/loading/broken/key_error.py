# broken: a key the dict does not have
reader_cfg = dict(input_columns=['question'], output_column='answer')
test_split = reader_cfg['test_split']
