#!/usr/bin/env bash
# The test runner: compile checks, the test programs, the CLI. Prints one
# closing line "N passed, N failed" and exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
ok()   { pass=$((pass+1)); }
bad()  { fail=$((fail+1)); echo "FAIL: $*" >&2; }
HW="$(pkg-config --cflags hwloc 2>/dev/null)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# 1. servet.h compiles as C99 and C++, gcc and clang, -Werror, static too
compile() { # name, command...
  local name=$1; shift
  if "$@" >"$tmp/cc.log" 2>&1; then ok; else bad "compile: $name"; cat "$tmp/cc.log" >&2; fi
}
compile "gcc C99"   gcc -std=c99 -pthread -Wall -Wextra -Werror $HW -c servet_impl.c -o "$tmp/a.o"
compile "gcc C++"   g++ -x c++ -Wall -Wextra -Werror $HW -c servet_impl.c -o "$tmp/b.o"
compile "static"    gcc -std=c99 -Wall -Wextra -Werror -DSERVET_STATIC $HW -c servet_impl.c -o "$tmp/c.o"
if command -v clang >/dev/null; then
  compile "clang C99" clang -std=c99 -Wall -Wextra -Werror $HW -c servet_impl.c -o "$tmp/d.o"
  compile "clang C++" clang++ -x c++ -Wall -Wextra -Werror $HW -c servet_impl.c -o "$tmp/e.o"
fi
# the header alone (no implementation) is plain declarations in C and C++
printf '#include "servet.h"\nint main(void){return SERVET_OK;}\n' > "$tmp/h.c"
compile "header C"   gcc -std=c99 -Wall -Wextra -Werror -I. -c "$tmp/h.c" -o "$tmp/h.o"
compile "header C++" g++ -x c++ -Wall -Wextra -Werror -I. -c "$tmp/h.c" -o "$tmp/h2.o"
# every exported symbol of the library starts with servet_
if nm -g --defined-only lib/libservet.a 2>/dev/null | awk 'NF==3{print $3}' | grep -v '^servet_' >"$tmp/sym"; then
  bad "exported symbols without servet_ prefix: $(tr '\n' ' ' <"$tmp/sym")"
else ok; fi

# 2. the test programs (each prints "N passed, N failed")
run_prog() {
  local out
  out=$("$@" 2>"$tmp/err"); rc=$?
  cat "$tmp/err" >&2
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n1)
  if [ -z "$line" ]; then bad "$* printed no summary (rc $rc)"; return; fi
  p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
  pass=$((pass+p)); fail=$((fail+f))
  [ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || bad "$* exited $rc"
  echo "  $*: $line"
}
run_prog ./tests/test_compile_two_tu
run_prog ./tests/test_unit
run_prog ./tests/test_file
run_prog ./tests/test_concurrent 16
run_prog ./tests/test_shared

# 3. the CLI: usage errors, help, simulate, a quick probe into a temp dir
expect_rc() { # rc, description, command...
  local want=$1 what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" -eq "$want" ]; then ok; else bad "$what: rc $rc, wanted $want"; cat "$tmp/err" >&2; fi
}
expect_rc 0 "help" ./bin/servet --help
expect_rc 2 "no command" ./bin/servet
expect_rc 2 "bad command" ./bin/servet frobnicate
expect_rc 2 "bad probe" ./bin/servet probe --only nonsense
expect_rc 2 "bad max-size" ./bin/servet probe --max-size 12x
expect_rc 2 "simulate without spec" ./bin/servet simulate
expect_rc 1 "simulate missing file" ./bin/servet simulate /nonexistent.spec
printf 'level=1 size=bogus\n' > "$tmp/bad.spec"
expect_rc 1 "simulate bad spec" ./bin/servet simulate "$tmp/bad.spec"
grep -q "servet:" "$tmp/err" && ok || bad "bad spec message"
printf 'level=1 size=32K ways=8\nlevel=2 size=1M ways=16\nnoise=0.02\n' > "$tmp/ok.spec"
expect_rc 0 "simulate" ./bin/servet simulate "$tmp/ok.spec"
grep -q '"caches":\[{"level":1,"size_bytes":32768' "$tmp/out" && ok || { bad "simulate output"; cat "$tmp/out" >&2; }
export SERVET_CACHE_DIR="$tmp/cache"
expect_rc 1 "show --no-probe on empty cache" ./bin/servet show --no-probe
expect_rc 0 "quick probe" ./bin/servet probe --quick --max-size 4194304
expect_rc 0 "json from cache" ./bin/servet json --no-probe
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["machine"]["from_cache_file"] and j["caches"][0]["level"]==1 and "size_bytes" in j["caches"][0] and "latency_ns" in j["caches"][0]' "$tmp/out" \
  && ok || bad "json schema"
expect_rc 0 "plot" ./bin/servet plot "$tmp/plot" --no-probe
grep -q '<svg' "$tmp/plot/cache_curve.svg" 2>/dev/null && ok || bad "plot wrote no SVG"
expect_rc 0 "path" ./bin/servet path
unset SERVET_CACHE_DIR

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
