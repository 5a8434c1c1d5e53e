#!/bin/sh
# The one list of what servet.h needs on Debian/Ubuntu, and the one place that
# installs it: the Makefile (make probe, make test) and .ci/run call this.
#
#   tools/deps.sh probe    what `make probe` needs: a C compiler, make,
#                          pkg-config, hwloc >= 2.0; MPI too (the `servet`
#                          command is MPI-enabled when mpicc is found)
#   tools/deps.sh test     the above plus what the tests use (clang and g++
#                          for the compile matrix, python3, iproute2 and
#                          util-linux for the emulated cluster, MPICH for the
#                          rank-reordering tests on a second MPI; Open MPI
#                          stays the default mpicc)
#   tools/deps.sh list     print the Debian packages of `test`, one line
#
# Missing packages are installed with apt-get when we may (root, or sudo
# without a password) and the user is told so; otherwise the exact command is
# printed and the script exits 1. Nothing is installed when all is present.
set -eu

PROBE_PKGS="gcc make pkg-config libhwloc-dev hwloc libopenmpi-dev openmpi-bin"
TEST_PKGS="$PROBE_PKGS g++ clang python3 iproute2 util-linux mpich libmpich-dev"

what=${1:-probe}
case "$what" in
  probe) pkgs=$PROBE_PKGS ;;
  test) pkgs=$TEST_PKGS ;;
  list) echo "$TEST_PKGS"; exit 0 ;;
  *) echo "usage: tools/deps.sh probe|test|list" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
  # not Debian: check what matters directly and say what is missing
  if pkg-config --atleast-version=2.0 hwloc 2>/dev/null && command -v cc >/dev/null 2>&1; then exit 0; fi
  echo "servet: needs a C compiler, make, pkg-config and hwloc >= 2.0 (development files); MPI is optional." >&2
  echo "servet: this is not a Debian/Ubuntu system: install them with your package manager and run again." >&2
  exit 1
fi

missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then missing="$missing $p"; fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo="sudo"
else
  echo "servet: missing Debian packages:$missing" >&2
  echo "servet: install them and run again:" >&2
  echo "    sudo apt-get install -y$missing" >&2
  exit 1
fi

echo "servet: installing the missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
# a fresh machine's package lists may be empty or stale: update once
$sudo apt-get update -qq >/dev/null || echo "servet: apt-get update failed; trying the install anyway" >&2
# shellcheck disable=SC2086
if ! $sudo apt-get install -y -qq $missing >/dev/null; then
  echo "servet: apt-get install failed; run it yourself to see why:" >&2
  echo "    ${sudo:+sudo }apt-get install -y$missing" >&2
  exit 1
fi
echo "servet: installed:$missing"
