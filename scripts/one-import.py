#!/usr/bin/env python3
"""Removes the conditional Foundation import from every Swift file but AuthCore's
Imports.swift, which chooses it once for the module and the modules that import it.
With --check, lists the files that still have it and exits 1."""
import pathlib, re, sys
block = re.compile(r"#if canImport\(FoundationEssentials\)\n    import FoundationEssentials\n#else\n    import Foundation\n#endif\n\n?")
found = []
for path in sorted(pathlib.Path(".").glob("Sources/**/*.swift")) + sorted(pathlib.Path(".").glob("Tests/**/*.swift")):
    if path.as_posix() == "Sources/AuthCore/Imports.swift":
        continue
    text = path.read_text()
    if block.search(text):
        found.append(path.as_posix())
        if "--check" not in sys.argv:
            path.write_text(block.sub("", text, count=1).lstrip("\n"))
if "--check" in sys.argv and found:
    print("the conditional Foundation import is made once, in Sources/AuthCore/Imports.swift; remove it from:", *found, sep="\n  ")
    sys.exit(1)
