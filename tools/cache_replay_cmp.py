#!/usr/bin/env python3
"""Compare two outputs of tools/cache_replay.py (before and after a change to
the inference or the sweep's mark) on every recorded probe:
    python3 tools/cache_replay_cmp.py BEFORE.txt AFTER.txt
Per run, L1 and L2 (where the OS figure is at most 4 MiB) count as right when
within 5% of the OS figure - the OS figure itself where the fit's range holds
it (what the profile keeps), else the estimate. Prints each run that changed,
the files whose counts changed, and the totals."""
import json, sys, os, re, glob
HERE = os.path.dirname(os.path.abspath(__file__))
files = sorted(glob.glob(os.path.join(HERE, '..', 'bench_data', 'cache_probe_runs*.json')))
rep = {}
for f in files:
    d = json.load(open(f))
    for i, r in enumerate(d['runs']):
        name = "%s#%d%s" % (os.path.basename(f), i + 1, "b" if r.get("busy_neighbour") else "q")
        rep[name] = {l['level']: l.get('reported_size_bytes') for l in r['levels']}
def parse(path):
    out = {}
    for line in open(path):
        w = line.split()
        if not w or '#' not in w[0]: continue
        name = w[0]; lv = {}
        for m in re.finditer(r'L(\d) (\d+)K \[(\d+)K (\d+)K\]', line):
            lv[int(m.group(1))] = tuple(float(m.group(k)) * 1024 for k in (2, 3, 4))
        out[name] = lv
    return out
a, b = parse(sys.argv[1]), parse(sys.argv[2])
def ok(lv, L, os_):
    if L not in lv or not os_: return None
    est, lo, hi = lv[L]
    size = os_ if lo <= os_ <= hi else est
    return abs(size / os_ - 1) <= 0.05 + 1e-12
tot = {}
for name in a:
    if name not in b or name not in rep: continue
    f = name.split('#')[0]
    for L in (1, 2):
        os_ = rep[name].get(L)
        if not os_ or os_ > 4 * 1048576: continue
        x, y = ok(a[name], L, os_), ok(b[name], L, os_)
        if x is None or y is None: continue
        t = tot.setdefault((f, L), [0, 0, 0])
        t[0] += 1; t[1] += x; t[2] += y
        if x != y: print("CHANGED", name, "L%d" % L, "os %.0fK" % (os_ / 1024), "before", [round(v / 1024) for v in a[name][L]], "after", [round(v / 1024) for v in b[name][L]])
A = [0, 0, 0, 0, 0, 0]
for (f, L), t in sorted(tot.items()):
    if t[1] != t[2]: print(f, "L%d" % L, "runs %d before %d after %d" % tuple(t))
    A[0 if L == 1 else 3] += t[0]; A[1 if L == 1 else 4] += t[1]; A[2 if L == 1 else 5] += t[2]
print("all: L1 %d runs, within 5%% before %d after %d; L2 %d runs, before %d after %d" % tuple(A))
