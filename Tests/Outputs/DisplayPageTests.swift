import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing

/// The display pages as a person reads them: on an 80 x 24 terminal, a 21 x 8 mono LCD and
/// the sizes between.
@Suite struct DisplayPageTests {
    static let sizes = [(80, 24), (21, 8), (20, 15), (26, 15), (40, 20), (132, 43)]

    @Test(arguments: DisplayPage.allCases)
    func everyPageHasItsTitleAndContentAtEverySize(page: DisplayPage) {
        for (columns, rows) in Self.sizes {
            let screen = page.draw(DisplayFixtures.walk, columns: columns, rows: rows, keys: true)
            #expect(screen.line(0).hasPrefix(page.title))
            #expect((1..<rows).contains { !screen.line($0).isEmpty }, "\(page) is empty at \(columns)x\(rows)")
        }
    }

    /// A number cut off by the screen's edge would read as another number: every line that
    /// ends at the right edge must end where its text ends (the clipping tests this by finding
    /// no digit or unit in the last cell followed by a lost remainder).
    @Test(arguments: DisplayPage.allCases)
    func noFigureIsCutAtTheEdge(page: DisplayPage) {
        for (columns, rows) in Self.sizes {
            let wide = page.draw(DisplayFixtures.walk, columns: 400, rows: rows)
            let screen = page.draw(DisplayFixtures.walk, columns: columns, rows: rows)
            for row in 1..<rows where screen.line(row).count == columns {
                let full = wide.line(row)
                // The same row on a very wide screen says more only if the text was cut.
                if full.hasPrefix(screen.line(row)) && full.count > columns {
                    let lost = full.dropFirst(columns).first
                    #expect(
                        lost == " " || lost == nil || screen.line(row).last?.isNumber == false,
                        "\(page) \(columns)x\(rows) row \(row) cut: '\(screen.line(row))' of '\(full)'")
                }
            }
        }
    }

    @Test func theSkyPageShowsTheNextEventTheDayTheMoonAndTheSeason() {
        let text = DisplayPage.sky.draw(DisplayFixtures.walk, columns: 80, rows: 24).text
        #expect(text.contains("Sunset 16:46") && text.contains("Next sky event, in 1 h 46 min"))
        #expect(text.contains("sunrise           07:37"))
        #expect(text.contains("astronomical dusk 18:35"))
        #expect(text.contains("golden hour       16:00-17:08"))
        #expect(text.contains("waxing gibbous 93%  age 12.3 d"))
        #expect(text.contains("Winter in 28 days  [########....] 69% of autumn"))
        let small = DisplayPage.sky.draw(DisplayFixtures.walk, columns: 21, rows: 8).text
        #expect(
            small.contains("Sunset 16:46") && small.contains("Next, in 1 h 46 min") && small.contains("Winter in 28 days")
                && small.contains("Moon 93% waxing\ngibbous"), "\(small)")
    }

    /// Without a position the sky page says why it is empty, never shows times for nowhere.
    @Test func theSkyPageWithoutAPlaceSaysSo() {
        var model = DisplayFixtures.walk
        model.sky = nil
        #expect(DisplayPage.sky.draw(model, columns: 80, rows: 24).line(1).hasPrefix("no position yet"))
    }

    @Test func unknownValuesShowAsDashesNeverZeros() {
        let empty = DisplayModel()
        for page in DisplayPage.allCases {
            let text = page.draw(empty, columns: 80, rows: 24).text
            #expect(!text.contains(" 0.0") && !text.contains("0 hPa"), "\(page): \(text)")
        }
        #expect(DisplayPage.compass.draw(empty, columns: 21, rows: 8).line(1) == "--°")
        #expect(DisplayPage.position.draw(empty, columns: 80, rows: 24).line(1) == "No fix yet: 0 satellites seen")
    }

    @Test func aDegradedSensorIsNamedInTheWarningInk() {
        var model = DisplayFixtures.walk
        model.state.barometerHealth = .degraded
        let screen = DisplayPage.health.draw(model, columns: 80, rows: 24)
        let row = (0..<24).first { screen.line($0).hasPrefix("Barometer") } ?? 0
        #expect(screen.line(row).hasSuffix("degraded: retrying") && screen[13, row].ink == .warning)
        // With the reason known, it is on the next line, in the warning ink.
        model.health.problems = SensorProblemTexts(barometer: "I2C address 0x76 is owned by a kernel driver")
        let told = DisplayPage.health.draw(model, columns: 80, rows: 24)
        let reasonRow = (0..<24).first { told.line($0).contains("owned by a kernel driver") }
        #expect(reasonRow == row + 1 && told[4, row + 1].ink == .warning)
    }

    @Test func theCompassAsksForACalibrationWhenTheHeadingIsUncertain() {
        var model = DisplayFixtures.walk
        model.compass.calibration = .uncalibrated
        model.state.headingAccuracy = 10
        #expect(DisplayPage.compass.draw(model, columns: 21, rows: 8).text.contains("Calibrate: ±10°"))
        model.compass.calibration = .inProgress
        model.compass.calibrationProgress = 0.42
        #expect(DisplayPage.compass.draw(model, columns: 21, rows: 8).text.contains("Figure 8s: 42% done"))
        model.state.trueHeading = nil
        model.compass.calibration = .good
        model.state.headingAccuracy = 0.8
        let magnetic = DisplayPage.compass.draw(model, columns: 21, rows: 8)
        #expect(magnetic.line(1) == "41° mag NE" && !magnetic.text.contains("alibrat"))
    }

    /// A boat's compass asks for a slow full circle, and a swing in progress says how far it
    /// has come, on the narrow and the wide layouts.
    @Test func aBoatsCompassGuidesTheHelmsmanThroughASwing() {
        var model = DisplayFixtures.walk
        model.compass.calibratesBySwing = true
        model.compass.calibration = .uncalibrated
        model.state.headingAccuracy = 10
        #expect(DisplayPage.compass.draw(model, columns: 80, rows: 24).text.contains("calibrate (one slow full circle)"))
        model.compass.calibration = .inProgress
        model.compass.swingTurned = 0
        #expect(DisplayPage.compass.draw(model, columns: 21, rows: 8).text.contains("Swing: keep turning"))
        model.compass.swingTurned = 210.4
        #expect(DisplayPage.compass.draw(model, columns: 80, rows: 24).text.contains("Swing: keep turning, 210 degrees done"))
        let narrow = DisplayPage.compass.draw(model, columns: 21, rows: 8).text
        #expect(narrow.contains("Swing: 210° done") && !narrow.contains("figure"))
    }

    /// The rose is heading-up: at 44° north lies up and to the left, east up and to the right,
    /// and the lubber line marks the top.
    @Test func theRoseTurnsWithTheHeading() {
        let screen = DisplayPage.compass.draw(DisplayFixtures.walk, columns: 80, rows: 24)
        // The rose takes the left 34 columns; the text beside it is not searched.
        func find(_ text: String) -> (column: Int, row: Int)? {
            let needle = Array(text)
            for row in 0..<24 {
                let line = Array(screen.line(row).prefix(34))
                guard line.count >= needle.count else { continue }
                for column in 0...(line.count - needle.count) where Array(line[column..<(column + needle.count)]) == needle { return (column, row) }
            }
            return nil
        }
        let lubber = find("v"), north = find(" N "), centre = find("+")
        #expect(lubber != nil && north != nil && centre != nil)
        if let lubber, let north, let centre {
            #expect(north.column < lubber.column && north.row < centre.row && lubber.row < north.row)
        }
    }

    /// The bubble floats to the high side: rolled right (right side down), it moves left.
    @Test func theBubbleMovesToTheHighSide() throws {
        var model = DisplayFixtures.walk
        (model.level.roll, model.level.pitch) = (5, 0)
        let screen = DisplayPage.level.draw(model, columns: 80, rows: 24)
        let row = (0..<24).first { screen.line($0).contains("O") && screen.line($0).contains("+") } ?? 0
        let line = screen.line(row)
        let target = try #require(line.firstIndex(of: "O")), centre = try #require(line.firstIndex(of: "+"))
        #expect(target < centre, "\(line)")
    }

    @Test func imperialUnitsConvertWhatAPersonReads() {
        var model = DisplayFixtures.walk
        model.units = .imperial
        let position = DisplayPage.position.draw(model, columns: 80, rows: 24).text
        #expect(position.contains("3351 ft GPS") && position.contains("2.9 mph"), "\(position)")
        let barometer = DisplayPage.barometer.draw(model, columns: 80, rows: 24).text
        #expect(barometer.contains("30.03 inHg at sea level") && barometer.contains("43.7 °F"))
        // Every pressure figure in inHg: the 3-hour change and the graphs' extremes too.
        #expect(!barometer.contains("hPa") && barometer.contains("-0.062 inHg") && barometer.contains("30.02-30.05"), "\(barometer)")
        #expect(DisplayPage.track.draw(model, columns: 80, rows: 24).text.contains("3.25 mi"))
    }

    /// A 320x240 panel's medium layout (26 x 15 cells) has room for the station's pressure,
    /// temperature and altitude beside the trend; the 128x64 one (21 x 7) keeps the trend.
    @Test func aMediumPanelShowsTheStationsFigures() {
        let medium = DisplayPage.barometer.draw(DisplayFixtures.walk, columns: 26, rows: 15).text
        #expect(medium.contains("Station ") && medium.contains("Temp ") && medium.contains("Alt ") && medium.contains("3 h -2.1 hPa"), "\(medium)")
        let small = DisplayPage.barometer.draw(DisplayFixtures.walk, columns: 21, rows: 7).text
        #expect(!small.contains("Station "), "\(small)")
    }

    /// The header never writes the device's name over the page number: centred in the gap
    /// between the page and the clock, shortened or left out when it does not fit.
    @Test func theHeaderKeepsThePageNumber() {
        var model = DisplayFixtures.walk
        model.title = "simulated board"
        model.clock = "08:00"
        let forty = DisplayPage.barometer.draw(model, columns: 40, rows: 20).line(0)
        #expect(forty.hasPrefix("BAROMETER  4/12 ") && forty.hasSuffix("08:00") && forty.contains("simulated"), "\(forty)")
        let eighty = DisplayPage.compass.draw(model, columns: 80, rows: 24).line(0)
        #expect(eighty.hasPrefix("COMPASS  1/12 ") && eighty.contains(" simulated board ") && eighty.hasSuffix("08:00"), "\(eighty)")
    }

    /// The nautical set: knots, nautical miles, metres for heights, hPa, °C.
    @Test func nauticalUnitsAreWhatABoatReads() {
        var model = DisplayFixtures.walk
        model.units = .nautical
        let position = DisplayPage.position.draw(model, columns: 80, rows: 24).text
        #expect(position.contains(" m GPS") && position.contains(" kn"), "\(position)")
        let barometer = DisplayPage.barometer.draw(model, columns: 80, rows: 24).text
        #expect(barometer.contains(" hPa at sea level") && barometer.contains(" °C"), "\(barometer)")
        #expect(DisplayPage.track.draw(model, columns: 80, rows: 24).text.contains(" nm"))
        // 1852 m is a nautical mile exactly, and a knot one of them an hour.
        #expect(Units.nautical.distance(1852) == "1 nm" && Units.nautical.distance(2 * 1852 + 926) == "2.5 nm" && Units.nautical.distance(150) == "150 m")
        #expect(
            Units.nautical.speed(1852.0 / 3600 * 10) == "10 kn" && Units.nautical.speed(1852.0 / 3600 * 6.5) == "6.5 kn"
                && Units.nautical.altitude(12.4) == "12 m")
        #expect(Units.nautical.pressure(1013.25) == "1013.3 hPa")
        #expect(Units.metric.cycled == .imperial && Units.imperial.cycled == .nautical && Units.nautical.cycled == .metric)
    }

    /// Published forms of one place (the Zurich main station): decimal, DMS and DDM.
    @Test func coordinatesInTheThreeNotations() {
        #expect(CoordinateText.decimal(47.378177, latitude: true) == "47.378177° N")
        #expect(CoordinateText.dms(47.378177, latitude: true) == "47°22'41.4\" N")
        #expect(CoordinateText.dms(-8.540192, latitude: false) == "8°32'24.7\" W")
        #expect(CoordinateText.ddm(47.378177, latitude: true) == "47°22.6906' N")
        #expect(CoordinateText.ddm(8.0001, latitude: false) == "8°00.0060' E")
        #expect(CoordinateText.dms(.nan, latitude: true) == "--")
    }
}
