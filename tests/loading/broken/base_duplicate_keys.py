# broken: two _base_ files define the same key
_base_ = ['_bases/classic_a.py', '_bases/classic_b.py']
