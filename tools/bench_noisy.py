#!/usr/bin/env python3
"""make bench-noisy: the cache probe beside a memory-bound neighbour.

The scenario of make test's "noisy neighbour" check, repeated: a quick cache
probe (up to 4 MiB) pinned to PU 0, alternately quiet and while `dd` streams
64 MiB blocks on PU 1. One probe at a time. Per run it records the L1 the
probe reports, the L1 estimate before the second look (>>probe-cache item 8,
from the probe's info log), how many points the second look lowered or added, in how many rounds, the
second look's time, the wall time, and any warning. Writes
bench_data/noisy_neighbour_runs.json and prints a summary.

  python3 tools/bench_noisy.py [N] [OUT]     N runs of each kind (default 20)
"""
import json, os, re, statistics, subprocess, sys, tempfile, time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20
OUT = sys.argv[2] if len(sys.argv) > 2 else "bench_data/noisy_neighbour_runs.json"
SERVET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bin", "servet")
LOOK = re.compile(r"second look \((\d+) rounds\) ([0-9.]+) s, (\d+) points lower or added \(first L1 estimate (\d+) B\)")


def one_run(loaded):
    d = tempfile.mkdtemp(prefix="servet-noisy-")
    env = dict(os.environ, SERVET_CACHE_DIR=d)
    load = None
    if loaded:
        load = subprocess.Popen(["taskset", "-c", "1", "dd", "if=/dev/zero", "of=/dev/null", "bs=64M",
                                 "count=100000"], stderr=subprocess.DEVNULL)
        time.sleep(0.3)
    t0 = time.time()
    pr = subprocess.run(["taskset", "-c", "0", SERVET, "probe", "--only", "cache", "--quick", "--force",
                         "--max-size", "4194304", "-v"], env=env, stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE, text=True)
    wall = time.time() - t0
    if load:
        load.kill(); load.wait()
    if pr.returncode != 0:  # a failed probe is a result too
        subprocess.run(["rm", "-rf", d])
        return {"loaded": loaded, "failed": pr.returncode, "stderr": pr.stderr[-2000:], "wall_s": round(wall, 3),
                "l1_bytes": None, "l1_reported_bytes": None, "l1_first_estimate_bytes": None,
                "second_look_rounds": None, "second_look_points_lowered_or_added": None, "second_look_s": None,
                "warnings": []}
    j = json.loads(subprocess.run([SERVET, "json", "--no-probe"], env=env, capture_output=True, text=True,
                                  check=True).stdout)
    subprocess.run(["rm", "-rf", d])
    m = LOOK.search(pr.stderr)
    c = j["caches"][0] if j.get("caches") else {}
    return {
        "loaded": loaded,
        "l1_bytes": c.get("size_bytes"),
        "l1_reported_bytes": c.get("reported_size_bytes"),
        "l1_first_estimate_bytes": int(m.group(4)) if m else None,
        "second_look_rounds": int(m.group(1)) if m else None,
        "second_look_points_lowered_or_added": int(m.group(3)) if m else None,
        "second_look_s": float(m.group(2)) if m else None,
        "wall_s": round(wall, 3),
        "warnings": [l for l in pr.stderr.splitlines() if "warning" in l],
    }


def summary(runs):
    ok = [r for r in runs if not r.get("failed")]
    right = sum(1 for r in ok if r["l1_bytes"] == r["l1_reported_bytes"])
    first_right = sum(1 for r in ok if r["l1_first_estimate_bytes"] == r["l1_reported_bytes"])
    warned_wrong = sum(1 for r in ok if r["l1_bytes"] != r["l1_reported_bytes"] and r["warnings"])
    silent_wrong = sum(1 for r in ok if r["l1_bytes"] != r["l1_reported_bytes"] and not r["warnings"])
    looks = [r["second_look_s"] for r in ok if r["second_look_s"] is not None]
    walls = [r["wall_s"] for r in runs]
    return {
        "runs": len(runs),
        "failed": sum(1 for r in runs if r.get("failed")),
        "l1_equals_os_figure": right,
        "l1_first_estimate_equals_os_figure": first_right,
        "l1_off_with_warning": warned_wrong,
        "l1_off_silently": silent_wrong,
        "second_look_s_median": statistics.median(looks) if looks else None,
        "second_look_s_range": [min(looks), max(looks)] if looks else None,
        "wall_s_median": statistics.median(walls),
        "wall_s_range": [min(walls), max(walls)],
    }


def main():
    runs = []
    for i in range(N):  # interleaved, so drift hits both kinds alike
        for loaded in (False, True):
            r = one_run(loaded)
            runs.append(r)
            print(f"run {i + 1:2d} {'loaded' if loaded else 'quiet '}: L1 {r['l1_bytes']} "
                  f"(first {r['l1_first_estimate_bytes']}, {r['second_look_points_lowered_or_added']} changed in {r['second_look_rounds']} rounds, "
                  f"look {r['second_look_s']} s, wall {r['wall_s']} s){' WARN' if r['warnings'] else ''}",
                  flush=True)
    out = {
        "what": "quick cache probe (max 4 MiB) pinned to PU 0, quiet vs beside dd bs=64M on PU 1, interleaved",
        "machine": subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"],
                                  capture_output=True, text=True).stdout.strip(),
        "date": time.strftime("%Y-%m-%d"),
        "command": f"python3 tools/bench_noisy.py {N} {OUT}",
        "quiet": summary([r for r in runs if not r["loaded"]]),
        "loaded": summary([r for r in runs if r["loaded"]]),
        "runs": runs,
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
    for k in ("quiet", "loaded"):
        print(k, json.dumps(out[k]))


if __name__ == "__main__":
    main()
