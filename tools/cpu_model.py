"""The CPU a bench ran on, for bench_data: /proc/cpuinfo's model name with the
vendor's family and model numbers (a VM may call a Zen 4 and a Zen 5 both
"AMD EPYC"). The one copy for the Python benches and the scripts' inline
Python (they run from the repository root: sys.path.insert(0, "tools")); the
C benches have tools/bench_cpu.h."""


def cpu_model():
    fam = {}
    try:
        for line in open("/proc/cpuinfo"):
            k = line.split(":", 1)[0].strip()
            if k in ("model name", "cpu family", "model", "vendor_id") and k not in fam:
                fam[k] = line.split(":", 1)[1].strip()
    except OSError:
        return "unknown"
    return "%s (%s family %s model %s)" % (fam.get("model name", "?"), fam.get("vendor_id", "?"),
                                           fam.get("cpu family", "?"), fam.get("model", "?"))


if __name__ == "__main__":
    print(cpu_model())
