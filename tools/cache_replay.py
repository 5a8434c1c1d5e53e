#!/usr/bin/env python3
"""Feed the curves a cache_probe_runs*.json recorded to bin/cache_replay.

usage: cache_replay.py RUNS.json [RUNS.json ...]
Prints, per run, the raw estimates the current inference gives on that run's
curves, beside what the probe reported then (L2 and the last level). Files
written before page sizes were recorded: the cyclic curve is taken as
measured on 2 MiB pages (THP granted), the other two on 4 KiB.
CACHE_REPLAY_BIN=PATH runs another build of the replayer (one built with
-DSERVET_DEBUG_IRM prints the second walk's calibration).
CACHE_REPLAY_OS=0 leaves out the sizes the OS reported (each run's record
has them; the second walk's referee, servet__irm_referee, reads them).
CACHE_REPLAY_EXCL=0,0,1 says which levels (from L1) are victim caches, as the
probe takes them from the OS (the records do not keep it): they are fitted as
such and printed less the level above.
CACHE_REPLAY_WAYS=8,8,16 gives the levels' associativity from L1 (the records
do not keep it; the TLB walk's own lines are placed with it; unsaid: 8), and
CACHE_REPLAY_TLB=1 prints the TLB reaches on each run's line.
CACHE_REPLAY_MARK=BYTES (CACHE_REPLAY_MARK_OVER=X) re-applies the sweep's final
mark to each recorded cyclic curve first (see tools/cache_replay.c);
tools/cache_replay_cmp.py compares two outputs.
"""
import json, os, subprocess, sys

BIN = os.environ.get("CACHE_REPLAY_BIN") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bin", "cache_replay")
text, names, then, os_l2 = [], [], {}, {}
if os.environ.get("CACHE_REPLAY_WAYS"):
    text.append("ways " + " ".join(os.environ["CACHE_REPLAY_WAYS"].split(",")))
if os.environ.get("CACHE_REPLAY_EXCL"):
    text.append("excl " + " ".join(os.environ["CACHE_REPLAY_EXCL"].split(",")))
for f in sys.argv[1:]:
    d = json.load(open(f))
    for i, r in enumerate(d["runs"]):
        name = "%s#%d%s" % (os.path.basename(f), i + 1, "b" if r.get("busy_neighbour") else "q")
        rep = {l["level"]: l.get("reported_size_bytes") or 0 for l in r["levels"]}
        if rep and os.environ.get("CACHE_REPLAY_OS", "1") != "0":  # the OS's sizes, for servet__irm_referee
            text.append("os " + " ".join(str(int(rep.get(k, 0))) for k in range(1, max(rep) + 1)))
        text.append("run " + name)
        pages = r.get("page_bytes", {})
        for kind, key, page in (("c", "curve", 2097152), ("t", "tlb_curve", 4096), ("i", "independent_curve", 4096)):
            pts = r.get(key) or []
            text.append("%s %d" % (kind, pages.get(key) or page))
            text += ["%r %r %r" % (p[0], p[1], p[2] if len(p) > 2 else 0.0) for p in pts]
        text.append("end")
        then[name] = " ".join("L%d %.0fK" % (l["level"], l["estimate_bytes"] / 1024) for l in r["levels"])
        os_l2[name] = ([l.get("reported_size_bytes") for l in r["levels"] if l["level"] == 2] or [None])[0]
out = subprocess.run([BIN], input="\n".join(text) + "\n", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True).stdout
ok, total, conf = {}, {}, {}
for line in out.splitlines():
    name = line.split()[0]
    print("%s\n    then: %s" % (line, then.get(name, "?")))
    f = name.split("#")[0]
    w = line.split()
    if os_l2.get(name) and "L2" in w:
        l2 = float(w[w.index("L2") + 1].rstrip("K")) * 1024
        total[f] = total.get(f, 0) + 1
        ok[f] = ok.get(f, 0) + (abs(l2 / os_l2[name] - 1) <= 0.05 + 1e-12)
        # the size the profile keeps: the OS figure where the range holds it
        j = w.index("L2")
        lo, hi = (float(x.strip("[]K")) * 1024 for x in w[j + 2:j + 4])
        size = os_l2[name] if lo <= os_l2[name] <= hi else l2
        conf[f] = conf.get(f, 0) + (abs(size / os_l2[name] - 1) <= 0.05 + 1e-12)
for f in total:
    print("%s: L2 within 5%% of the OS figure in %d of %d runs (estimate), %d (size, the OS's where the range holds it)"
          % (f, ok[f], total[f], conf[f]))
