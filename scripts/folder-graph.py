#!/usr/bin/env python3
"""Which folders of Sources/AuthCore use which: a type declared in one folder and named in
another makes an edge. Prints files per folder, the largest file, the edges and every
circle (two folders that use each other).
Usage: scripts/folder-graph.py [-v] [Sources/AuthCore]   (-v: every edge)"""
import os, re, sys
from collections import defaultdict

args = [a for a in sys.argv[1:] if not a.startswith("-")]
root = args[0] if args else "Sources/AuthCore"
decl = re.compile(r"^\s*(?:@\w+\s+)*(?:public |package |internal |private |fileprivate )?(?:final )?(?:indirect )?(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
files = {}
for dirpath, _, names in os.walk(root):
    for name in names:
        if name.endswith(".swift"):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            folder = rel.split(os.sep)[0] if os.sep in rel else "."
            files[path] = (folder, open(path, encoding="utf-8").read())
owner = {}
for path, (folder, text) in files.items():
    # Top-level declarations only: no indentation.
    for m in re.finditer(r"^(?:public |package |internal )?(?:final )?(?:indirect )?(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)", text, re.M):
        owner.setdefault(m.group(1), folder)
edges = defaultdict(set)
why = {}
strip = re.compile(r"//[^\n]*|\"(?:[^\"\\\n]|\\.)*\"")
for path, (folder, text) in files.items():
    code = strip.sub("", text)
    for word in set(re.findall(r"\b[A-Z]\w*\b", code)):
        target = owner.get(word)
        if target and target != folder:
            edges[folder].add(target)
            why.setdefault((folder, target), f"{os.path.basename(path)} uses {word}")
counts = defaultdict(int)
for folder, _ in files.values():
    counts[folder] += 1
print("files per folder:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
largest = max(files, key=lambda p: files[p][1].count("\n"))
print("largest file:", os.path.relpath(largest, root), files[largest][1].count("\n"), "lines")
circles = sorted({tuple(sorted((a, b))) for a in list(edges) for b in edges[a] if a in edges.get(b, ())})
for a, b in circles:
    print(f"circle: {a} <-> {b}   ({why.get((a, b), 'via others')}; {why.get((b, a), 'via others')})")
if "-v" in sys.argv:
    for a in sorted(edges):
        print(a, "->", ", ".join(sorted(edges[a])))
sys.exit(1 if circles else 0)
