#!/usr/bin/env python3
"""Landscapes for tools/tune_replay.c from make bench-tile's JSON files:
    python3 tools/tune_replay.py [--pool] [--bin B] OUT.txt bench_data/tile_run*.json
one line per kernel and size: run kernel n seed_tile npoints, then
"tile rate spread" for every tile of the sweep; with --pool, a "#" line
before each group names its CPU model.

One sweep is itself a noisy measurement (spreads of 10-120% per tile on the
project's VMs): its best tile is partly the luckiest draw. --pool merges the
runs of one machine (same CPU model, kernel and size): the rate of a
tile is the median of the medians of the runs that swept it and its spread their
median spread, a landscape much closer to the machine's true one; one line
per distinct seed the runs' servet tiles gave.

Each line ends with "| " and the model's near-ties for that seed
(servet_tile.alternatives, which make bench-tune passes servet_tune as
more_seeds): bin/tile_replay --alternatives on the profile rebuilt from the
run's record (the first run of a group that gave the seed).
--bin B: the tile_replay binary (bin/tile_replay)."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_record import decide, replay_lines  # noqa: E402

args = sys.argv[1:]
pool, tile_bin = False, "bin/tile_replay"
while args and args[0].startswith("--"):
    opt = args.pop(0)
    if opt == "--pool": pool = True
    elif opt == "--bin": tile_bin = args.pop(0)
    else: sys.exit("unknown option " + opt)
if len(args) < 2:
    sys.exit("usage: tune_replay.py [--pool] [--bin TILE_REPLAY] OUT.txt TILE.json...")


def line(run, kernel, n, seed, sweep, alts):
    s = "%s %s %d %d %d" % (run, kernel, n, seed, len(sweep))
    for t, r, sp in sweep:
        s += " %d %.6g %.4f" % (t, r, sp)
    return s + " |" + "".join(" %d" % a for a in alts if a != seed) + "\n"


def near_ties(d, cases):
    """the model's alternatives for each case of run file d (replayed)"""
    lines = replay_lines(d, cases, 110.0)  # as make tile-replay: 110 ns where a run recorded no memory latency
    if not lines or not os.path.exists(tile_bin):
        return [[] for _ in cases]
    return [r[1:] for r in decide(tile_bin, lines, alternatives=True)]


with open(args[0], "w") as out:
    groups = {}
    for path in args[1:]:
        d = json.load(open(path))
        run = os.path.basename(path).replace(".json", "")
        cases = [c for c in d.get("cases", []) if "sweep" in c]
        for c, alts in zip(cases, near_ties(d, cases)):
            if not pool:
                out.write(line(run, c["kernel"], c["n"], c["servet_tile"], c["sweep"], alts))
                continue
            key = (d.get("cpu_model", "?"), c["kernel"], c["n"])
            g = groups.setdefault(key, {"runs": 0, "tiles": {}, "seeds": set(), "alts": {}})
            g["runs"] += 1
            for t, r, sp in c["sweep"]:
                g["tiles"].setdefault(t, []).append((r, sp))
            g["seeds"].add(c["servet_tile"])
            g["alts"].setdefault(c["servet_tile"], alts)
    for (cpu, kernel, n), g in sorted(groups.items()):
        sweep = [(t, statistics.median(r for r, _ in v), statistics.median(sp for _, sp in v))
                 for t, v in sorted(g["tiles"].items())]
        tag = "pool%d_%s" % (g["runs"], "".join(ch for ch in cpu.split("(")[0] if ch.isalnum())[:20])
        out.write("# %s %s %d: %d sweeps on %s\n" % (tag, kernel, n, g["runs"], cpu))
        for seed in sorted(g["seeds"]):
            out.write(line(tag, kernel, n, seed, sweep, g["alts"][seed]))
