#!/usr/bin/env python3
"""What the token front (Sources/authctl-front) leaves in its memory after answering from a
keystore sealed with a key file: a core image taken by gdb as it exits must hold none of the
key file's key (raw or its base64 text), the data key, nor the refresh token it opened and
never prints (FrontSealed.swift wipes them, and makes no String of them).

Usage: memory.py FRONT CORE   (skipped, exit 0, without gdb or Python's cryptography)
"""
import base64, json, os, shutil, subprocess, sys, tempfile

front, core = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
try:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:
    AESGCM = None
if shutil.which("gdb") is None or AESGCM is None:
    print("front memory: skipped (needs gdb and Python's cryptography)", file=sys.stderr)
    sys.exit(0)

here = os.path.dirname(os.path.abspath(__file__))
root = tempfile.mkdtemp(prefix="authctl-front-memory-")
os.chmod(root, 0o700)
failures = []
try:
    plain, keystore = f"{root}/plain.json", f"{root}/keystore.json"
    subprocess.run([sys.executable, f"{here}/../../bench/make-keystore.py", "1", plain], check=True, capture_output=True)
    refresh = json.load(open(plain))["users"][0]["providerData"][0]["tokens"]["refreshToken"].encode()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": root, "LANG": "C.UTF-8"}
    for label, key_text in (("base64", None), ("raw", os.urandom(32))):
        shutil.copy(plain, keystore)
        os.chmod(keystore, 0o600)
        key = f"{root}/{label}.key"
        if key_text is None:
            key_text = subprocess.run([core, "keystore", "new-key"], capture_output=True, check=True).stdout
        with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            f.write(key_text)
        subprocess.run([core, "keystore", "seal", "--keystore", keystore, "--key-file", key, "-q"], check=True, env=env, capture_output=True)
        wrapping = key_text if len(key_text) == 32 else base64.b64decode(key_text.strip())
        wrapped = base64.b64decode(json.load(open(keystore))["sealing"]["wrappedKey"])
        data_key = AESGCM(wrapping).decrypt(wrapped[:12], wrapped[12:], b"authctl keystore data key\0keyFile")
        image = f"{root}/core"
        answered = subprocess.run(["gdb", "-batch", "-nx", "-ex", "catch syscall exit_group", "-ex", "run", "-ex", f"gcore {image}", "-ex", "kill",
                                   "--args", front, "token", "--keystore", keystore], capture_output=True, timeout=120,
                                  env=dict(env, AUTHCTL_KEYSTORE_KEY_FILE=key))
        if not os.path.exists(image):
            failures.append(f"{label}: gdb took no core image: {answered.stdout[-300:]!r} {answered.stderr[-300:]!r}")
            continue
        with open(image, "rb") as f:
            memory = f.read()
        os.remove(image)
        secrets = [("the refresh token", refresh), ("the data key", data_key), ("the key file's key", wrapping)]
        if len(key_text) != 32:
            secrets.append(("the key file's text", key_text.strip()))
        for name, secret in secrets:
            if secret in memory:
                failures.append(f"{label} key file: {name} is still in the front's memory as it exits ({memory.count(secret)} copies)")
finally:
    shutil.rmtree(root, ignore_errors=True)
for failure in failures:
    print("FAIL", failure, file=sys.stderr)
print(f"front memory: {len(failures)} failures", file=sys.stderr)
sys.exit(1 if failures else 0)
