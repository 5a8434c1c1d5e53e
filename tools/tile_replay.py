#!/usr/bin/env python3
"""make tile-replay: the tile model replayed on every machine make bench-tile
measured, scored against the measured sweeps (no kernel runs):
    python3 tools/tile_replay.py [--bin B] [--base B0] [--mem NS] OUT.txt TILE.json...
For each run file, the profile it recorded (its cache file, since
2026-12-03: the decisions are the run's own) or one rebuilt from its
figures (see tools/tile_replay.c) and bin/tile_replay decides every case's tile; the
score of a tile is its rate in that run's sweep over the sweep's best (a
tile off the sweep's grid - multiples of 8 up to 512, and the extent - is
counted apart, unknown). A run of make bench-tile-vector is replayed as it
described its kernels (its kernel_vector); without one, TILE_KERNEL_VECTOR
from the environment applies. --base: a second tile_replay binary (an older
model: servet.h as it was, built with this tools/tile_replay.c, whose input
lines it must read) scored beside it. Per CPU model: the mean score of the
transposes and matmuls (the stencils are untiled everywhere) and how many
are at 0.95 or more. One sweep is a noisy measurement (its best is partly the
luckiest draw): compare models on the same files, not with make bench-tile's
side-by-side ratios."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tile_record import decide, machine_class, replay_lines  # noqa: E402

args = sys.argv[1:]
binary, base, mem = "bin/tile_replay", None, 110.0
while args and args[0].startswith("--"):
    opt = args.pop(0)
    if opt == "--bin": binary = args.pop(0)
    elif opt == "--base": base = args.pop(0)
    elif opt == "--mem": mem = float(args.pop(0))
    else: sys.exit("unknown option " + opt)
if len(args) < 2:
    sys.exit("usage: tile_replay.py [--bin B] [--base B0] [--mem NS] OUT.txt TILE.json...")
out_path, files = args[0], args[1:]


def score(case, t):
    sweep = {int(s[0]): s[1] for s in case["sweep"]}
    best = max(sweep.values())
    ext = case["n"] - 4 if case["kernel"] == "stencil" else case["n"]
    if t in sweep:
        return sweep[t] / best
    full = [k for k in sweep if k >= ext]
    if t >= ext and full:
        return sweep[max(full)] / best
    return None


models = [("model", binary)] + ([("base", base)] if base else [])
rows, summary = [], {}
for f in files:
    try:
        d = json.load(open(f))
    except (OSError, ValueError):
        continue
    cases = [c for c in d.get("cases", []) if "sweep" in c]
    lines = replay_lines(d, cases, mem) if cases else None
    if not lines:
        continue
    cls = machine_class(d)
    row = f.split("/")[-1]
    for name, exe in models:
        tiles = decide(exe, lines, vector=d.get("kernel_vector"))  # a run that recorded it: as it described its kernels
        cells = []
        for c, t in zip(cases, tiles):
            s = score(c, t)
            cells.append("%d(%s)" % (t, "%.2f" % s if s is not None else "?"))
            if c["kernel"] != "stencil":
                summary.setdefault((cls, name, c["kernel"]), []).append(s)
        row += "\n  %s: %s" % (name, " ".join(cells))
    rows.append(row)

with open(out_path, "w") as o:
    o.write("make tile-replay: servet_choose_tile on each run's recorded profile (or one rebuilt from its figures), scored on its sweep\n")
    o.write("(score: the chosen tile's sweep rate / the sweep's best; ?: a tile off the sweep's grid; memory latency %.0f ns where not recorded)\n\n" % mem)
    for r in rows:
        o.write(r + "\n")
    o.write("\nper machine (transpose and matmul; the stencils are untiled everywhere):\n")
    for key in sorted(summary):
        v = [x for x in summary[key] if x is not None]
        o.write("  %-46s %-5s %-9s n %2d  off-grid %d  mean %.3f  >= 0.95: %d\n" % (
            key[0], key[1], key[2], len(v), len(summary[key]) - len(v), sum(v) / len(v) if v else 0.0, sum(x >= 0.95 for x in v)))
print(open(out_path).read().split("per machine")[1])
