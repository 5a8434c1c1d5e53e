#!/bin/sh
# rsh agent for Open MPI on the emulated cluster: "agent.sh HOST CMD..." runs
# CMD in the network namespace of HOST (10.77.0.K -> node K-1) inside a fresh
# UTS namespace whose hostname is nodeK-1, as ssh would run it on that node.
host=$1
shift
k=${host##*.}
node=$((k - 1))
exec ip netns exec "servet-${SERVET_CLUSTER_ID:-t}-n$node" unshare --uts sh -c "hostname node$node; $*"
