// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The commit `authctl --version` names: scripts/install.sh, package.sh and test.sh set
/// AUTHCTL_COMMIT (SwiftPM evaluates the manifest again when the environment changes, and
/// only the one C file that uses it is recompiled). Anything but a short commit id is ignored.
let commit = ProcessInfo.processInfo.environment["AUTHCTL_COMMIT"].flatMap { value -> String? in
    let allowed = Set("0123456789abcdef-dirty")
    return !value.isEmpty && value.count <= 48 && value.allSatisfy(allowed.contains) ? value : nil
}

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "authctl",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "authctl", targets: ["authctl"]),
        .library(name: "AuthCore", targets: ["AuthCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
    ],
    targets: [
        // The cached-token core (docs/front.md): the keystore scan, the record reader and its
        // table of keys, the key check, the rules peek, `token`'s hand-parsed forms and the
        // cached answer, on byte buffers and seconds with the standard library alone. The full
        // program's token path uses it through AuthCore; scripts/build-front.sh compiles it
        // whole into the token front (Embedded Swift), and scripts/lint.sh type-checks that.
        .target(name: "CachedTokenCore", swiftSettings: strict),
        .target(
            name: "AuthCore",
            dependencies: [
                "CachedTokenCore",
                .product(name: "Crypto", package: "swift-crypto"),
                // scrypt, for a keystore sealed with a passphrase (docs/keystore.md).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                "CLibCurlShim",
            ],
            swiftSettings: strict
        ),
        // Calls libcurl's variadic functions (resolved with dlsym) as variadic C calls.
        .target(name: "CLibCurlShim"),
        .target(
            name: "CAuthctlSupport",
            cSettings: commit.map { [.define("AUTHCTL_COMMIT", to: "\"\($0)\"")] } ?? []
        ),
        // The commands, run through one entry point (`AuthctlInvocation`) against the I/O
        // it is given: the executable passes the process's, tests their own.
        .target(
            name: "AuthctlCommands",
            dependencies: [
                "AuthCore",
                "CAuthctlSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "authctl",
            dependencies: ["AuthctlCommands"],
            swiftSettings: strict
        ),
        .target(
            name: "AuthCoreTestSupport",
            dependencies: [
                "AuthCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CachedTokenCoreTests",
            dependencies: ["CachedTokenCore", "AuthCore", "AuthCoreTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AuthCoreTests",
            dependencies: ["AuthCore", "AuthCoreTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AuthctlCommandsTests",
            dependencies: [
                "AuthctlCommands", "AuthCore", "AuthCoreTestSupport", "CachedTokenCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AuthctlIntegrationTests",
            dependencies: ["authctl", "AuthctlCommands", "AuthCore", "AuthCoreTestSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
