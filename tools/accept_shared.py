#!/usr/bin/env python3
"""make bench-shared: the shared-cache and memory probes, N runs on this machine.

One cache probe first (their arrays are sized from it), then N runs of
`servet probe --only shared,memory --force`, one at a time. Records per run
the sharing verdict and ratio of every measured pair per level, the copy
bandwidth alone and in pairs, and the wall time. Writes JSON, prints a table.
"""
import json, os, subprocess, sys, tempfile, time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 5
OUT = sys.argv[2] if len(sys.argv) > 2 else "bench_data/shared_memory_runs.json"
SERVET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bin", "servet")
d = tempfile.mkdtemp(prefix="servet-shared-")
env = dict(os.environ, SERVET_CACHE_DIR=d)
subprocess.run([SERVET, "probe", "--only", "cache"], env=env, stdout=subprocess.DEVNULL, check=True)
runs = []
for i in range(N):
    t0 = time.time()
    subprocess.run([SERVET, "probe", "--only", "shared,memory", "--force"], env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.time() - t0
    j = json.loads(subprocess.run([SERVET, "json", "--no-probe"], env=env, capture_output=True, text=True, check=True).stdout)
    levels = []
    for c in j["caches"]:
        if "sharing" not in c: continue
        s = c["sharing"]
        levels.append({"level": c["level"], "array_bytes": s["array_bytes"], "threshold": s["threshold"],
                       "shared_by": c["shared_by"], "reported_shared_by": c["reported_shared_by"],
                       "pairs": [{"pus": p["pus"], "ratio": p["ratio"]} for p in s["pairs"]]})
    m = j["memory"]
    run = {"wall_s": round(wall, 2), "levels": levels, "ref_bandwidth_bytes_per_s": m["ref_bandwidth_bytes_per_s"],
           "ref_spread": m["ref_spread"], "tolerance": m["tolerance"],
           "pairs": m["pairs"], "memory_levels": m["levels"], "scaling": m["scaling"]}
    runs.append(run)
    desc = "  ".join("L%d %s ratio %s thr %.2f" % (l["level"], "shared" if l["shared_by"] else "private",
                     ",".join("%.2f" % p["ratio"] for p in l["pairs"]), l["threshold"]) for l in levels)
    print("run %d  %4.1f s  %s  | copy alone %.2f GB/s, in pair %s" % (i + 1, wall, desc, m["ref_bandwidth_bytes_per_s"] / 1e9,
          ",".join("%.2f" % (p["bandwidth_bytes_per_s"] / 1e9) for p in m["pairs"])), flush=True)
subprocess.run(["rm", "-rf", d])
summary = {}
for lv in range(len(runs[0]["levels"])):
    verdicts = [bool(r["levels"][lv]["shared_by"]) for r in runs]
    ratios = [p["ratio"] for r in runs for p in r["levels"][lv]["pairs"]]
    summary["L%d" % (lv + 1)] = {"shared_runs": sum(verdicts), "private_runs": len(verdicts) - sum(verdicts),
                                 "ratio_min": min(ratios), "ratio_max": max(ratios)}
bw = [r["ref_bandwidth_bytes_per_s"] for r in runs]
pairbw = [p["bandwidth_bytes_per_s"] for r in runs for p in r["pairs"]]
summary["copy_alone_GBps"] = {"min": min(bw) / 1e9, "max": max(bw) / 1e9}
summary["copy_in_pair_GBps"] = {"min": min(pairbw) / 1e9, "max": max(pairbw) / 1e9}
summary["wall_s_max"] = max(r["wall_s"] for r in runs)
res = {"benchmark": "servet probe --only shared,memory --force, repeated", "date": time.strftime("%Y-%m-%d"),
       "summary": summary, "runs": runs}
json.dump(res, open(OUT, "w"), indent=1)
print(json.dumps(summary))
print("wrote", OUT)
