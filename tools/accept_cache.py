#!/usr/bin/env python3
"""make bench-cache: the cache probe's acceptance on this machine.

Runs `servet probe --only cache --force` N times quiet and N times while a busy
loop spins on another PU (one at a time, never two measurements at once), and
records per run: the sizes found, the wall time, and for the last level the
latency of the measured curve at half and at twice the reported size.
Writes bench_data/cache_probe_runs.json and prints a summary table.
"""
import json, os, subprocess, sys, tempfile, time, statistics, math

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10
OUT = sys.argv[2] if len(sys.argv) > 2 else "bench_data/cache_probe_runs.json"
SERVET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bin", "servet")

def curve_at(points, b):
    pts = [(p[0], p[1]) for p in points]
    if b <= pts[0][0]: return pts[0][1]
    for (b0, v0), (b1, v1) in zip(pts, pts[1:]):
        if b <= b1:
            f = (math.log(b) - math.log(b0)) / (math.log(b1) - math.log(b0))
            return math.exp(math.log(v0) + f * (math.log(v1) - math.log(v0)))
    return None  # beyond the curve

def steal_jiffies():
    # the hypervisor's steal column of /proc/stat (all CPUs): time this VM's
    # vCPUs were runnable and not run - the host's neighbours
    try:
        with open("/proc/stat") as f:
            v = f.readline().split()
        return int(v[8]) if len(v) > 8 else 0
    except (OSError, ValueError):
        return 0


def one_run(busy):
    d = tempfile.mkdtemp(prefix="servet-accept-")
    env = dict(os.environ, SERVET_CACHE_DIR=d)
    spinner = None
    if busy:
        spinner = subprocess.Popen(["taskset", "-c", "1", "sh", "-c", "while :; do :; done"])
        time.sleep(0.5)
    t0, st0, ru0 = time.time(), steal_jiffies(), os.times()
    subprocess.run(["taskset", "-c", "0", SERVET, "probe", "--only", "cache", "--force"], env=env,
                   stdout=subprocess.DEVNULL, check=True)
    wall = time.time() - t0
    ru1 = os.times()
    cpu = (ru1.children_user - ru0.children_user) + (ru1.children_system - ru0.children_system)
    steal = (steal_jiffies() - st0) / os.sysconf("SC_CLK_TCK")
    if spinner:
        spinner.kill(); spinner.wait()
    j = json.loads(subprocess.run([SERVET, "json", "--no-probe"], env=env, capture_output=True, text=True,
                                  check=True).stdout)
    subprocess.run(["rm", "-rf", d])
    caches = [c for c in j["caches"] if c["size_bytes"]]
    last = caches[-1]["size_bytes"] if caches else None
    pts = j["curves"]["primary"]["points"]
    half = curve_at(pts, last / 2) if last else None
    twice = curve_at(pts, last * 2) if last else None
    return {"busy_neighbour": busy, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "steal_s": round(steal, 2),
            "levels": [{"level": c["level"], "size_bytes": c["size_bytes"], "estimate_bytes": c["estimate_bytes"],
                        "reported_size_bytes": c.get("reported_size_bytes"), "range_bytes": c.get("range_bytes"),
                        "method": c["method"], "latency_ns": c["latency_ns"]} for c in caches],
            "memory_latency_ns": j["memory_latency_ns"],
            "tlb_reach_bytes": [t["reach_bytes"] for t in j["tlb"]],
            "last_level_latency_at_half_ns": half, "last_level_latency_at_twice_ns": twice,
            "curve": pts,
            "page_bytes": {key: j["curves"].get(name, {}).get("page_bytes")
                           for key, name in (("curve", "primary"), ("tlb_curve", "tlb"),
                                             ("independent_curve", "independent"))},
            # the TLB walk and the second walk too: with them a run can be inferred again offline
            # (servet_infer_caches_irm is public) when a reading needs explaining
            "tlb_curve": j["curves"].get("tlb", {}).get("points"),
            "independent_curve": j["curves"].get("independent", {}).get("points")}

runs = []
for busy in (False, True):
    for i in range(N):
        r = one_run(busy)
        runs.append(r)
        lv = " ".join("L%d=%.4gK" % (l["level"], l["size_bytes"] / 1024) for l in r["levels"])
        print("%-5s run %2d  %5.1f s (cpu %.1f, stolen %.1f)  %s  half/twice %.1f/%s ns" % (
              "busy" if busy else "quiet", i + 1, r["wall_s"], r["cpu_s"], r["steal_s"], lv,
              r["last_level_latency_at_half_ns"] or 0,
              "%.1f" % r["last_level_latency_at_twice_ns"] if r["last_level_latency_at_twice_ns"] else "beyond"), flush=True)

def within(r, level, tol=0.05, key="size_bytes"):
    """the measured size of `level` within tol of what the OS reports (issue 14's acceptance);
    key="estimate_bytes": the raw estimate, before the OS figure was confirmed inside its range;
    the bound included, as bench_accuracy.c counts it (0.95 x 30 MiB is 5% off, though 1 - 0.95
    rounds to 0.050000000000000044)"""
    lv = [l for l in r["levels"] if l["level"] == level]
    return bool(lv) and bool(lv[0].get("reported_size_bytes")) and \
        abs(lv[0][key] / lv[0]["reported_size_bytes"] - 1) <= tol + 1e-12

def summary(rs):
    last = [r["levels"][-1]["size_bytes"] for r in rs if r["levels"]]
    med = statistics.median(last)
    return {"runs": len(rs), "l1_within_5pct_of_os": sum(within(r, 1) for r in rs),
            "l2_within_5pct_of_os": sum(within(r, 2) for r in rs),
            "l1_raw_estimate_within_5pct": sum(within(r, 1, key="estimate_bytes") for r in rs),
            "l2_raw_estimate_within_5pct": sum(within(r, 2, key="estimate_bytes") for r in rs),
            "l2_estimates_kib": [l["estimate_bytes"] / 1024 for r in rs for l in r["levels"] if l["level"] == 2],
            "l2_sizes_kib": [l["size_bytes"] / 1024 for r in rs for l in r["levels"] if l["level"] == 2],
            "levels_found": [len(r["levels"]) for r in rs],
            "last_level_median_bytes": med, "last_level_min_bytes": min(last), "last_level_max_bytes": max(last),
            "last_level_within_25pct_of_median": sum(1 for v in last if abs(v / med - 1) <= 0.25),
            "half_below_twice": sum(1 for r in rs if r["last_level_latency_at_half_ns"] and
                                    r["last_level_latency_at_twice_ns"] and
                                    r["last_level_latency_at_half_ns"] * 1.5 < r["last_level_latency_at_twice_ns"]),
            "wall_s_median": statistics.median([r["wall_s"] for r in rs]), "wall_s_max": max(r["wall_s"] for r in rs),
            "cpu_s_max": max(r["cpu_s"] for r in rs), "steal_s_max": max(r["steal_s"] for r in rs)}

from cpu_model import cpu_model  # tools/cpu_model.py

res = {"benchmark": "servet probe --only cache --force, repeated", "date": time.strftime("%Y-%m-%d"),
       "cpu_model": cpu_model(),
       "quiet": summary([r for r in runs if not r["busy_neighbour"]]),
       "busy_neighbour": summary([r for r in runs if r["busy_neighbour"]]), "runs": runs}
with open(OUT, "w") as f:
    json.dump(res, f, indent=1)
for k in ("quiet", "busy_neighbour"):
    print(k, json.dumps(res[k]))
print("wrote", OUT)
