#!/usr/bin/env python3
"""Times a command: median and spread of wall time over RUNS runs (after WARMUP), and its
peak RSS. Usage: measure.py RUNS COMMAND ARGS…  → prints JSON."""
import json, resource, statistics, subprocess, sys, time

runs, command = int(sys.argv[1]), sys.argv[2:]
for _ in range(10):
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
    times.append((time.perf_counter() - start) * 1000)
# Peak RSS of one run, in a fresh child so that earlier runs do not count.
peak = subprocess.run(
    [sys.executable, "-c",
     "import resource,subprocess,sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
     "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"] + command,
    capture_output=True, text=True, check=True).stdout.strip()
times.sort()
print(json.dumps({"median_ms": statistics.median(times), "p10_ms": times[len(times) // 10],
                  "p90_ms": times[9 * len(times) // 10], "peak_rss_kib": int(peak)}))
