#!/usr/bin/env python3
"""Quarter means and the second half's least-squares slope (± its standard error) of a soak's samples (run.sh --keep DIR
writes DIR/samples.jsonl), the figures docs/benchmarks.md gives for each run. With --at N,M,...
also each measure at the first sample past N requests (to compare runs at equal request counts).
The last sample (taken 30 s after the last request) is left out of the quarters and the slope.
  bench/soak/quarters.py DIR/samples.jsonl [--at 1000,3000,5900]
"""
import argparse
import json

KEYS = ["rssMb", "rssAnonMb", "rssFileMb", "heapMb", "heapHeldMb", "threads", "fds", "chromium",
        "chromiumPssMb"]


def slope_per_hour(samples, key):
    """Least-squares slope per hour, and its standard error (the samples' scatter around the
    line, over the spread of their times). Samples 5 s apart are not independent, so the error
    is a lower bound: it tells a slope lost in the scatter, not a proof of one."""
    xs = [s["t"] / 3600 for s in samples]
    ys = [s[key] for s in samples]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    den = sum((x - mx) ** 2 for x in xs)
    if not den or n < 3:
        return 0.0, 0.0
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den
    residual = sum((y - my - slope * (x - mx)) ** 2 for x, y in zip(xs, ys))
    return slope, (residual / (n - 2) / den) ** 0.5


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("samples")
    parser.add_argument("--at", default="")
    args = parser.parse_args()
    with open(args.samples) as f:
        samples = [json.loads(line) for line in f if line.strip()]
    under_load = samples[:-1]
    n = len(under_load)
    quarters = [under_load[i * n // 4:(i + 1) * n // 4] for i in range(4)]
    second = under_load[n // 2:]
    print(f"{n} samples under load, {samples[-2]['done']} requests, {samples[-2]['t']} s; "
          f"second half from request {second[0]['done']}")
    for key in KEYS:
        if key not in samples[-1]:
            continue
        means = ", ".join(f"{sum(s[key] for s in q) / len(q):.1f}" for q in quarters)
        lo, hi = min(s[key] for s in second), max(s[key] for s in second)
        slope, error = slope_per_hour(second, key)
        print(f"{key:14} quarters {means} | second half {lo}-{hi}, "
              f"{slope:+.1f} ± {error:.1f}/h | after idle {samples[-1][key]}")
    for at in filter(None, args.at.split(",")):
        past = next((s for s in samples if s["done"] >= int(at)), None)
        if past:
            print(f"at {at}: " + ", ".join(f"{k} {past[k]}" for k in KEYS if k in past))


if __name__ == "__main__":
    main()
