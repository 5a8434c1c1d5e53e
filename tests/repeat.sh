#!/usr/bin/env bash
# make test-repeat N=10: the whole test suite (tests/run.sh) N times in a row,
# the failures counted per check, so that a check that fails by chance shows
# up before CI meets it. Prints a table of every check that failed at least
# once and closes with "N passed, N failed" counting runs.
#   tests/repeat.sh N [OUT.json]
set -u
cd "$(dirname "$0")/.."
n=${1:-10}
out=${2:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
runs_ok=0; runs_bad=0
for i in $(seq 1 "$n"); do
  t0=$(date +%s)
  ./tests/run.sh >"$tmp/run$i.out" 2>"$tmp/run$i.err"; rc=$?
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/run$i.out" | tail -n1)
  echo "run $i/$n: ${line:-no summary} (rc $rc, $(( $(date +%s) - t0 )) s)"
  if [ "$rc" -eq 0 ] && [ -n "$line" ] && [ "${line#*, }" = "0 failed" ]; then runs_ok=$((runs_ok+1)); else runs_bad=$((runs_bad+1)); fi
  # one line per failed check, run-specific paths and numbers after the check's name dropped
  grep -E '^FAIL' "$tmp/run$i.err" | sed -E 's#/tmp/tmp\.[A-Za-z0-9]+#TMP#g; s/: [^:]*$//' | sort -u >>"$tmp/fails"
  printf '%s\n' "$line" >>"$tmp/lines"
done
echo "== checks that failed, and in how many of the $n runs"
if [ -s "$tmp/fails" ]; then sort "$tmp/fails" | uniq -c | sort -rn; else echo "  none"; fi
if [ -n "$out" ]; then
  python3 - "$tmp/fails" "$tmp/lines" "$n" "$runs_ok" "$out" <<'PY'
import json, sys, collections, platform, subprocess, time
fails = [l.rstrip('\n') for l in open(sys.argv[1])] if __import__('os').path.exists(sys.argv[1]) else []
lines = [l.strip() for l in open(sys.argv[2])]
model = ''
for l in open('/proc/cpuinfo'):
    if l.startswith('model name'): model = l.split(':', 1)[1].strip(); break
json.dump({"benchmark": "tests/repeat.sh: tests/run.sh (make test) repeated", "date": time.strftime("%Y-%m-%d"),
           "cpu_model": model, "nproc": int(subprocess.check_output(['nproc']).decode()),
           "runs": int(sys.argv[3]), "runs_without_failure": int(sys.argv[4]), "summaries": lines,
           "failures_per_check": dict(collections.Counter(fails))}, open(sys.argv[5], 'w'), indent=1)
PY
  echo "wrote $out"
fi
echo "$runs_ok passed, $runs_bad failed"
[ "$runs_bad" -eq 0 ]
