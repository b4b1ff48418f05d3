# broken: a dict over a base string needs _delete_=True
_base_ = '_bases/classic_scalar.py'

inferencer = dict(type='GenInferencer', max_out_len=100)
