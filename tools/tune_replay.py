#!/usr/bin/env python3
"""Landscapes for tools/tune_replay.c from make bench-tile's JSON files:
    python3 tools/tune_replay.py [--pool] OUT.txt bench_data/tile_run*.json
one line per kernel and size: run kernel n seed_tile npoints, then
"tile rate spread" for every tile of the sweep; with --pool, a "#" line
before each group names its CPU model.

One sweep is itself a noisy measurement (spreads of 10-120% per tile on the
project's VMs): its best tile is partly the luckiest draw. --pool merges the
runs of one machine (same CPU model, kernel and size): the rate of a
tile is the median of the medians of the runs that swept it and its spread their
median spread, a landscape much closer to the machine's true one; one line
per distinct seed the runs' servet tiles gave."""
import json
import os
import statistics
import sys

args = sys.argv[1:]
pool = bool(args) and args[0] == "--pool"
if pool:
    args = args[1:]
if len(args) < 2:
    sys.exit("usage: tune_replay.py [--pool] OUT.txt TILE.json...")


def line(run, kernel, n, seed, sweep):
    s = "%s %s %d %d %d" % (run, kernel, n, seed, len(sweep))
    for t, r, sp in sweep:
        s += " %d %.6g %.4f" % (t, r, sp)
    return s + "\n"


with open(args[0], "w") as out:
    groups = {}
    for path in args[1:]:
        d = json.load(open(path))
        run = os.path.basename(path).replace(".json", "")
        for c in d["cases"]:
            if not pool:
                out.write(line(run, c["kernel"], c["n"], c["servet_tile"], c["sweep"]))
                continue
            key = (d.get("cpu_model", "?"), c["kernel"], c["n"])
            g = groups.setdefault(key, {"runs": 0, "tiles": {}, "seeds": set()})
            g["runs"] += 1
            for t, r, sp in c["sweep"]:
                g["tiles"].setdefault(t, []).append((r, sp))
            g["seeds"].add(c["servet_tile"])
    for (cpu, kernel, n), g in sorted(groups.items()):
        sweep = [(t, statistics.median(r for r, _ in v), statistics.median(sp for _, sp in v))
                 for t, v in sorted(g["tiles"].items())]
        tag = "pool%d_%s" % (g["runs"], "".join(ch for ch in cpu.split("(")[0] if ch.isalnum())[:20])
        out.write("# %s %s %d: %d sweeps on %s\n" % (tag, kernel, n, g["runs"], cpu))
        for seed in sorted(g["seeds"]):
            out.write(line(tag, kernel, n, seed, sweep))
