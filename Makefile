# servet.h - build, probe, test, bench, install.
CC      ?= cc
CXX     ?= c++
PREFIX  ?= /usr/local
HWLOC_CFLAGS := $(shell pkg-config --cflags hwloc 2>/dev/null)
HWLOC_LIBS   := $(shell pkg-config --libs hwloc 2>/dev/null || echo -lhwloc)
WARN    := -Wall -Wextra
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c99 $(WARN) $(CFLAGS) $(HWLOC_CFLAGS) -pthread
# the tests: each compiles all of servet.h (the implementation's internals
# are what they check) and they assert behaviour, never speed. -O2 made a
# clean `make -j2` of the 23 programs take 63 s on 2 cores, and -O1 66 s
# once the cache probe grew its second walk (2026-11, a Zen 1 VM): -Og
# (2.8 s a test program there, -O1 4.8 s); test_unit, whose simulations
# are most of its run time, keeps -O1
TEST_CFLAGS ?= -Og
TEST_ALL_CFLAGS = -std=c99 $(WARN) $(TEST_CFLAGS) $(HWLOC_CFLAGS) -pthread
TEST_UNIT_CFLAGS ?= -O1
LDLIBS  = $(HWLOC_LIBS) -lm -lpthread

TESTS   := tests/test_unit tests/test_file tests/test_concurrent tests/test_shared tests/test_faults tests/test_mbsp tests/test_comm tests/test_decide tests/test_tune tests/test_map tests/test_aggr tests/test_compile_two_tu
TOOLS   := bin/servet
EXAMPLES:= examples/quickstart examples/mbsp_inner_product examples/tile_transpose examples/tile_stencil examples/tile_matmul

FUZZ_SECONDS ?= 60
.PHONY: bench-tile-vector bench-accuracy-policies bench-accuracy-lines bench-accuracy-outside bench-aggr bench-map bench-tune tune-replay tile-replay cache-replay bench-tile test-repeat test-cluster bench-comm fuzz test-sanitize test-matrix all lib tools examples tests probe test bench bench-accuracy bench-cache bench-shared bench-mbsp bench-noisy install clean check-deps

all: check-deps lib tools examples tests

# what make probe / make test need: tools/deps.sh holds the one package list
# and installs what is missing (root or password-less sudo), else says how
check-deps:
	@pkg-config --atleast-version=2.0 hwloc 2>/dev/null || { \
	  echo "servet: hwloc >= 2.0 not found by pkg-config; 'tools/deps.sh probe' installs it (or: apt-get install $$(tools/deps.sh list))" >&2; exit 1; }

lib: lib/libservet.a
lib/libservet.a: servet_impl.c servet.h
	@mkdir -p lib
	$(CC) $(ALL_CFLAGS) -c servet_impl.c -o lib/servet_impl.o
	ar rcs $@ lib/servet_impl.o

MPICC   := $(shell command -v mpicc 2>/dev/null)
NPROC   := $(shell nproc 2>/dev/null || echo 2)
# One `servet` command: MPI-enabled whenever mpicc is found (it calls MPI_Init
# only when a launcher started it, so every other command works as without
# MPI); make MPI=0 builds it without MPI.
ifeq ($(MPI),0)
SERVET_CC := $(CC)
SERVET_MPI_FLAGS :=
else ifneq ($(MPICC),)
SERVET_CC := $(MPICC)
SERVET_MPI_FLAGS := -DSERVET_USE_MPI
TESTS   += tests/test_comm_mpi tests/test_map_mpi
EXAMPLES+= examples/halo examples/aggregate
else
SERVET_CC := $(CC)
SERVET_MPI_FLAGS :=
endif
tools: $(TOOLS)
bin/servet: tools/servet.c tools/cachesim.h servet.h
	@mkdir -p bin
	$(SERVET_CC) $(SERVET_MPI_FLAGS) $(ALL_CFLAGS) -o $@ tools/servet.c $(LDLIBS)

# the tools that are one file against servet.h (their extra headers below)
SINGLE_FILE_TOOLS := bin/bench_accuracy bin/bench_pairs bin/tune_replay bin/tile_replay bin/cache_replay
$(SINGLE_FILE_TOOLS): bin/%: tools/%.c servet.h
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS)
bin/bench_accuracy: tools/cachesim.h tools/bench_cpu.h
bin/tile_replay: tools/tile_kernels.h tools/recorded_profile.h
bin/cache_replay: tools/replay_text.h
# issue 14: the walk's time, sample by sample (bench_data/cache_smt_interference_*.txt)
bin/interference_trace: tools/interference_trace.c
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) -o $@ $<
# issue 14: is the cache probe's warm-up enough? (the first timed walk against the sixth)
bin/warm_check: tools/warm_check.c servet.h
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) -I. -o $@ tools/warm_check.c $(LDLIBS)

bin/bench_comm: tools/bench_comm.c tools/bench_cpu.h servet.h
	@mkdir -p bin
	$(MPICC) $(ALL_CFLAGS) -o $@ tools/bench_comm.c $(LDLIBS)

bin/aggr_phases: tools/aggr_phases.c
	@mkdir -p bin
	$(MPICC) -std=c99 $(WARN) -O2 -o $@ tools/aggr_phases.c

bin/bench_open: tools/bench_open.c lib/libservet.a servet.h
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) -o $@ tools/bench_open.c lib/libservet.a $(LDLIBS)

examples: $(EXAMPLES)
examples/mbsp_inner_product: examples/mbsp_inner_product.c servet.h
	$(CC) -O2 -g -Wall -Wextra $(HWLOC_CFLAGS) -pthread -I. -o $@ examples/mbsp_inner_product.c $(LDLIBS)
# the tile kernels: -march=native, as an HPC code is built (the bench times them)
KERNEL_CFLAGS ?= -O2 -march=native
# the benches' kernels with every loop head on a 64-byte boundary, so that an
# edit of servet.h (compiled in the same file, before them) no longer moves
# them: at 5042e15 matmul's 30-byte inner loop moved from 0 to 48 bytes past
# a 64-byte boundary and on the Zen 5 VM tiles 48, 72, 96 and 120 lost 3-7%
# to 64 and 80; with the loop on the boundary 88 and 120 lose 3-14% instead
# (bench_data/tile_code_alignment_zen5_2026-12-07.txt). Empty: the
# compiler's own placement
BENCH_KERNEL_ALIGN ?= -falign-loops=64
# what the bench binaries are built with (kernel_build in their JSON says it);
# the Makefile is a prerequisite, so a changed flag rebuilds them
BENCH_KERNEL_CFLAGS = $(KERNEL_CFLAGS) $(BENCH_KERNEL_ALIGN)
BENCH_VECTOR_CFLAGS = -O3 -march=native $(BENCH_KERNEL_ALIGN)
examples/tile_%: examples/tile_%.c lib/libservet.a servet.h
	$(CC) -std=c99 $(WARN) $(KERNEL_CFLAGS) $(HWLOC_CFLAGS) -pthread -I. -o $@ $< lib/libservet.a $(LDLIBS)
bin/bench_tile: tools/bench_tile.c tools/tile_run.h tools/bench_cpu.h examples/tile_transpose.c examples/tile_stencil.c examples/tile_matmul.c servet.h tools/tile_kernels.h Makefile
	@mkdir -p bin
	$(CC) -std=c99 $(WARN) $(BENCH_KERNEL_CFLAGS) '-DBENCH_TILE_BUILD="$(BENCH_KERNEL_CFLAGS)"' $(HWLOC_CFLAGS) -pthread -o $@ tools/bench_tile.c $(LDLIBS)
# a few tiles of one kernel side by side, many rounds, pinned (a noisy host's
# sweep cannot tell them apart): bin/tile_h2h matmul 2000 15 1 56 64 72
bin/tile_h2h: tools/tile_h2h.c tools/tile_run.h examples/tile_transpose.c examples/tile_stencil.c examples/tile_matmul.c servet.h tools/tile_kernels.h Makefile
	@mkdir -p bin
	$(CC) -std=c99 $(WARN) $(BENCH_KERNEL_CFLAGS) $(HWLOC_CFLAGS) -pthread -o $@ tools/tile_h2h.c $(LDLIBS)
# stores and loads one per 4 KiB page over P pages: a store TLB the cache
# probe's load walk does not see (bin/page_walk_rw PU ROUNDS)
bin/page_walk_rw: tools/page_walk_rw.c
	@mkdir -p bin
	$(CC) -std=c99 $(WARN) -O2 -o $@ tools/page_walk_rw.c
# issue 11: servet's tile vs an exhaustive sweep on the real kernels (~10 min)
BENCH_TILE_ROUNDS ?= 5
bench-tile: bin/bench_tile bin/servet
	./bin/servet probe --only cache,shared,memory
	./bin/bench_tile bench_data/tile.json $(BENCH_TILE_ROUNDS)
# issue 11: the same bench with the kernels built vectorised (gcc -O3
# -march=native) and described so: the stencil's and the matmul's inner loops
# in VECTOR_LANES doubles (desc.vector), read from gcc's own report (64-byte
# vectors: 8; 32-byte: 4; 4 where it says nothing), the transpose scalar (gcc
# does not vectorise its strided stores): what `servet tile --vector` is
# worth on them (~4 min; no tune)
VECTOR_LANES ?= $(shell $(CC) -std=c99 -O3 -march=native -fopt-info-vec-optimized $(HWLOC_CFLAGS) -c -o /dev/null tools/bench_tile.c 2>&1 | grep 'tile_stencil.c.*vectorized using' | grep -o '[0-9]* byte' | sort -n | tail -1 | awk '{print $$1 / 8}' | grep . || echo 4)
bin/bench_tile_vector: tools/bench_tile.c tools/tile_run.h tools/bench_cpu.h examples/tile_transpose.c examples/tile_stencil.c examples/tile_matmul.c servet.h tools/tile_kernels.h Makefile
	@mkdir -p bin
	$(CC) -std=c99 $(WARN) $(BENCH_VECTOR_CFLAGS) '-DBENCH_TILE_BUILD="$(BENCH_VECTOR_CFLAGS)"' $(HWLOC_CFLAGS) -pthread -o $@ tools/bench_tile.c $(LDLIBS)
bench-tile-vector: bin/bench_tile_vector bin/servet
	./bin/servet probe --only cache,shared,memory
	TILE_KERNEL_VECTOR=$(VECTOR_LANES) ./bin/bench_tile_vector bench_data/tile_vector.json $(BENCH_TILE_ROUNDS)
# issue 14: the cache inference again on the curves bench-cache recorded
# (no probing; seconds). CACHE_RUNS= other recorded files
CACHE_RUNS ?= bench_data/cache_probe_runs.json
cache-replay: bin/cache_replay
	python3 tools/cache_replay.py $(CACHE_RUNS)
# issue 11: the tile model on profiles rebuilt from every machine's bench-tile
# record, scored on their sweeps (no kernel runs; seconds)
tile-replay: bin/tile_replay
	python3 tools/tile_replay.py bench_data/tile_replay.txt bench_data/tile_run*.json
# issue 18: servet_tune's search replayed on the measured sweeps (no kernel
# runs: compares searches, in seconds; the machine's verdict is bench-tune)
tune-replay: bin/tune_replay bin/tile_replay
	python3 tools/tune_replay.py --pool bench_data/tune_landscapes.txt bench_data/tile_run*.json
	./bin/tune_replay bench_data/tune_landscapes.txt 400
# issue 18: the same sweeps, and servet_tune seeded by the tile model beside them (~15 min)
bench-tune: bin/bench_tile bin/servet
	./bin/servet probe --only cache,shared,memory
	./bin/bench_tile bench_data/tile.json $(BENCH_TILE_ROUNDS) "" bench_data/tune.json
examples/halo: examples/halo.c servet.h
	$(MPICC) -std=c99 $(WARN) -O2 $(HWLOC_CFLAGS) -pthread -o $@ examples/halo.c $(LDLIBS)
examples/aggregate: examples/aggregate.c servet.h
	$(MPICC) -std=c99 $(WARN) -O2 $(HWLOC_CFLAGS) -pthread -o $@ examples/aggregate.c $(LDLIBS)
examples/quickstart: examples/quickstart.c lib/libservet.a servet.h
	$(CC) $(ALL_CFLAGS) -I. -o $@ examples/quickstart.c lib/libservet.a $(LDLIBS)

tests: $(TESTS)
tests/test_unit: tests/test_unit.c tests/harness.h tools/cachesim.h tools/replay_text.h servet.h
	$(CC) -std=c99 $(WARN) $(TEST_UNIT_CFLAGS) $(HWLOC_CFLAGS) -pthread -o $@ tests/test_unit.c $(LDLIBS)
tests/test_file: tests/test_file.c tests/harness.h tests/helpers.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_file.c $(LDLIBS)
tests/test_concurrent: tests/test_concurrent.c tests/harness.h tests/helpers.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_concurrent.c $(LDLIBS)
tests/test_shared: tests/test_shared.c tests/harness.h tests/helpers.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_shared.c $(LDLIBS)
tests/test_tune: tests/test_tune.c tests/harness.h tests/helpers.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_tune.c $(LDLIBS)
tests/test_map: tests/test_map.c tests/harness.h tests/helpers.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_map.c $(LDLIBS)
tests/test_decide: tests/test_decide.c tests/harness.h tests/helpers.h tools/recorded_profile.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_decide.c $(LDLIBS)
tests/test_mbsp: tests/test_mbsp.c tests/harness.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_mbsp.c $(LDLIBS)
tests/test_aggr: tests/test_aggr.c tests/harness.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_aggr.c $(LDLIBS)
tests/test_comm: tests/test_comm.c tests/harness.h tests/helpers.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_comm.c $(LDLIBS)
# the communication probe over real ranks (mpirun), built when mpicc exists
tests/test_map_mpi: tests/test_map_mpi.c tests/harness.h servet.h
	$(MPICC) $(TEST_ALL_CFLAGS) -o $@ tests/test_map_mpi.c $(LDLIBS)
tests/test_comm_mpi: tests/test_comm_mpi.c tests/harness.h tests/helpers.h servet.h
	$(MPICC) $(TEST_ALL_CFLAGS) -o $@ tests/test_comm_mpi.c $(LDLIBS)
tests/test_faults: tests/test_faults.c tests/harness.h tests/helpers.h servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/test_faults.c $(LDLIBS)
# two translation units, one with the implementation: no duplicate symbols
tests/test_compile_two_tu: tests/tu_a.c tests/tu_b.c servet.h
	$(CC) $(TEST_ALL_CFLAGS) -o $@ tests/tu_a.c tests/tu_b.c $(LDLIBS)

# The main job: install what is missing, build the library and the command
# (every core), probe this machine, write the cache, print the profile.
probe:
	@tools/deps.sh probe
	@$(MAKE) --no-print-directory -j$(NPROC) lib bin/servet
	./bin/servet probe

# The test suite: install what is missing, build everything (every core), run.
test:
	@tools/deps.sh test
	@$(MAKE) --no-print-directory -j$(NPROC) all
	./tests/run.sh

# the whole suite N times, failures counted per check (a flaky check shows up here, not at CI)
N ?= 10
test-repeat: all
	./tests/repeat.sh $(N) $(REPEAT_OUT)

# 4 MPI ranks on 2 emulated nodes (network namespaces; root). make test runs it too.
test-cluster: all
	./tests/cluster/run_tests.sh

# issues 5 and 17: the comm probe's curve vs an OSU-style ping-pong side by
# side, 3 runs on one node (2 ranks) and, as root, 3 on the emulated cluster,
# plus the cluster's probe runs and stability (4 ranks on 2 nodes). The
# curve comparison on the cluster runs one rank per node, so that each rank
# has a vCPU of its own as on real nodes: with 4 ranks on the 2 vCPUs the
# measured pair shares them with two more ranks and the daemons, and its
# state flips (1 B 8.2 or 10 us, 512 KiB 95 or 300 us) for whole rounds of
# either method (bench_data/comm_vs_pingpong_cluster_4ranks_2026-11-24.json)
bench-comm: all bin/bench_comm
	for i in 1 2 3; do OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	  mpirun -np 2 ./bin/bench_comm bench_data/comm_vs_pingpong_node_run$$i.json 15 || exit 1; done
	@if [ "$$(id -u)" = 0 ]; then \
	  BENCH_OUT=bench_data/comm_cluster_runs.json ./tests/cluster/run_tests.sh && \
	  ./tests/cluster/stability.sh bench_data/comm_cluster_stability.json 10 && \
	  SERVET_CLUSTER_ID=b$$$$ ./tests/cluster/cluster.sh up 2 && export SERVET_CLUSTER_SLOTS=1 && \
	  for i in 1 2 3; do SERVET_CLUSTER_ID=b$$$$ ./tests/cluster/cluster.sh mpirun -np 2 $(CURDIR)/bin/bench_comm \
	    bench_data/comm_vs_pingpong_cluster_run$$i.json 7 || break; done; \
	  rc=$$?; SERVET_CLUSTER_ID=b$$$$ ./tests/cluster/cluster.sh down; exit $$rc; \
	else echo "not root: the emulated-cluster part of bench-comm skipped"; fi

# issue 12: servet map vs identity, random and Scotch's gmap (scotch package,
# a test-only peer: installed here if missing) on modelled machines
bench-map: bin/servet
	@command -v scotch_gmap >/dev/null || { [ "$$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq scotch >/dev/null; } || true
	python3 tools/bench_map.py bench_data/mapping.json
	@if [ "$$(id -u)" = 0 ] && [ -n "$(MPICC)" ]; then $(MAKE) --no-print-directory examples/halo && \
	  ./tools/bench_map_cluster.sh bench_data/mapping_cluster.json 5; \
	else echo "not root or no MPI: the emulated-cluster part of bench-map skipped"; fi

bench-aggr: bin/servet
	@[ -n "$(MPICC)" ] || { echo "bench-aggr needs MPI (mpicc)"; exit 1; }
	$(MAKE) --no-print-directory examples/aggregate bin/aggr_phases
	./tools/bench_aggr.sh bench_data/aggregation.json 7

bench: all bin/bench_open bin/bench_pairs
	./bin/bench_open bench_data/open_vs_hwloc.json
	./bin/bench_pairs bench_data/pair_counts.json

# $(call accuracy_run,TARGET,HIERARCHIES DIR,OUT without .txt/.json): the three settings of every spec,
# headed by the date and the CPU model the simulation ran on
define accuracy_run
	./bin/bench_accuracy $(2) $(3).json > $(3).tmp
	{ printf '# make $(1), %s, simulated on: ' "$$(date +%F)"; \
	  python3 -c 'import sys; sys.path.insert(0, "tools"); from cpu_model import cpu_model; print(cpu_model())'; \
	  cat $(3).tmp; } > $(3).txt
	rm -f $(3).tmp
	tail -5 $(3).txt
endef

bench-accuracy: bin/bench_accuracy
	$(call accuracy_run,bench-accuracy,bench_data/hierarchies,bench_data/cache_accuracy)

# issue 14: every replacement policy x {4 KiB pages, 2 MiB pages on 4 KiB backing, exclusive last level,
# hashed last level}, all levels given the policy; two simulations at once (deterministic: no timing in them)
POLICIES_DIR ?= bench_data/hierarchies
POLICIES_OUT ?= bench_data/cache_accuracy_policies
bench-accuracy-policies: bin/bench_accuracy
	./bin/bench_accuracy $(POLICIES_DIR) $(POLICIES_OUT)_a.json 1000 lru,plru,nru \
	  4k,backing,exclusive,hashed > $(POLICIES_OUT)_a.txt & \
	./bin/bench_accuracy $(POLICIES_DIR) $(POLICIES_OUT)_b.json 1000 random,srrip \
	  4k,backing,exclusive,hashed > $(POLICIES_OUT)_b.txt; wait
	{ printf '# make bench-accuracy-policies POLICIES_DIR=$(POLICIES_DIR), %s, simulated on: ' "$$(date +%F)"; \
	  python3 -c 'import sys; sys.path.insert(0, "tools"); from cpu_model import cpu_model; print(cpu_model())'; \
	  cat $(POLICIES_OUT)_a.txt $(POLICIES_OUT)_b.txt; } > $(POLICIES_OUT).txt
	rm -f $(POLICIES_OUT)_a.txt $(POLICIES_OUT)_b.txt
	tail -12 $(POLICIES_OUT).txt

# issue 14, acceptance 4: hierarchies that no rule of the inference was fitted on (bench_data/hierarchies_outside,
# added 2026-11-27 after the rules): the three settings, then every policy x variant (the target above on that
# directory); ~35 min on 2 cores
bench-accuracy-outside: bin/bench_accuracy
	./bin/bench_accuracy bench_data/hierarchies_outside bench_data/cache_accuracy_outside.json \
	  > bench_data/cache_accuracy_outside_c.txt
	$(MAKE) bench-accuracy-policies POLICIES_DIR=bench_data/hierarchies_outside POLICIES_OUT=bench_data/cache_accuracy_outside
	{ printf '# make bench-accuracy-outside, %s, simulated on: ' "$$(date +%F)"; \
	  python3 -c 'import sys; sys.path.insert(0, "tools"); from cpu_model import cpu_model; print(cpu_model())'; \
	  cat bench_data/cache_accuracy_outside_c.txt bench_data/cache_accuracy_outside.txt; } > bench_data/cache_accuracy_outside.tmp
	mv bench_data/cache_accuracy_outside.tmp bench_data/cache_accuracy_outside.txt
	rm -f bench_data/cache_accuracy_outside_c.txt
	grep -E 'levels right|^overall' bench_data/cache_accuracy_outside.txt

# issue 14, acceptance 4: line sizes (bench_data/hierarchies_lines): machines of 128/256 B lines walked at
# level 1's line (the probe since 2026-11-28) and at 64 B (before: *_walk64), and levels of longer lines than
# level 1's (Pentium 4, Itanium 2), which no one stride serves; ~2 min
bench-accuracy-lines: bin/bench_accuracy
	$(call accuracy_run,bench-accuracy-lines,bench_data/hierarchies_lines,bench_data/cache_accuracy_lines)

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 servet.h $(DESTDIR)$(PREFIX)/include/servet.h
	install -m 644 lib/libservet.a $(DESTDIR)$(PREFIX)/lib/libservet.a
	install -m 755 bin/servet $(DESTDIR)$(PREFIX)/bin/servet
	sed -e 's|@PREFIX@|$(PREFIX)|g' servet.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/servet.pc

clean:
	rm -rf lib bin tests/test_unit tests/test_file tests/test_concurrent tests/test_shared tests/test_compile_two_tu \
	  examples/quickstart examples/mbsp_inner_product examples/tile_transpose examples/tile_stencil examples/tile_matmul examples/halo examples/aggregate tests/test_mbsp tests/tmp tests/fuzz_replay tests/fuzz_seeds tests/test_faults tests/test_comm tests/test_comm_mpi tests/test_map_mpi tests/test_decide tests/test_tune tests/test_map tests/test_aggr

# issue 3's acceptance on this machine: 10 quiet runs, 10 with a busy neighbour
bench-cache: bin/servet
	python3 tools/accept_cache.py 10 bench_data/cache_probe_runs.json

# the cache probe beside a memory-bound neighbour, N runs quiet and loaded
bench-noisy: bin/servet
	python3 tools/bench_noisy.py 20 bench_data/noisy_neighbour_runs.json

# issue 4's acceptance on this machine: 5 runs of the shared-cache and memory probes
bench-shared: bin/servet
	python3 tools/accept_shared.py 5 bench_data/shared_memory_runs.json

# ---- hardening (issue 7) ----
# the cache-file reader under libFuzzer (clang); crashes land in tests/fuzz/regressions/
bin/fuzz_reader: tests/fuzz_reader.c servet.h
	@mkdir -p bin
	clang -g -O1 -fsanitize=fuzzer,address,undefined -DSERVET_FUZZ_LIBFUZZER \
	  -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $(HWLOC_CFLAGS) -pthread -o $@ tests/fuzz_reader.c $(LDLIBS)
fuzz: bin/fuzz_reader
	@rm -rf bin/fuzz-corpus && mkdir -p bin/fuzz-corpus tests/fuzz/regressions && cp tests/fuzz/seeds/* bin/fuzz-corpus/
	./bin/fuzz_reader -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -artifact_prefix=tests/fuzz/regressions/ bin/fuzz-corpus 2>&1 | tee bin/fuzz.log | tail -n 20
# replays seeds and regressions through the same entry point (ASan+UBSan)
tests/fuzz_replay: tests/fuzz_reader.c servet.h
	$(CC) -std=c99 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	  -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $(HWLOC_CFLAGS) -pthread -o $@ tests/fuzz_reader.c $(LDLIBS)
tests/fuzz_seeds: tests/fuzz_seeds.c servet.h
	$(CC) $(ALL_CFLAGS) -o $@ tests/fuzz_seeds.c $(LDLIBS)

# the test programs under ASan + UBSan, the fuzz replay, and the CLI under valgrind
test-sanitize: all
	./tests/run.sh --sanitize-only

# MultiBSP validation (MBSPDiscover Sec. 4.3): predicted vs measured inner product
bench-mbsp: examples/mbsp_inner_product
	./examples/mbsp_inner_product bench_data/mbsp_validation.json
