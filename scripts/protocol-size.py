#!/usr/bin/env python3
"""The requirements of every protocol in Sources (methods, properties, initialisers,
subscripts and associated types declared in its body; a refined protocol's are its own),
largest first. Fails when one has more than the limit (8): a provider's rules are split
by concern (Sources/AuthCore/Providers/IdentityProvider.swift), not gathered in one list.
Usage: scripts/protocol-size.py [-v] [--limit N] [Sources]   (-v: every protocol)"""
import os, re, sys

args = sys.argv[1:]
limit = 8
if "--limit" in args:
    limit = int(args[args.index("--limit") + 1])
    del args[args.index("--limit"):args.index("--limit") + 2]
roots = [a for a in args if not a.startswith("-")] or ["Sources"]
head = re.compile(r"^[ \t]*(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |internal |private |fileprivate )?protocol\s+([A-Z]\w*)[^{]*\{", re.M)
member = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:static|class|mutating|nonmutating|nonisolated|optional|public)\s+)*(func|var|let|init|subscript|associatedtype)\b")
strip = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:[^\"\\\n]|\\.)*\"", re.S)
sizes = []
for root in roots:
    for dirpath, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(dirpath, name)
            text = strip.sub("", open(path, encoding="utf-8").read())
            for m in head.finditer(text):
                depth, i = 1, m.end()
                body_start = i
                while i < len(text) and depth:
                    depth += {"{": 1, "}": -1}.get(text[i], 0)
                    i += 1
                body = text[body_start:i - 1]
                # Members at the body's own level only (a default value's braces are not members).
                level, lines = 0, []
                for line in body.split("\n"):
                    if level == 0:
                        lines.append(line)
                    level += line.count("{") - line.count("}")
                count = sum(1 for line in lines if member.match(line))
                sizes.append((count, m.group(1), path))
sizes.sort(key=lambda s: (-s[0], s[1]))
if sizes:
    print(f"largest protocol: {sizes[0][1]} {sizes[0][0]} requirements ({sizes[0][2]}); {len(sizes)} protocols")
for count, name, path in sizes:
    if "-v" in sys.argv or count > limit:
        print(f"{count:3} {name}  {path}" + (f"   over {limit}" if count > limit else ""))
over = [s for s in sizes if s[0] > limit]
if over:
    print(f"protocol-size: {len(over)} protocol(s) have more than {limit} requirements; split them by concern", file=sys.stderr)
sys.exit(1 if over else 0)
