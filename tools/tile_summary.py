#!/usr/bin/env python3
"""The README's tile table from make bench-tune's run files:
    python3 tools/tile_summary.py TILE.json... [--tune TUNE.json...] [--fixed]
For each kernel and size over the runs given: servet's tiles, the sweeps'
best tiles, ratio (servet's tile against the sweep's best, re-timed side by
side) min / median / max and how many runs fell under 0.95, the medians of
tiles 32, 64 and untiled over each sweep's best; with --tune, servet_tune's
tuned / best min / median, how many under 0.98, the most points (and runs)
it used, and how often it kept the seed or left it for a better or a worse
point. Then the counts over every case and over every run (a file: the runs
whose every case met the goal), decision and warm lookup times, each tile
miss with the host's state its run recorded (host_llc_chase_ns, since run
141) and each tuner's miss with its seed and its tuned tile. With --fixed,
for each kernel and size, the grid's tiles ranked by their median rate over
the sweeps against each sweep's best (the sweeps' own medians, not the
side-by-side re-timing): the five first, servet's, in how many sweeps each
held 0.95 - whether any one tile, fixed in advance, could have met the goal
in these runs - and in how many sweeps each ran behind servet's tile of that
sweep; and the tile that held 0.95 in the most sweeps, if not among them. The README
(Tile size, Measured) quotes it for runs 133-199 on the Zen 5 VM (bash):
    python3 tools/tile_summary.py bench_data/tile_run1{33..99}_zen5.json \\
        --tune bench_data/tune_run1{20..86}_zen5.json"""
import json
import statistics
import sys

tiles, tunes = [], []
into = tiles
fixed = False
for a in sys.argv[1:]:
    if a == "--tune":
        into = tunes
    elif a == "--fixed":
        fixed = True
    else:
        into.append(a)
if not tiles:
    sys.exit("usage: tile_summary.py TILE.json... [--tune TUNE.json...] [--fixed]")


def load(files):
    cases, order = {}, []
    for f in files:
        for c in json.load(open(f)).get("cases", []):
            c["_file"] = f
            k = (c["kernel"], c["n"], c.get("m", 0))
            if k not in cases:
                order.append(k)
            cases.setdefault(k, []).append(c)
    return cases, order


def span(v):
    v = sorted(set(v))
    return ", ".join(str(x) for x in v)


TILE_GOAL, TUNE_GOAL = 0.95, 0.98  # issue 11: servet / best; issue 18: tuned / best
T, order = load(tiles)
U, _ = load(tunes)
print("kernel n m | servet | sweep's best | ratio min / median / max (< %.2f) | t32 t64 untiled | tuned min / median (< %.2f) | points (runs)" % (
    TILE_GOAL, TUNE_GOAL))
under, total, tu_under, tu_total, dec, warm = 0, 0, 0, 0, [], []
missed_t, missed_u = set(), set()  # the run files with a case under the goal
moves = [0, 0, 0]  # the tuner kept its seed, left it for a point > 2% better, > 2% worse (its check)
for k in order:
    v = T[k]
    rs = [c["ratio"] for c in v]
    rel = lambda key: statistics.median([c[key] / c["best_rate"] for c in v if c.get(key)])
    n_under = sum(r < TILE_GOAL for r in rs)
    missed_t |= set(c["_file"] for c in v if c["ratio"] < TILE_GOAL)
    under, total = under + n_under, total + len(rs)
    dec += [c["decision_seconds"] for c in v if "decision_seconds" in c]
    line = "%s %d %d | %s | %s | %.3f / %.3f / %.3f (%d of %d) | %.2f %.2f %.2f" % (
        k[0], k[1], k[2], span(c["servet_tile"] for c in v), span(c["best_tile"] for c in v),
        min(rs), statistics.median(rs), max(rs), n_under, len(rs),
        rel("rate_tile32"), rel("rate_tile64"), rel("rate_untiled"))
    if k in U:
        u = U[k]
        tv = [c["tuned_vs_best"] for c in u]
        t_under = sum(x < TUNE_GOAL for x in tv)
        missed_u |= set(c["_file"] for c in u if c["tuned_vs_best"] < TUNE_GOAL)
        tu_under, tu_total = tu_under + t_under, tu_total + len(tv)
        for c in u:
            if c["tuned_tile"] == c["seed_tile"]:
                moves[0] += 1
            elif c["tuned_vs_best"] > c["seed_vs_best"] + 0.02:
                moves[1] += 1
            elif c["tuned_vs_best"] < c["seed_vs_best"] - 0.02:
                moves[2] += 1
        warm += [c["warm_lookup_seconds"] for c in u if "warm_lookup_seconds" in c]
        line += " | %.3f / %.3f (%d of %d) | %d of %d (runs: %d of %d)" % (
            min(tv), statistics.median(tv), t_under, len(tv), max(c["tune_points"] for c in u), u[0]["sweep_points"],
            max(c["tune_runs"] for c in u), u[0]["sweep_runs"])
    print(line)
print("tile: %d of %d at %.2f or more" % (total - under, total, TILE_GOAL), end="")
if dec:
    print("; decisions %.0f-%.0f us" % (1e6 * min(dec), 1e6 * max(dec)), end="")
print()
if tu_total:
    print("tune: %d of %d within 2%%; warm lookups %.0f-%.0f us; kept the seed in %d, left it for a point"
          " more than 2%% better in %d, worse in %d" % (
        tu_total - tu_under, tu_total, 1e6 * min(warm), 1e6 * max(warm), moves[0], moves[1], moves[2]))
# the runs whose every case met the goal (a run: one file)
print("tile: all cases at %.2f or more in %d of %d runs" % (TILE_GOAL, len(tiles) - len(missed_t), len(tiles)))
if tu_total:
    print("tune: all cases within 2%% in %d of %d runs" % (len(tunes) - len(missed_u), len(tunes)))
# each miss with the host's state its run recorded (bench_tile.c's walk over
# the last level's size, ns a step: near the L3's latency where the host let
# the VM keep its share, near memory's where other tenants took it)
for k in order:
    for c in T[k]:
        if c["ratio"] < TILE_GOAL:
            g = c.get("host_llc_chase_ns")
            print("  miss: %s %d %d, %s: servet %d, best %d, %.3f%s" % (
                k[0], k[1], k[2], c["_file"], c["servet_tile"], c["best_tile"], c["ratio"],
                "; last-level walk %.0f / %.0f ns before / after" % (g[0], g[1]) if g else ""))
# each tuner's miss: where it started, where it ended, both against the
# sweep's best in the run's check (side by side)
for k in order:
    for c in U.get(k, []):
        if c["tuned_vs_best"] < TUNE_GOAL:
            print("  tune miss: %s %d %d, %s: seed %d (%.3f), tuned %d (%.3f) in %d points" % (
                k[0], k[1], k[2], c["_file"], c["seed_tile"], c["seed_vs_best"], c["tuned_tile"],
                c["tuned_vs_best"], c["tune_points"]))
# --fixed: every tile of the grid against each sweep's best, and against
# servet's tile in the same sweep
if fixed:
    print("fixed tiles: median / min of rate / the sweep's best, sweeps at %.2f or more, sweeps servet's tile ran ahead of it" % TILE_GOAL)
    for k in order:
        per, ahead = {}, {}
        mine = set(c["servet_tile"] for c in T[k])
        for c in T[k]:
            rate = {}  # a tile listed twice (the matmul's 512, also its extent): its faster median
            for r in c.get("sweep", []):
                rate[r[0]] = max(rate.get(r[0], 0.0), r[1])
            if not rate:
                continue
            best, own = max(rate.values()), rate.get(c["servet_tile"])
            for t in rate:
                per.setdefault(t, []).append(rate[t] / best)
                if own is not None:
                    ahead[t] = ahead.get(t, 0) + (own > rate[t])
        rank = sorted(per, key=lambda t: -statistics.median(per[t]))
        show = rank[:5] + [t for t in rank[5:] if t in mine]
        # and the tile that held 0.95 in the most sweeps, where the five by
        # median leave it out: "no tile held it in more than N" rests on it
        held = {t: sum(x >= TILE_GOAL for x in per[t]) for t in rank}
        most = max(rank, key=held.get)  # the first in rank among equals
        if most not in show:
            show.append(most)
        print("  %s %d %d (%d sweeps): %s" % (k[0], k[1], k[2], len(T[k]), "; ".join(
            "%s%d %.3f / %.3f %d%s" % ("servet " if t in mine else "", t, statistics.median(per[t]),
                                       min(per[t]), held[t],
                                       "" if t in mine else ", behind %d" % ahead.get(t, 0)) for t in show)))
