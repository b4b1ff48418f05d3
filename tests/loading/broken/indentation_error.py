# broken: an indented line at top level
gsm8k_reader_cfg = dict(input_columns=['question'])
    output_column = 'answer'
