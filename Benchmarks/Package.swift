// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that `swift test` at the repository root never resolves or
// builds the benchmark dependencies. Run them from this directory: see README.md.
let package = Package(
    name: "WaymarkBenchmarks",
    dependencies: [
        .package(name: "Waymark", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ReplayBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
                .product(name: "WaymarkGPSD", package: "Waymark"),
                .product(name: "WaymarkAgent", package: "Waymark"),
            ],
            path: "Benchmarks/ReplayBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "SpoolBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
                .product(name: "WaymarkGPSD", package: "Waymark"),
                .product(name: "WaymarkStore", package: "Waymark"),
            ],
            path: "Benchmarks/SpoolBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "GeodesyBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
            ],
            path: "Benchmarks/GeodesyBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "MagneticBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
                .product(name: "WaymarkGPSD", package: "Waymark"),
            ],
            path: "Benchmarks/MagneticBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "LocationBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
                .product(name: "WaymarkGPSD", package: "Waymark"),
            ],
            path: "Benchmarks/LocationBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "RegionBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
            ],
            path: "Benchmarks/RegionBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "BeaconBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
            ],
            path: "Benchmarks/BeaconBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "PlacesBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
                .product(name: "WaymarkStore", package: "Waymark"),
            ],
            path: "Benchmarks/PlacesBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "AddressesBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WaymarkCore", package: "Waymark"),
                .product(name: "WaymarkStore", package: "Waymark"),
            ],
            path: "Benchmarks/AddressesBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
    ]
)
