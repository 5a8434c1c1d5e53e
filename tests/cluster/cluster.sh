#!/usr/bin/env bash
# An emulated multi-node cluster on one machine, built from real parts:
# one network namespace per "node" (with its own hostname in a UTS namespace),
# joined by veth pairs on a bridge that lives in a namespace of its own, so
# nothing but these namespaces and loopback carries traffic. MPI runs across
# them: ranks on one emulated node talk through shared memory, ranks on
# different nodes through TCP over the veth link (optionally rate-limited
# with tbf; this kernel has no netem, so no added delay).
#
#   cluster.sh up   [NODES]      create the namespaces (default 2 nodes)
#   cluster.sh down              remove them (idempotent)
#   cluster.sh mpirun ARGS...    run mpirun on node0 across all nodes
#   cluster.sh tbf RATE|off      rate-limit every node's link (e.g. 200mbit), or not
#
# Needs root (ip netns). The id in $SERVET_CLUSTER_ID (default "t") keeps
# concurrent test beds apart.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
id=${SERVET_CLUSTER_ID:-t}
sw="servet-$id-sw"
subnet=10.77.0
node_ns() { echo "servet-$id-n$1"; }
nodes_file="/run/servet-cluster-$id.nodes"

up() {
    local n=${1:-2} i
    [ "$(id -u)" = 0 ] || { echo "cluster.sh: needs root (network namespaces)" >&2; exit 77; }
    down >/dev/null 2>&1 || true
    ip netns add "$sw"
    ip -n "$sw" link set lo up
    ip -n "$sw" link add br0 type bridge
    ip -n "$sw" link set br0 up
    for ((i = 0; i < n; i++)); do
        local ns; ns=$(node_ns "$i")
        ip netns add "$ns"
        ip -n "$ns" link set lo up
        ip -n "$sw" link add "p$i" type veth peer name eth0 netns "$ns"
        ip -n "$sw" link set "p$i" master br0
        ip -n "$sw" link set "p$i" up
        ip -n "$ns" addr add "$subnet.$((i + 1))/24" dev eth0
        ip -n "$ns" link set eth0 up
    done
    echo "$n" > "$nodes_file"
    # the link is up when node0 reaches every other node (ping, where installed)
    command -v ping >/dev/null || return 0
    for ((i = 1; i < n; i++)); do
        local k
        for k in $(seq 50); do
            ip netns exec "$(node_ns 0)" ping -c1 -W1 "$subnet.$((i + 1))" >/dev/null 2>&1 && break
            sleep 0.1
        done
    done
}

down() {
    local ns
    for ns in $(ip netns list | awk '{print $1}' | grep "^servet-$id-" || true); do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "$ns"
    done
    rm -f "$nodes_file"
}

tbf() {
    local rate=$1 n i
    n=$(cat "$nodes_file")
    for ((i = 0; i < n; i++)); do
        if [ "$rate" = off ]; then tc -n "$(node_ns "$i")" qdisc del dev eth0 root 2>/dev/null || true
        else tc -n "$(node_ns "$i")" qdisc replace dev eth0 root tbf rate "$rate" burst 64kb latency 100ms; fi
    done
}

run_mpirun() {
    local n i hostfile
    n=$(cat "$nodes_file")
    hostfile=$(mktemp /tmp/servet-cluster-hosts.XXXXXX)
    for ((i = 0; i < n; i++)); do echo "$subnet.$((i + 1)) slots=${SERVET_CLUSTER_SLOTS:-2}" >> "$hostfile"; done
    # mpirun itself runs on node0: its address is local there, the others are
    # reached through the rsh agent (tests/cluster/agent.sh).
    ip netns exec "$(node_ns 0)" unshare --uts sh -c 'hostname node0; exec "$@"' sh \
        env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SERVET_CLUSTER_ID="$id" \
        mpirun --hostfile "$hostfile" \
        --mca plm_rsh_agent "$here/agent.sh" \
        --mca oob_tcp_if_include "$subnet.0/24" \
        --mca btl_tcp_if_include "$subnet.0/24" \
        --mca btl self,vader,tcp \
        --mca mpi_yield_when_idle 1 \
        --mca rmaps_base_oversubscribe 1 \
        --bind-to none \
        "$@"
    local rc=$?
    rm -f "$hostfile"
    return $rc
}

cmd=${1:-}
shift || true
case "$cmd" in
up) up "$@" ;;
down) down ;;
tbf) tbf "$@" ;;
mpirun) run_mpirun "$@" ;;
*) echo "usage: cluster.sh up [NODES] | down | tbf RATE | mpirun ARGS..." >&2; exit 2 ;;
esac
