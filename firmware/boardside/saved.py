"""Typed reads of a saved state, for the modes' restore checks: each refusal is a
ValueError that names the game and the field ("saved Q*bert match: 'tube' out of
range"), so the app can reset that mode alone (docs/persistence.md)."""


def is_int(v):
    """A JSON integer: not a float, not a boolean."""
    return isinstance(v, int) and v is not True and v is not False


class Fields:
    def __init__(self, d, what):
        self.d = d
        self.what = what  # "saved Q*bert match"

    def bad(self, why):
        raise ValueError("%s: %s" % (self.what, why))

    def num(self, key, lo, hi):
        v = self.d[key]
        if not is_int(v) or not lo <= v <= hi:
            self.bad("'%s' out of range" % key)
        return v

    def flag(self, key):
        v = self.d[key]
        if v is not True and v is not False:
            self.bad("'%s' is not true or false" % key)
        return v

    def values(self, v, n, lo, hi, key):
        """A list of n integers lo..hi (any length when n < 0), reported as ``key``."""
        if not isinstance(v, list) or (n >= 0 and len(v) != n):
            self.bad("'%s' is not a list of %d" % (key, n))
        for x in v:
            if not is_int(x) or not lo <= x <= hi:
                self.bad("'%s' out of range" % key)
        return list(v)

    def ints(self, key, n, lo, hi):
        return self.values(self.d[key], n, lo, hi, key)
