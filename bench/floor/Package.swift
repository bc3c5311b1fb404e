// swift-tools-version:6.0
// The floor of `authctl token`: a minimal program that reads and decodes the same keystore
// file with Foundation's JSONDecoder and prints the current user's access token; and the
// same program linked with FoundationNetworking (libcurl), to show what linking it costs;
// and the same program on FoundationEssentials alone (no ICU), authctl's floor since issue 14.
import PackageDescription

let package = Package(
    name: "keystore-floor",
    targets: [
        .target(name: "KeystoreFloor"),
        .executableTarget(name: "keystore-floor", dependencies: ["KeystoreFloor"]),
        .executableTarget(name: "keystore-floor-networking", dependencies: ["KeystoreFloor"]),
        .target(name: "KeystoreFloorEssentials"),
        .executableTarget(name: "keystore-floor-essentials", dependencies: ["KeystoreFloorEssentials"]),
    ]
)
