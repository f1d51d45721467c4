// swift-tools-version: 6.0
import PackageDescription

// Waymark is a Linux agent: it builds on Linux only (timerfd, eventfd, renameat2, libgps, sd-bus).
#if !os(Linux)
#error("Waymark builds on Linux only (Debian 12 and later): it is made of Linux system calls and Debian's libraries")
#endif

let package = Package(
    name: "Waymark",
    products: [
        .executable(name: "waymark", targets: ["waymark"]),
        .library(name: "WaymarkSystem", targets: ["WaymarkSystem"]),
        .library(name: "WaymarkFormats", targets: ["WaymarkFormats"]),
        .library(name: "WaymarkCore", targets: ["WaymarkCore"]),
        .library(name: "WaymarkClocks", targets: ["WaymarkClocks"]),
        .library(name: "WaymarkGPX", targets: ["WaymarkGPX"]),
        .library(name: "WaymarkGPSD", targets: ["WaymarkGPSD"]),
        .library(name: "WaymarkStore", targets: ["WaymarkStore"]),
        .library(name: "WaymarkUplink", targets: ["WaymarkUplink"]),
        .library(name: "WaymarkBluetooth", targets: ["WaymarkBluetooth"]),
        .library(name: "WaymarkAgent", targets: ["WaymarkAgent"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibGPS",
            pkgConfig: "libgps",
            providers: [.apt(["libgps-dev"])]
        ),
        // Linux calls the Glibc module leaves out (renameat2), a thread's name, the clock's synchronization;
        // declarations and static inline helpers only, nothing to link.
        .systemLibrary(name: "CLinux"),
        // What every module asks of Linux: threads, clocks, wake signals, files, one SystemError. No Waymark type.
        .target(name: "WaymarkSystem", dependencies: ["CLinux"]),
        // General-purpose readers and writers of text formats (TOML, JSON, XML): no domain types, no I/O.
        .target(name: "WaymarkFormats"),
        // The magnetic model's official coefficient file is compiled in as text (WMM2025+Coefficients.swift).
        .target(
            name: "WaymarkCore",
            dependencies: ["WaymarkFormats"],
            exclude: ["Magnetism/WMM2025.COF", "Magnetism/README.md"]
        ),
        // GPX 1.0/1.1 documents as Core's values, read (for replay) and written (trip tracks, exports): no I/O.
        .target(name: "WaymarkGPX", dependencies: ["WaymarkCore", "WaymarkFormats"]),
        // The system's clocks read as Core's instants, for the modules above Core that read them.
        .target(name: "WaymarkClocks", dependencies: ["WaymarkCore", "WaymarkSystem"]),
        .target(
            name: "WaymarkGPSD",
            dependencies: ["CLibGPS", "WaymarkClocks", "WaymarkCore", "WaymarkGPX", "WaymarkSystem"]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "WaymarkStore", dependencies: ["WaymarkCore", "CSQLite", "WaymarkSystem"]),
        // HTTP(S), gzip and zstd for the uplinks: built on the headers of Debian's libcurl4-openssl-dev, zlib1g-dev
        // and libzstd-dev, the libraries loaded with dlopen when a network sink first needs them, not linked
        // (Sources/CUplink).
        .target(name: "CUplink"),
        .target(
            name: "WaymarkUplink",
            dependencies: ["CUplink", "WaymarkCore", "WaymarkFormats", "WaymarkGPX", "WaymarkStore", "WaymarkSystem"]
        ),
        // D-Bus for the beacon source: built on the header of Debian's libsystemd-dev (sd-bus), the library
        // loaded with dlopen when beacons are enabled, not linked (Sources/CBlueZ).
        .target(name: "CBlueZ"),
        .target(name: "WaymarkBluetooth", dependencies: ["CBlueZ", "WaymarkCore", "WaymarkSystem"]),
        .target(
            name: "WaymarkAgent",
            dependencies: [
                "WaymarkClocks",
                "WaymarkCore",
                "WaymarkFormats",
                "WaymarkGPSD",
                "WaymarkStore",
                "WaymarkUplink",
                "WaymarkBluetooth",
                "WaymarkSystem",
                "CLinux",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "waymark",
            dependencies: [
                "WaymarkAgent",
                "WaymarkBluetooth",
                "WaymarkClocks",
                "WaymarkCore",
                "WaymarkFormats",
                "WaymarkGPSD",
                "WaymarkSystem",
                "WaymarkUplink",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Real gpsd processes, fixture paths and the capture oracle, shared by the test targets.
        .target(name: "WaymarkTestSupport", path: "Tests/WaymarkTestSupport"),
        // The brute-force nearest place the gazetteer is held to, optimized even in a debug build: 15,000
        // exhaustive searches over 170,391 places would take minutes unoptimized.
        .target(
            name: "PlacesOracle",
            dependencies: ["WaymarkCore"],
            path: "Tests/PlacesOracle",
            swiftSettings: [.unsafeFlags(["-O"])]
        ),
        .testTarget(name: "WaymarkSystemTests", dependencies: ["WaymarkSystem", "WaymarkTestSupport"]),
        .testTarget(name: "WaymarkFormatsTests", dependencies: ["WaymarkFormats", "WaymarkTestSupport"]),
        .testTarget(name: "WaymarkCoreTests", dependencies: ["WaymarkCore", "WaymarkTestSupport", "PlacesOracle"]),
        .testTarget(name: "WaymarkGPXTests", dependencies: ["WaymarkGPX", "WaymarkCore", "WaymarkTestSupport"]),
        .testTarget(
            name: "WaymarkGPSDTests",
            dependencies: ["WaymarkGPSD", "WaymarkCore", "WaymarkGPX", "WaymarkTestSupport"]
        ),
        .testTarget(
            name: "WaymarkStoreTests",
            dependencies: ["WaymarkStore", "WaymarkCore", "WaymarkSystem", "WaymarkTestSupport"]
        ),
        .testTarget(
            name: "WaymarkUplinkTests",
            dependencies: [
                "WaymarkUplink", "WaymarkCore", "WaymarkGPX", "WaymarkStore", "WaymarkSystem", "WaymarkTestSupport",
            ]
        ),
        .testTarget(
            name: "WaymarkBluetoothTests",
            dependencies: ["WaymarkBluetooth", "WaymarkCore", "WaymarkTestSupport"]
        ),
        .testTarget(
            name: "WaymarkAgentTests",
            dependencies: [
                "WaymarkAgent",
                "WaymarkCore",
                "WaymarkFormats",
                "WaymarkGPSD",
                "WaymarkStore",
                "WaymarkSystem",
                "WaymarkUplink",
                "WaymarkTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "waymarkTests",
            dependencies: ["waymark", "WaymarkBluetooth", "WaymarkCore", "WaymarkTestSupport", "PlacesOracle"]
        ),
    ]
)

// The arm64 probe (Tests/Arm64Probe): `waymark replay` and `waymark geo place` without swift-argument-parser, for
// scripts/check-arm64.sh's cross build only, which sets WAYMARK_ARM64_PROBE (see docs/arm64.md).
if Context.environment["WAYMARK_ARM64_PROBE"] != nil {
    package.products.append(.executable(name: "arm64probe", targets: ["arm64probe"]))
    package.targets.append(
        .executableTarget(
            name: "arm64probe",
            dependencies: [
                "WaymarkAgent", "WaymarkCore", "WaymarkGPSD", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Arm64Probe"
        )
    )
}
