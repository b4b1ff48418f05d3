shared = dict(max_out_len=100)
a_only = 1
