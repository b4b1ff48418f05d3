shared = dict(max_out_len=200)
