import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneReports

/// A finished track as a card to share (a square picture, as messaging apps show one): its
/// name, when and where it began, the route drawn as the track page draws it (the start, the
/// photos' places, the waypoints near the end, north and a scale bar), and the headline
/// figures large: distance, moving time, climb and the pace or speed. Drawn by the device with
/// the display's own drawing and font, so it needs nothing from outside.
public enum TrackCard {
    /// The card's side in pixels: large enough for a phone's share sheet, small enough to draw
    /// on the device in a blink.
    public static let side = 1080

    /// The card as PNG bytes. `started` is Unix seconds (NaN: a track without times).
    public static func png(_ panel: DisplayModel.TrackPanel, started: Double, zone: TimeZoneRules, units: Units, language: Language) -> [UInt8] {
        let frame = MemoryFramebuffer(width: side, height: side, format: .xrgb8888)
        draw(panel, started: started, zone: zone, units: units, language: language, on: frame)
        return PNGEncoder.encode(frame)
    }

    static func draw(_ panel: DisplayModel.TrackPanel, started: Double, zone: TimeZoneRules, units: Units, language: Language, on frame: any Framebuffer) {
        let canvas = Canvas(target: frame, theme: .day)
        canvas.clear()
        let margin = 36, width = side - 2 * margin, scale = 4
        var y = margin
        y = canvas.paragraph(panel.name ?? "", x: margin, y: y, width: width, bottom: y + 2 * FramebufferLayout.cellHeight * 7, scale: 7, ink: .accent)
        var when = ""
        if started.isFinite {
            let weekday = DepartureWords.weekday(DepartureWords.date(started, zone: zone).weekday, language)
            when =
                weekday + " " + String(zone.iso8601(started).prefix(10)) + "  "
                + LocalClock.timeOfDay(started, zone: zone, twelveHour: false) + " " + zone.abbreviation(at: started)
        }
        if let first = panel.path.first {
            when += (when.isEmpty ? "" : "  ") + CoordinateText.ddm(first.latitude, latitude: true) + " " + CoordinateText.ddm(first.longitude, latitude: false)
        }
        y = canvas.paragraph(when, x: margin, y: y + scale * 2, width: width, bottom: side, scale: 3, ink: .dim)
        // The figures take the bottom, the route what is between.
        let say = { (key: String) in language.say(key) }
        let speedOrPace: (String, String) =
            panel.averageSpeed.isFinite && panel.averageSpeed > 0 && panel.averageSpeed < 4
            ? (say("pace"), paceText(panel.averageSpeed, units: units)) : (say("average"), units.speed(panel.averageSpeed))
        let fields = [
            (say("distance"), units.distance(panel.distance)), (say("movingTime"), countdown(panel.movingTime)),
            (say("climb"), "+" + units.altitude(panel.elevationGain)), speedOrPace
        ]
        let cellHeight = FramebufferLayout.cellHeight * (scale + 2 * scale) + scale * 4
        let figuresTop = side - margin - 2 * cellHeight
        let mapTop = y + scale * 4
        if panel.path.count > 1, figuresTop - mapTop > 200 {
            TrackDrawing.drawMap(
                panel, units: units, canvas: canvas, x: margin, y: mapTop, width: width, height: figuresTop - mapTop - scale * 4, textScale: scale)
        }
        TrackDrawing.drawFields(fields, canvas: canvas, y: figuresTop, textScale: scale, left: margin)
        let mark = "Lodestone"
        canvas.text(mark, x: side - margin - Canvas.textWidth(mark, scale: 2), y: side - margin / 2 - Font5x7.height * 2, scale: 2, ink: .dim)
    }

    /// Minutes a kilometre (or a mile) while moving: "12:30 /km".
    static func paceText(_ metresPerSecond: Double, units: Units) -> String {
        let metres = units == .imperial ? 1609.344 : 1000
        let seconds = Int((metres / metresPerSecond).rounded())
        return "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60) /" + (units == .imperial ? "mi" : "km")
    }
}
