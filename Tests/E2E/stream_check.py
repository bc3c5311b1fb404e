#!/usr/bin/env python3
"""Shows that `authctl request` streams (docs/resources.md), against resource_server.py's
/mcp/events: authctl's stdout is read through a pipe; the resource sends its second event
only once the gate file exists, and this script makes it only after the first event came
out of authctl. A buffering authctl never shows the first event in time: the read times out
(no deadlock: every wait is bounded).

  stream_check.py AUTHCTL URL GATE_FILE RESOURCE_LOG [--interrupt]

--interrupt: after the first event, Ctrl-C (SIGINT) instead; authctl must end with 130.
Prints what it saw; exits 0 when all held."""
import os
import select
import signal
import subprocess
import sys
import time

authctl, url, gate, resource_log = sys.argv[1:5]
interrupt = "--interrupt" in sys.argv[5:]


def fail(message):
    print(f"stream_check: {message}", file=sys.stderr)
    sys.exit(1)


def read_until(process, seen, marker, seconds):
    """Reads authctl's stdout into `seen` until `marker` is in it (True) or EOF / time runs out (False)."""
    deadline = time.monotonic() + seconds
    while marker not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([process.stdout], [], [], left)
        if not ready:
            return False
        chunk = os.read(process.stdout.fileno(), 65536)
        if not chunk:
            return marker in seen
        seen += chunk
    return True


def second_sent():
    try:
        with open(resource_log) as handle:
            return f"second event sent (gate {os.path.basename(gate)})" in handle.read()
    except FileNotFoundError:
        return False


process = subprocess.Popen([authctl, "request", "--include", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
seen = bytearray()
try:
    if not read_until(process, seen, b"data: first\n\n", 20):
        fail(f"the first event did not come out of authctl while the resource held the second (got {bytes(seen)[:200]!r})")
    if second_sent() or os.path.exists(gate):
        fail("the resource had sent the second event already")
    head = bytes(seen).split(b"\n\n", 1)[0]
    if not head.startswith(b"HTTP 200\n") or b"text/event-stream" not in head:
        fail(f"--include did not print the status line and headers first: {head[:200]!r}")
    if interrupt:
        process.send_signal(signal.SIGINT)
        status = process.wait(timeout=10)
        error = process.stderr.read().decode()
        if status != 130 or "cancelled (Ctrl-C)" not in error:
            fail(f"Ctrl-C ended authctl with {status}: {error!r}")
        print("ok: the first event came out at once; Ctrl-C ended the stream with 130")
        sys.exit(0)
    open(gate, "w").close()
    if not read_until(process, seen, b"data: second\n\n", 20):
        fail(f"the second event did not follow (got {bytes(seen)[-200:]!r})")
    status = process.wait(timeout=20)
    if status != 0:
        fail(f"authctl exited {status}: {process.stderr.read().decode()!r}")
    print("ok: the first event came out of authctl before the resource sent the second; then the second; exit 0")
finally:
    if process.poll() is None:
        process.kill()
        process.wait()
