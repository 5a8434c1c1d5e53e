#!/usr/bin/env bash
# The comm probe's stability on the emulated cluster (make bench-comm, root):
# N sampled runs and N/2 --all-pairs runs of 4 ranks on 2 nodes, summarised
# into OUT (JSON): layers per run, measured pairs in the right layer, noise,
# tolerances, per-layer costs, probe time.   stability.sh OUT [N=10]
set -u
cd "$(dirname "$0")/../.."
out=$1; n=${2:-10}
[ "$(id -u)" = 0 ] || { echo "stability.sh: needs root" >&2; exit 77; }
export SERVET_CLUSTER_ID=${SERVET_CLUSTER_ID:-s$$}
d=$(mktemp -d)
trap 'tests/cluster/cluster.sh down >/dev/null 2>&1; rm -rf "$d"' EXIT
tests/cluster/cluster.sh up 2 || exit 1
for k in $(seq 1 "$n"); do
    tests/cluster/cluster.sh mpirun -np 4 "$PWD/tests/test_comm_mpi" --cache-dir "$d/c" --force --expect-layers 2 \
        --json "$d/r$(printf %02d "$k").json" 2>"$d/err" | tail -1 | sed "s/^/  sampled run $k: /"
    grep -E '^FAIL|comm probe:' "$d/err" | sed 's/^/    /' | head -5
done
for k in $(seq 1 $(( (n + 1) / 2 ))); do
    tests/cluster/cluster.sh mpirun -np 4 "$PWD/tests/test_comm_mpi" --cache-dir "$d/c" --force --all-pairs --expect-layers 2 \
        --json "$d/a$(printf %02d "$k").json" 2>"$d/err" | tail -1 | sed "s/^/  all-pairs run $k: /"
    grep -E '^FAIL|comm probe:' "$d/err" | sed 's/^/    /' | head -5
done
python3 - "$d" "$out" <<'PY'
import json, sys, glob, os
d, out = sys.argv[1], sys.argv[2]
rows = []
for f in sorted(glob.glob(d + '/r*.json')) + sorted(glob.glob(d + '/a*.json')):
    c = json.load(open(f))['comm']
    L = c['layers']
    rows.append({'run': os.path.basename(f)[:-5], 'layers': len(L), 'intra_node': [x['intra_node'] for x in L],
                 'pairs_measured': len(c['pairs']),
                 'pairs_right': sum(1 for p in c['pairs'] if L[p['layer']]['intra_node'] == p['same_node']),
                 'noise': round(c['noise'], 3), 'small_noise': round(c['small_noise'], 3),
                 'tolerance': round(c['tolerance'], 3), 'small_tolerance': round(c['small_tolerance'], 3),
                 'fig7_latency_us': [round(x['latency_s'] * 1e6, 2) for x in L],
                 'small_latency_us': [round(x['small_latency_s'] * 1e6, 2) for x in L],
                 'bw_4MiB_MBps': [round(x['curve'][-1]['bytes_per_s'] / 1e6) for x in L],
                 'probe_seconds': round(c['probe_seconds'], 2)})
two = [r for r in rows if r['layers'] == 2]
summary = {'runs': len(rows), 'runs_with_2_layers': len(two),
           'pairs_right': sum(r['pairs_right'] for r in rows), 'pairs_measured': sum(r['pairs_measured'] for r in rows),
           'max_tolerance': max(r['tolerance'] for r in rows), 'max_small_tolerance': max(r['small_tolerance'] for r in rows),
           'min_inter_over_intra_8B': min(r['small_latency_us'][1] / r['small_latency_us'][0] for r in two) if two else None,
           'probe_seconds': [min(r['probe_seconds'] for r in rows), max(r['probe_seconds'] for r in rows)]}
sys.path.insert(0, 'tools')
from cpu_model import cpu_model
model = cpu_model()
json.dump({'cpu_model': model, 'nproc': os.cpu_count(), 'what': 'comm probe stability on the emulated cluster (tests/cluster/stability.sh): 2 network-namespace nodes x 2 '
                   'unbound ranks on a 2-vCPU VM; r = sampled pairs, a = --all-pairs; pairs_right = measured pairs whose '
                   'layer has their kind (intra/inter node)', 'summary': summary, 'runs': rows}, open(out, 'w'), indent=1)
print('  ' + json.dumps(summary))
PY
