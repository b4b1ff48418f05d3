# broken: a _base_ file in read_base style
_base_ = ['_bases/lazy_style.py']
