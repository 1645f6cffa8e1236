// swift-tools-version:6.0
import PackageDescription

/// The git commit being built, for `lodestone --version` ("+changes" when the tree differs).
let revision: String = {
    guard let git = Context.gitInformation else { return "unknown" }
    return String(git.currentCommit.prefix(12)) + (git.hasUncommittedChanges ? "+changes" : "")
}()

/// Fuzz builds (scripts/fuzz) instrument every target they build, and an instrumented build
/// tool cannot run: they leave out the plugin that compiles the web app's files in, and the
/// routes that serve them (the readers under test do not need either).
let fuzzing = Context.environment["LODESTONE_FUZZ"] != nil

/// Release builds (what runs on a device) leave out Swift's run-time exclusivity checks. Those
/// checks catch one thread's overlapping accesses to a class's or a global's variable (an
/// inout argument aliasing the property being changed): programming errors, not data races,
/// which the Swift 6 language mode rules out at compile time. Debug builds keep them, and the
/// whole test suite runs there, so any overlap the code has fails a test; what crosses
/// threads at run time goes through the lock-free rings, the latest-value cells and atomics,
/// whose tests also run under ThreadSanitizer (scripts/test). In a release build the checks
/// were a third of the sampling thread's instructions and a fifth of the output thread's (a
/// call and a thread-local table look-up per access) and proved nothing the suite had not.
let release: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked", "-Xfrontend", "-function-sections"], .when(configuration: .release))
]

/// A running device keeps resident only the pages of code it touches, but the kernel maps a
/// file's pages 64 kB at a time, so code scattered across the program keeps most of it
/// resident (and locked). Release builds put each function in a section of its own and link
/// the ones a running device executes (packaging/hot-code.txt, written by scripts/hot-code
/// from a profile) first and together: the device's resident memory is then about what it runs.
/// The C library's functions are bound at start-up (`-z now`), not at their first call: a
/// first call an hour in would otherwise read the symbol tables back in (and keep them, locked),
/// and take a lookup's time on whichever thread made it, the sampling loop's included.
let hotCodeFirst: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/hot-code.txt",
            "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "-z", "-Xlinker", "now"
        ], .when(configuration: .release))
]

// Layers, lowest first; each target imports only the ones below it (docs/design.md draws the graph;
// LayerTests checks every import against these dependencies).
let package = Package(
    name: "Lodestone",
    products: [
        .executable(name: "lodestone", targets: ["lodestone"])
    ],
    targets: [
        // C system libraries and the small shims Swift cannot express (variadic ioctl, fcntl, prctl, CPU_SET).
        .systemLibrary(
            name: "CGPIOD", path: "Sources/CGPIOD", pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CI2C", path: "Sources/CI2C", providers: [.apt(["libi2c-dev"])]),
        .target(
            name: "CLinux", path: "Sources/CLinux",
            cSettings: [.define("LODESTONE_REVISION", to: "\"\(revision)\"")],
            linkerSettings: [.linkedLibrary("util")]),
        .target(name: "CAllocationCounter", path: "Sources/CAllocationCounter"),

        .target(name: "LodestoneCore", dependencies: ["CLinux"], path: "Sources/Core"),
        // Encodings several layers share: the JSON writer and reader, deflate and inflate, CRC-32.
        .target(name: "LodestoneEncoding", dependencies: ["LodestoneCore"], path: "Sources/Encoding"),
        .target(name: "LodestoneHAL", dependencies: ["LodestoneCore", "CLinux", "CI2C", "CGPIOD"], path: "Sources/HAL"),
        .target(name: "LodestoneDevices", dependencies: ["LodestoneCore", "LodestoneHAL"], path: "Sources/Devices"),
        .target(name: "LodestoneSim", dependencies: ["LodestoneCore", "LodestoneHAL", "CLinux"], path: "Sources/Sim"),
        // The field's knowledge; Encoding for the one document it owns (a snapshot's JSON, kept in
        // files, sent in the SNAPSHOT report and exported, one shape for all three).
        .target(name: "LodestoneDomain", dependencies: ["LodestoneCore", "LodestoneEncoding"], path: "Sources/Domain"),
        .target(name: "LodestoneReports", dependencies: ["LodestoneCore", "LodestoneDomain"], path: "Sources/Reports"),
        // The adapters: reports in, gpsd JSON, NMEA 0183, Signal K, MQTT and the display out.
        .target(
            name: "LodestoneOutputs", dependencies: ["LodestoneCore", "LodestoneEncoding", "LodestoneDomain", "LodestoneReports", "LodestoneHAL", "CLinux"],
            path: "Sources/Outputs", exclude: fuzzing ? ["Web/WebApp.swift"] : [], plugins: fuzzing ? [] : ["WebAssets"]),
        // What is wired where: the board description, its file and the weather station's wiring.
        .target(
            name: "LodestoneBoard", dependencies: ["LodestoneCore", "LodestoneEncoding", "LodestoneDevices"],
            path: "Sources/Board"),
        // What the owner chose: the configuration, the settings table, the sounds.
        .target(
            name: "LodestoneSettings",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain", "LodestoneReports",
                "LodestoneBoard"
            ],
            path: "Sources/Settings"),
        // The files the device keeps.
        .target(
            name: "LodestoneStorage",
            dependencies: ["LodestoneCore", "LodestoneEncoding", "LodestoneDomain", "LodestoneReports", "CLinux"],
            path: "Sources/Storage"),
        // The sensors wired to the board: drivers chosen, read at a fixed rate into rings.
        .target(
            name: "LodestoneSampling",
            dependencies: ["LodestoneCore", "LodestoneHAL", "LodestoneDevices", "LodestoneDomain", "LodestoneBoard"],
            path: "Sources/Sampling"),
        // Samples into reports: the compass, the position, the weather, the tracks and the rest.
        .target(
            name: "LodestoneServices",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDomain", "LodestoneReports", "LodestoneBoard", "LodestoneSettings",
                "LodestoneSampling", "LodestoneStorage"
            ],
            path: "Sources/Services"),
        // The wiring: the two task tables, the output loop, the run and its reload.
        .target(
            name: "LodestoneRuntime",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain",
                "LodestoneReports", "LodestoneOutputs", "LodestoneBoard", "LodestoneSettings", "LodestoneStorage", "LodestoneSampling",
                "LodestoneServices", "CLinux"
            ],
            path: "Sources/Runtime"),
        // The referee: the device on the simulated board, judged against the simulator's truth.
        .target(
            name: "LodestoneVerify",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneDomain", "LodestoneReports", "LodestoneSim", "LodestoneOutputs",
                "LodestoneBoard", "LodestoneSettings", "LodestoneStorage", "LodestoneRuntime"
            ],
            path: "Sources/Verify"),
        // The benchmarks `lodestone bench` runs.
        .target(
            name: "LodestoneBench",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain",
                "LodestoneReports", "LodestoneOutputs", "LodestoneBoard", "LodestoneSettings", "LodestoneStorage", "LodestoneSampling",
                "LodestoneRuntime", "CLinux", "CAllocationCounter"
            ],
            path: "Sources/Bench"),
        .executableTarget(
            name: "lodestone",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain",
                "LodestoneReports", "LodestoneOutputs", "LodestoneBoard", "LodestoneSettings", "LodestoneStorage", "LodestoneSampling",
                "LodestoneServices", "LodestoneRuntime", "LodestoneVerify", "LodestoneBench"
            ],
            path: "Sources/lodestone"),

        // The web app's files (web/) compiled into the Outputs module at build time.
        .executableTarget(name: "web-assets", path: "Plugins/WebAssetsTool"),
        .plugin(name: "WebAssets", capability: .buildTool(), dependencies: ["web-assets"], path: "Plugins/WebAssets"),

        // The tests mirror the modules: each test target depends on its module and modules below
        // it alone (LayerTests checks their imports too), so a module's tests build without the
        // layers above it. Only CLITests has the executable: it runs the built `lodestone` as a
        // user would, and holds the tests of its commands and of the benchmarks.
        .testTarget(name: "CoreTests", dependencies: ["LodestoneCore"], path: "Tests/Core"),
        .testTarget(name: "EncodingTests", dependencies: ["LodestoneCore", "LodestoneEncoding"], path: "Tests/Encoding"),
        .testTarget(name: "HALTests", dependencies: ["LodestoneCore", "LodestoneHAL"], path: "Tests/HAL"),
        .testTarget(name: "DevicesTests", dependencies: ["LodestoneCore", "LodestoneHAL", "LodestoneDevices", "CLinux"], path: "Tests/Devices"),
        // The drivers against the simulator's chips, and the simulator.
        .testTarget(name: "SimTests", dependencies: ["LodestoneCore", "LodestoneHAL", "LodestoneDevices", "LodestoneSim"], path: "Tests/Sim"),
        .testTarget(
            name: "DomainTests", dependencies: ["LodestoneCore", "LodestoneSim", "LodestoneDomain"], path: "Tests/Domain", exclude: ["Vectors"]),
        .testTarget(name: "ReportsTests", dependencies: ["LodestoneReports"], path: "Tests/Reports"),
        .testTarget(
            name: "OutputsTests",
            dependencies: ["LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDomain", "LodestoneReports", "LodestoneOutputs"],
            path: "Tests/Outputs", exclude: ["Screens"]),
        .testTarget(name: "BoardTests", dependencies: ["LodestoneCore", "LodestoneDevices", "LodestoneBoard"], path: "Tests/Board"),
        .testTarget(
            name: "SettingsTests",
            dependencies: ["LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDomain", "LodestoneBoard", "LodestoneSettings"],
            path: "Tests/Settings"),
        .testTarget(
            name: "StorageTests",
            dependencies: ["LodestoneCore", "LodestoneEncoding", "LodestoneDomain", "LodestoneReports", "LodestoneOutputs", "LodestoneStorage"],
            path: "Tests/Storage"),
        .testTarget(
            name: "SamplingTests",
            dependencies: [
                "LodestoneCore", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain", "LodestoneBoard", "LodestoneSettings",
                "LodestoneSampling"
            ],
            path: "Tests/Sampling"),
        .testTarget(
            name: "ServicesTests",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneSim", "LodestoneDomain", "LodestoneReports", "LodestoneOutputs",
                "LodestoneBoard", "LodestoneSettings", "LodestoneStorage", "LodestoneSampling", "LodestoneServices"
            ],
            path: "Tests/Services"),
        .testTarget(
            name: "RuntimeTests",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain", "LodestoneReports",
                "LodestoneBoard", "LodestoneSettings", "LodestoneStorage", "LodestoneSampling", "LodestoneRuntime"
            ],
            path: "Tests/Runtime"),
        // The referee's trips, and what needs its trips.
        .testTarget(
            name: "VerifyTests",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneSim", "LodestoneDomain", "LodestoneOutputs", "LodestoneBoard",
                "LodestoneSettings",
                "LodestoneStorage", "LodestoneServices", "LodestoneRuntime", "LodestoneVerify"
            ],
            path: "Tests/Verify"),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "LodestoneCore", "LodestoneEncoding", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain", "LodestoneReports",
                "LodestoneOutputs", "LodestoneBoard", "LodestoneSettings", "LodestoneStorage", "LodestoneSampling", "LodestoneServices",
                "LodestoneRuntime", "LodestoneVerify", "LodestoneBench", "lodestone"
            ],
            path: "Tests/CLI", exclude: ["Sessions"])
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .test && (target.name.hasPrefix("Lodestone") || target.name == "lodestone") {
    target.swiftSettings = (target.swiftSettings ?? []) + release
    if target.name == "lodestone" { target.linkerSettings = (target.linkerSettings ?? []) + hotCodeFirst }
}

/// The ThreadSanitizer run of the lock-free ring and latest-value cell (scripts/test) needs the
/// core layers and their tests alone: with LODESTONE_CORE_ONLY set the package is only those, so
/// that run does not build every layer a second time under the sanitizer.
if Context.environment["LODESTONE_CORE_ONLY"] != nil {
    let core: Set<String> = ["CLinux", "LodestoneCore", "LodestoneEncoding", "CoreTests", "EncodingTests"]
    package.targets = package.targets.filter { core.contains($0.name) }
    package.products = []
}
