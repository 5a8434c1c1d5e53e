#!/usr/bin/env bash
# make test-cluster: the communication probe on an emulated 2-node cluster
# (tests/cluster/cluster.sh), 4 MPI ranks, 2 per node. Checks, each run by
# tests/test_comm_mpi on every rank:
#   - 3 fresh runs (sampled pairs): exactly 2 layers, every one of the 6
#     pairs in the right one (same node / other node), same on every rank
#   - a 4th run reads the .comm file instead of measuring
#   - --all-pairs: the same 2 layers with all 6 pairs measured
#   - a tbf rate limit on the emulated link: the inter-node curve shows it
#   - the CLI: mpirun -np 4 bin/servet probe --only comm
# The namespaces are removed on exit, failure and interrupt included.
# Needs root; skipped with a message otherwise. Prints "N passed, N failed".
# BENCH_OUT=FILE also writes the runs' JSON there (bench_data).
set -u
cd "$(dirname "$0")/../.."
here=tests/cluster
skip() { echo "SKIPPED test-cluster: $*"; echo "0 passed, 0 failed"; exit 0; }
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces); run it as root: sudo make test-cluster"
for c in ip unshare mpirun tc; do command -v $c >/dev/null || skip "$c not found (iproute2, util-linux, openmpi-bin)"; done
[ -x tests/test_comm_mpi ] && bin/servet --version | grep -q "with MPI" || skip "no MPI build (mpicc not found at build time)"
mpirun --version 2>/dev/null | grep -q "Open MPI" || skip "the emulated cluster launches through Open MPI's rsh agent; this mpirun is not Open MPI"
export SERVET_CLUSTER_ID=${SERVET_CLUSTER_ID:-c$$}
tmp=$(mktemp -d)
cleanup() { "$here/cluster.sh" down >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
if ! "$here/cluster.sh" up 2 2>"$tmp/up.err"; then
    if grep -qi "operation not permitted\|permission denied\|unknown device type\|not supported" "$tmp/up.err"; then
        cat "$tmp/up.err" >&2
        skip "network namespaces, veth or bridges are not available here (permissions or kernel)"
    fi
    cat "$tmp/up.err" >&2
    echo "FAIL: cannot set up the emulated cluster"; echo "0 passed, 1 failed"; exit 1
fi
if ! ip netns exec "servet-$SERVET_CLUSTER_ID-n0" unshare --uts sh -c 'hostname node0' 2>"$tmp/uts.err"; then
    cat "$tmp/uts.err" >&2
    skip "cannot give a namespace its own hostname (unshare --uts)"
fi
pass=0; fail=0
T0=$(date +%s)
run() { # label, test_comm_mpi args...
    local label=$1 out line p f rc s0 s1; shift
    s0=$(date +%s%N)
    out=$(timeout 300 "$here/cluster.sh" mpirun -np 4 "$PWD/tests/test_comm_mpi" "$@" 2>"$tmp/err"); rc=$?
    s1=$(date +%s%N)
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n1)
    if [ -z "$line" ]; then
        fail=$((fail+1)); echo "FAIL: $label: no summary (rc $rc)"; tail -20 "$tmp/err" >&2; return
    fi
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    pass=$((pass+p)); fail=$((fail+f))
    [ "$f" -eq 0 ] || grep -v "^hwloc" "$tmp/err" | tail -20 >&2
    printf '  %-28s %s  (%s; wall %d ms)\n' "$label:" "$line" "$(printf '%s\n' "$out" | grep '^comm probe:' | sed 's/^comm probe: //')" \
        "$(( (s1 - s0) / 1000000 ))"
    printf '%s\n' "$out" | grep '^layer ' | sed 's/^/      /'
}
cache="$tmp/cache"
echo "== emulated cluster: 2 nodes (network namespaces node0, node1), 4 ranks"
for i in 1 2 3; do
    run "run $i (measured)" --cache-dir "$cache" --force --expect-layers 2 --expect-from-file 0 --json "$tmp/run$i.json"
done
run "run 4 (from the .comm file)" --cache-dir "$cache" --expect-layers 2 --expect-from-file 1
run "all pairs" --cache-dir "$cache" --force --all-pairs --expect-layers 2 --expect-from-file 0 --json "$tmp/all.json"
"$here/cluster.sh" tbf 200mbit
run "tbf 200 Mbit/s link" --cache-dir "$cache" --force --expect-layers 2 --max-inter-bw 25000000 --json "$tmp/tbf.json"
"$here/cluster.sh" tbf off
echo "== servet_mpi_reorder: ranks i and i + 2 talk, started on different nodes"
if [ -x tests/test_map_mpi ]; then
    if out=$(timeout 300 "$here/cluster.sh" mpirun -np 4 "$PWD/tests/test_map_mpi" --expect-together 2>"$tmp/err") \
        && line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, 0 failed$'); then
        pass=$((pass+1)); echo "  reorder: $line"
    else
        fail=$((fail+1)); echo "FAIL: reorder on the cluster"; printf '%s\n' "$out" | tail -5; tail -5 "$tmp/err" >&2
    fi
fi
echo "== examples/aggregate: every message checked, direct and through node leaders, servet's answer"
if [ -x examples/aggregate ]; then
    if out=$(timeout 300 "$here/cluster.sh" mpirun -np 4 "$PWD/examples/aggregate" --bytes 24 --messages 9 --sweep 1,4,9 \
             --repeats 1 --target 0.001 2>"$tmp/err") \
        && printf '%s\n' "$out" | tail -1 | python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); r=[c["route"] for c in j["configs"]]; assert j["nodes"]==2 and r.count("leader")>=3 and r.count("direct")>=3 and j["servet"]["pack_local"]>=1'; then
        pass=$((pass+1)); echo "  aggregate: $(printf '%s\n' "$out" | tail -1 | python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(len(j["configs"]), "configurations checked; servet:", j["servet"]["pack_local"], j["servet"]["pack_remote"], j["servet"]["route"])')"
    else
        fail=$((fail+1)); echo "FAIL: examples/aggregate on the cluster"; printf '%s\n' "$out" | tail -3; tail -5 "$tmp/err" >&2
    fi
fi
echo "== the command: mpirun -np 4 bin/servet probe --only comm"
if timeout 300 "$here/cluster.sh" mpirun -np 4 "$PWD/bin/servet" probe --only comm --cache-dir "$cache" --force >"$tmp/cli.out" 2>"$tmp/cli.err" \
    && grep -q "MPI communication: 4 ranks on 2 nodes, 2 layers" "$tmp/cli.out"; then
    pass=$((pass+1)); grep "MPI communication" "$tmp/cli.out" | sed 's/^/  /'
else
    fail=$((fail+1)); echo "FAIL: CLI comm probe"; tail -20 "$tmp/cli.out" "$tmp/cli.err" >&2
fi
if [ -n "${BENCH_OUT:-}" ]; then
    python3 - "$tmp" "$BENCH_OUT" <<'PY'
import json, sys, os
tmp, out = sys.argv[1], sys.argv[2]
runs = {}
for name in ["run1", "run2", "run3", "all", "tbf"]:
    p = os.path.join(tmp, name + ".json")
    if os.path.exists(p):
        runs[name] = json.load(open(p))["comm"]
sys.path.insert(0, "tools")
from cpu_model import cpu_model
cpu = cpu_model()
json.dump({"what": "comm probe on the emulated cluster (tests/cluster): 2 network-namespace nodes x 2 ranks, "
                   "Open MPI vader (shared memory) inside a node, TCP over veth+bridge between nodes; "
                   "tbf = 200 Mbit/s token bucket on each node's link", "cpu_model": cpu, "runs": runs},
          open(out, "w"), indent=1)
PY
    echo "  wrote $BENCH_OUT"
fi
echo "  total $(( $(date +%s) - T0 )) s"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
