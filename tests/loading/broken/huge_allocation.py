# broken: far more memory than any config needs
rows = ['x'] * (10 ** 11)
