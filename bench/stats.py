"""The bench's one median and percentile (bench.py logs them, report.py
tabulates them): NaN for no samples, so a missing measure prints as nan."""
import statistics


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def percentile(xs, p):
    """The p-th percentile (0-100), interpolated between the nearest ranks."""
    s = sorted(xs)
    if not s:
        return float("nan")
    k = (len(s) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)
