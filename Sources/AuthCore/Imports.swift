// The cached-token core (Sources/CachedTokenCore), which AuthCore's token path and the token
// front share: exported, so AuthCore's Foundation-facing forms of it
// (Keystore/CachedTokenCore+Foundation.swift) and the core's own are seen together.
@_exported import CachedTokenCore

// The one place AuthCore chooses its Foundation: FoundationEssentials where the toolchain
// has it (Linux: no ICU, a faster start; bench/README.md), all of Foundation elsewhere.
// Exported, so every file of AuthCore and of the modules that import it sees the same one.
#if canImport(FoundationEssentials)
    @_exported import FoundationEssentials
#else
    @_exported import Foundation
#endif
