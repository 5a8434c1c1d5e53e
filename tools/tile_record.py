"""What tools/tile_replay.c reads, from one make bench-tile run file: the
record of the machine (measured and OS cache sizes, ways, latencies, memory
latency, copy and interleaved-read bandwidths, TLB reaches) and one line per
case. Shared by tools/tile_replay.py (the model scored on the sweeps) and
tools/tune_replay.py (the model's near-ties as the tuner's extra seeds)."""
import hashlib
import os
import subprocess
import tempfile


def machine_class(d):
    """one machine per CPU model and L1/L2 size (two VMs report "AMD EPYC")"""
    caches = d.get("caches", [])[:3]
    cpu = d.get("cpu_model", "?")
    return "%s, L1 %d KiB, L2 %d KiB" % (cpu.replace("AuthenticAMD ", "")[:44], caches[0]["reported_bytes"] // 1024,
                                          caches[1]["reported_bytes"] // 1024)


def replay_lines(d, cases, mem):
    """tile_replay's input lines for these cases of run file d: its recorded
    profile where it has one, else one rebuilt from its figures; None when
    the run recorded neither that nor three cache levels. mem: the memory
    latency (ns) where the run did not record it (runs before 2026-12-03)"""
    if d.get("profile_file_hex"):
        # the run's own profile (its cache file, since 2026-12-03): written
        # out once under the temporary directory, tile_replay reads it
        raw = bytes.fromhex(d["profile_file_hex"])
        path = os.path.join(tempfile.gettempdir(), "servet-replay-%s.prof" % hashlib.sha1(raw).hexdigest()[:16])
        if not os.path.exists(path):
            tmp = "%s.%d.tmp" % (path, os.getpid())
            with open(tmp, "wb") as o:
                o.write(raw)
            os.replace(tmp, path)
        return ["@%s %d %d %d %s\n" % (c["kernel"], c["n"], c["m"], c["ld"], path) for c in cases]
    caches = d.get("caches", [])[:3]
    if len(caches) < 3:
        return None
    bw = d.get("memory_copy_bytes_per_s") or 0
    tlb = d.get("tlb_reach_bytes") or [0, 0]
    head = [c["measured_bytes"] for c in caches] + [c["reported_bytes"] for c in caches] + [c["ways"] for c in caches]
    lat = d.get("memory_latency_ns") or mem  # recorded since 2026-12-03; mem (110 ns) before
    head += [c["latency_ns"] for c in caches] + [lat, bw, tlb[0], tlb[1] if len(tlb) > 1 else 0]
    head += [d.get("memory_interleaved_read_bytes_per_s") or 0]  # step 6c's figure (0: not recorded, 6c off)
    return ["%s %s %d %d %d\n" % (" ".join(str(x) for x in head), c["kernel"], c["n"], c["m"], c["ld"]) for c in cases]


def decide(exe, lines, alternatives=False, vector=None):
    """tile_replay's tile per line; with alternatives, a list per line: the
    tile (the kernel's own loop: matmul's j) then the model's near-ties.
    vector: the run's kernel_vector (make bench-tile-vector), passed on as
    TILE_KERNEL_VECTOR so the kernels are described as the run described
    them; None: the environment's, as it is"""
    env = None
    if vector is not None:
        env = dict(os.environ)
        env.pop("TILE_KERNEL_VECTOR", None)
        if vector > 1:
            env["TILE_KERNEL_VECTOR"] = str(vector)
    r = subprocess.run([exe] + (["--alternatives"] if alternatives else []), input="".join(lines),
                       capture_output=True, text=True, check=True, env=env)
    if alternatives:
        return [[int(x) for x in l.split()] for l in r.stdout.splitlines()]
    return [int(x) for x in r.stdout.split()]
