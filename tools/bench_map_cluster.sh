#!/usr/bin/env bash
# issue 12 on the emulated cluster (root): examples/halo started with a bad
# placement (--scatter: every grid edge crosses nodes), with and without
# servet_mpi_reorder (priced without a profile: another node 10, the same
# node 1 per byte; and priced by the job's comm layers measured under the
# same link: --profile), 4 and 8 ranks over 2 nodes, the link rate-limited to
# 200 Mbit/s; R interleaved repeats each; medians.
#   tools/bench_map_cluster.sh OUT.json [R]
set -u
cd "$(dirname "$0")/.."
out=${1:-bench_data/mapping_cluster.json}
R=${2:-5}
[ "$(id -u)" = 0 ] || { echo "bench_map_cluster: needs root (network namespaces)" >&2; exit 77; }
[ -x examples/halo ] || { echo "bench_map_cluster: build examples/halo first (make examples/halo)" >&2; exit 1; }
export SERVET_CLUSTER_ID=hm$$
here=tests/cluster
tmp=$(mktemp -d)
trap '"$here/cluster.sh" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
"$here/cluster.sh" up 2 >/dev/null
"$here/cluster.sh" tbf 200mbit
for np in 4 8; do
  for r in $(seq 1 "$R"); do
    for mode in plain reorder profile; do
      flag=""; [ $mode = reorder ] && flag=--reorder; [ $mode = profile ] && flag="--reorder --profile"
      line=$(timeout 300 "$here/cluster.sh" mpirun -np $np "$PWD/examples/halo" --n 512 --width 16 --iters 40 --scatter $flag 2>"$tmp/err" | tail -1)
      echo "$np $mode $r $line" | tee -a "$tmp/raw"
    done
  done
done
python3 - "$tmp/raw" "$out" <<'PY'
import json, sys, statistics
rows = {}
for line in open(sys.argv[1]):
    np_, mode, r, js = line.split(" ", 3)
    try:
        j = json.loads(js)
    except ValueError:
        continue
    rows.setdefault((int(np_), mode), []).append(j)
sys.path.insert(0, "tools")
from cpu_model import cpu_model
cpu = cpu_model()
res = []
for np_ in (4, 8):
    p, q, f = rows.get((np_, "plain"), []), rows.get((np_, "reorder"), []), rows.get((np_, "profile"), [])
    if not p or not q:
        continue
    mp, mq = statistics.median(x["median_s"] for x in p), statistics.median(x["median_s"] for x in q)
    mf = statistics.median(x["median_s"] for x in f) if f else None
    res.append({"ranks": np_, "nodes": 2, "link": "200 Mbit/s tbf", "grid": p[0]["grid"], "n": p[0]["n"], "width": p[0]["width"], "message_bytes": 8 * p[0]["n"] * p[0]["width"],
                "iteration_s_scattered": mp, "iteration_s_reordered": mq, "measured_speedup": mp / mq,
                "iteration_s_scattered_all": [x["median_s"] for x in p], "iteration_s_reordered_all": [x["median_s"] for x in q],
                "model_cost_scattered": q[0]["model_cost_start"], "model_cost_reordered": q[0]["model_cost"],
                "model_cost_ratio": q[0]["model_cost_start"] / q[0]["model_cost"] if q[0]["model_cost"] else None,
                "iteration_s_reordered_by_profile": mf, "measured_speedup_by_profile": mp / mf if mf else None,
                "iteration_s_reordered_by_profile_all": [x["median_s"] for x in f],
                "profile_model_cost_scattered_s": f[0]["model_cost_start"] if f else None,
                "profile_model_cost_reordered_s": f[0]["model_cost"] if f else None,
                "profile_model_cost_ratio": f[0]["model_cost_start"] / f[0]["model_cost"] if f and f[0]["model_cost"] else None})
    print(json.dumps(res[-1]))
json.dump({"what": "examples/halo on the emulated cluster (2 network-namespace nodes on a 2-vCPU VM), started with every grid "
                   "edge across nodes (--scatter), with and without servet_mpi_reorder (priced without a profile, and "
                   "by the job's comm layers measured under the same link: *_by_profile); median of the per-run median "
                   "iteration time (slowest rank), interleaved repeats",
           "cpu_model": cpu, "cases": res}, open(sys.argv[2], "w"), indent=1)
PY
