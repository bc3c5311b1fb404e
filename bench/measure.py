#!/usr/bin/env python3
"""Times a command: median and spread of wall time over RUNS runs (after WARMUP), and its
peak RSS (GNU time). Usage: measure.py RUNS [VAR=VALUE…] COMMAND ARGS…  → prints JSON.

Leading VAR=VALUE words are set in the command's environment by this script, as env(1)
would, but without running env: an `env VAR=… program` command line would time env's own
exec too (about 0.3 ms here), which the programs it is compared with do not pay."""
import json, os, resource, statistics, subprocess, sys, time

runs, command = int(sys.argv[1]), sys.argv[2:]
environment = dict(os.environ)
while command and "=" in command[0] and not command[0].startswith("/"):
    name, value = command.pop(0).split("=", 1)
    environment[name] = value
for _ in range(10):
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=environment)
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=environment)
    times.append((time.perf_counter() - start) * 1000)
# Peak RSS of one run, from GNU time (`%M`): a child's ru_maxrss includes the memory of
# the process it was forked from before exec — Python's ~14 MiB, which hid every program
# smaller than that — while time(1) forks from a process of about 1 MiB.
try:
    peak = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, check=True, env=environment).stderr.strip().splitlines()[-1]
except (FileNotFoundError, subprocess.CalledProcessError, IndexError):
    sys.exit("measure.py: GNU time (/usr/bin/time, Debian's time package) is needed for the peak RSS")
times.sort()
print(json.dumps({"median_ms": statistics.median(times), "p10_ms": times[len(times) // 10],
                  "p90_ms": times[9 * len(times) // 10], "peak_rss_kib": int(peak)}))
