import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs

/// What a frame of the turning compass costs: the compass page drawn at 480 x 320 (rgb565)
/// into the back buffer and its changes written to the panel, the heading 3 degrees on each
/// frame. Callgrind counts `frame`; per panel pixel that is bench key
/// `display.compassInstructionsPerPixel` (budget 40).
public enum DisplayBench {
    public static let width = 480, height = 320

    /// The compass page as on a walk: a true heading, the declination, the accuracy, a lock.
    static func model(heading: Double) -> DisplayModel {
        var model = DisplayModel()
        model.title = "bench"
        model.clock = "12:00"
        model.state.attitude = TiltCompensatedHeading(roll: 2, pitch: -1, magneticHeading: heading)
        model.state.declination = 3.4
        model.state.trueHeading = Angle.heading(heading + 3.4)
        model.state.headingAccuracy = 1.5
        model.compass.calibration = .good
        model.compass.lockedBearing = 30
        model.compass.deviation = Angle.signed(heading + 3.4 - 30)
        model.compass.steps = 4210
        return model
    }

    /// Draws `frames` frames; returns the bytes written to the panel (so nothing is optimised away).
    public static func kernel(frames: Int) -> Int {
        let back = MemoryFramebuffer(width: width, height: height, format: .rgb565)
        let screen = MemoryFramebuffer(width: width, height: height, format: .rgb565)
        let shadow = MemoryFramebuffer(width: width, height: height, format: .rgb565)
        var written = 0
        for n in 0..<max(1, frames) { written += frame(model(heading: Double(n) * 3), back: back, screen: screen, shadow: shadow) }
        return written
    }

    @inline(never)
    public static func frame(_ model: DisplayModel, back: MemoryFramebuffer, screen: MemoryFramebuffer, shadow: MemoryFramebuffer) -> Int {
        GraphicPages.draw(.compass, model, theme: .day, on: back)
        return back.presentChanges(on: screen, shadow: shadow)
    }

    /// Instructions per panel pixel per frame; nil with a note when valgrind is missing.
    public static func run(frames: Int = 40) -> (perPixel: Double?, note: String?) {
        // As the binary names it: Swift's mangling writes "DisplayBench" inside "LodestoneBench"
        // as "DisplayB0" (the repeated word by reference), so the pattern names the method.
        let (counts, note) = Callgrind.count(kernel: "display", functions: ["*Display*5frame_4back6screen6shadow*"], count: frames)
        return (counts?.first.map { $0 / Double(width * height) }, note)
    }
}
