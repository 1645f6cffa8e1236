// swift-tools-version:6.0
import PackageDescription

/// The git commit being built, for `lodestone --version` ("+changes" when the tree differs).
let revision: String = {
    guard let git = Context.gitInformation else { return "unknown" }
    return String(git.currentCommit.prefix(12)) + (git.hasUncommittedChanges ? "+changes" : "")
}()

// Layers, lowest first; each target imports only the ones below it (see README "Architecture").
let package = Package(
    name: "Lodestone",
    products: [
        .executable(name: "lodestone", targets: ["lodestone"]),
    ],
    targets: [
        // C system libraries and the small shims Swift cannot express (variadic ioctl, fcntl, prctl, CPU_SET).
        .systemLibrary(name: "CGPIOD", path: "Sources/CGPIOD", pkgConfig: "libgpiod",
                       providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CI2C", path: "Sources/CI2C", providers: [.apt(["libi2c-dev"])]),
        .target(name: "CLinux", path: "Sources/CLinux",
                cSettings: [.define("LODESTONE_REVISION", to: "\"\(revision)\"")],
                linkerSettings: [.linkedLibrary("util")]),
        .target(name: "CAllocationCounter", path: "Sources/CAllocationCounter"),

        .target(name: "LodestoneCore", dependencies: ["CLinux"], path: "Sources/Core"),
        .target(name: "LodestoneHAL", dependencies: ["LodestoneCore", "CLinux", "CI2C", "CGPIOD"], path: "Sources/HAL"),
        .target(name: "LodestoneDevices", dependencies: ["LodestoneCore", "LodestoneHAL"], path: "Sources/Devices"),
        .target(name: "LodestoneSim", dependencies: ["LodestoneCore", "LodestoneHAL", "CLinux"], path: "Sources/Sim"),
        .target(name: "LodestoneDomain", dependencies: ["LodestoneCore"], path: "Sources/Domain"),
        .target(name: "LodestoneReports", dependencies: ["LodestoneCore", "LodestoneDomain"], path: "Sources/Reports"),
        .target(name: "LodestoneOutputs", dependencies: ["LodestoneCore", "LodestoneDomain", "LodestoneReports", "LodestoneHAL", "CLinux"],
                path: "Sources/Outputs"),
        // Services (samples into reports), Storage (the files the device keeps) and Runtime
        // (the wiring: configuration, the two task tables, the run) are one module in three
        // folders: they share the device's types without making them public.
        .target(name: "LodestoneRuntime",
                dependencies: ["LodestoneCore", "LodestoneHAL", "LodestoneDevices", "LodestoneSim",
                               "LodestoneDomain", "LodestoneReports", "LodestoneOutputs", "CLinux", "CAllocationCounter"],
                path: "Sources", sources: ["Services", "Storage", "Runtime"]),
        .executableTarget(name: "lodestone",
                          dependencies: ["LodestoneCore", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain",
                                         "LodestoneReports", "LodestoneOutputs", "LodestoneRuntime"],
                          path: "Sources/lodestone"),

        .testTarget(name: "CoreTests", dependencies: ["LodestoneCore"], path: "Tests/Core"),
        .testTarget(name: "HALTests", dependencies: ["LodestoneCore", "LodestoneHAL", "LodestoneSim", "LodestoneDevices", "CLinux"], path: "Tests/HAL"),
        .testTarget(name: "DevicesTests", dependencies: ["LodestoneCore", "LodestoneHAL", "LodestoneDevices", "LodestoneSim"], path: "Tests/Devices"),
        .testTarget(name: "SimTests", dependencies: ["LodestoneCore", "LodestoneSim", "LodestoneHAL", "LodestoneDevices"], path: "Tests/Sim"),
        .testTarget(name: "DomainTests", dependencies: ["LodestoneDomain", "LodestoneCore", "LodestoneSim"], path: "Tests/Domain",
                    exclude: ["Vectors"]),
        .testTarget(name: "OutputsTests", dependencies: ["LodestoneOutputs", "LodestoneReports", "LodestoneHAL", "LodestoneCore", "LodestoneDomain"], path: "Tests/Outputs",
                    exclude: ["Screens"]),
        .testTarget(name: "RuntimeTests", dependencies: ["LodestoneRuntime", "LodestoneCore", "LodestoneHAL", "LodestoneDevices", "LodestoneSim", "LodestoneDomain", "LodestoneReports", "LodestoneOutputs", "lodestone"], path: "Tests/Runtime"),
    ],
    swiftLanguageModes: [.v6]
)
