# broken: a helper that never stops calling itself
def depth(n):
    return depth(n + 1)


levels = depth(0)
