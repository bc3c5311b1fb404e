#!/usr/bin/env python3
"""Times several commands paired: one run of each in turn, RUNS rounds (after 10 warm-up
rounds), so that a machine whose speed drifts (other builds, frequency scaling) slows them
alike. Prints JSON: per command its median, 10th and 90th percentile wall time in ms, and the
median of its per-round ratio to the first command's time.

Usage: measure-paired.py RUNS NAME=JSON_ARGV [NAME=JSON_ARGV…]
  where JSON_ARGV is a JSON list: leading "VAR=VALUE" words are set in the environment (as
  measure.py does, without timing env's exec), a leading "<PATH" word gives the command that
  file on stdin, the rest is the command. The order of the
  commands within a round alternates (forwards, then backwards) so neither is always first."""
import json, os, statistics, subprocess, sys, time

runs = int(sys.argv[1])
commands = []
for spec in sys.argv[2:]:
    name, argv = spec.split("=", 1)
    argv = json.loads(argv)
    environment = dict(os.environ)
    stdin = None
    while argv and ("=" in argv[0] and not argv[0].startswith("/") or argv[0].startswith("<")):
        word = argv.pop(0)
        if word.startswith("<"):
            stdin = word[1:]
        else:
            key, value = word.split("=", 1)
            environment[key] = value
    commands.append((name, argv, (environment, stdin)))


def once(argv, context):
    environment, stdin = context
    with open(stdin or os.devnull, "rb") as source:
        start = time.perf_counter()
        subprocess.run(argv, stdin=source, stdout=subprocess.DEVNULL, check=True, env=environment)
        return (time.perf_counter() - start) * 1000


for _ in range(10):
    for _, argv, environment in commands:
        once(argv, environment)
times = {name: [] for name, _, _ in commands}
ratios = {name: [] for name, _, _ in commands}
for round_ in range(runs):
    order = commands if round_ % 2 == 0 else list(reversed(commands))
    this = {}
    for name, argv, environment in order:
        this[name] = once(argv, environment)
        times[name].append(this[name])
    first = commands[0][0]
    for name in this:
        ratios[name].append(this[name] / this[first])
result = {}
for name, values in times.items():
    values.sort()
    result[name] = {"median_ms": statistics.median(values), "p10_ms": values[len(values) // 10],
                    "p90_ms": values[9 * len(values) // 10], "median_ratio_to_first": statistics.median(ratios[name])}
print(json.dumps(result))
