#!/usr/bin/env python3
"""The live bytes of a heaptrack recording, by allocation site (bench/soak/run.sh --heaptrack).

Reads heaptrack_print's flame-graph stacks with the "leaked" cost (each line: frames from the
root, ';'-separated, then the bytes still allocated at the end) and sums the bytes by the innermost
gleaner function of each stack (the allocator's and the standard library's frames above it left
out), or by the innermost frame when no gleaner function is on the stack.
  live_by_site.py STACKS [--depth N] [--top K] [--against OTHER_STACKS]
--depth N: key on the N innermost gleaner functions (caller chain). --against: print each site's
growth from OTHER_STACKS (a shorter run) to STACKS instead.
"""
import argparse
import collections
import re


def live_by_site(path, depth):
    sites = collections.Counter()
    with open(path, errors="replace") as stacks:
        for line in stacks:
            stack, _, cost = line.rstrip("\n").rpartition(" ")
            frames = [f for f in stack.split(";") if f]
            ours = [re.sub(r"\(.*", "", f).strip() for f in frames if "gleaner::" in f]
            if ours:
                key = " < ".join(reversed(ours[-depth:]))
            else:
                key = "(outside gleaner) " + (frames[-1][:100] if frames else "?")
            sites[key] += int(cost)
    return sites


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("stacks")
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--against")
    args = parser.parse_args()
    sites = live_by_site(args.stacks, args.depth)
    if args.against:
        before = live_by_site(args.against, args.depth)
        growth = {k: sites[k] - before[k] for k in set(sites) | set(before)}
        print(f"live: {sum(before.values()) / 1e6:.2f} MB -> {sum(sites.values()) / 1e6:.2f} MB")
        for key, grown in sorted(growth.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"{grown / 1e3:+10.1f} KB  {key[:240]}")
        return
    print(f"live: {sum(sites.values()) / 1e6:.2f} MB")
    for key, size in sites.most_common(args.top):
        print(f"{size / 1e3:10.1f} KB  {key[:240]}")


if __name__ == "__main__":
    main()
