# broken: a doubled comma
gsm8k_reader_cfg = dict(input_columns=['question'],, output_column='answer')
