import LodestoneCore
import Testing

/// The services see the sampling side through `SamplingControl` alone: none names the
/// pipeline's class, so none can reach the sampling thread's own state.
@Suite struct SamplingSeamTests {
    @Test func servicesDoNotNameThePipeline() throws {
        let files = LayerTests.swiftFiles(in: "Sources/Services")
        try #require(files.count >= 10, "the services' folder was not found under \(LayerTests.root)")
        for path in files {
            let text = try readTextFile(path)
            #expect(!text.contains("SensorPipeline"), "\(path) names SensorPipeline: use SamplingControl")
        }
    }
}
