import Glibc
import LodestoneCore
@testable import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
import Testing
@testable import LodestoneBench
@testable import LodestoneEncoding
@testable import LodestoneStorage

/// `index.bin`, the binary form of the kept timetable: it answers exactly as the CSV feed
/// beside it does, and a damaged or hostile one is refused (with the reason) for the feed,
/// never trapped on.
@Suite struct TimetableIndexTests {
    /// Friday night, a weekday morning, the exception day, a Saturday night past midnight in
    /// Zurich, and after the calendar's end.
    static let times = [
        CivilTime(year: 2026, month: 7, day: 24, hour: 21).unixSeconds, CivilTime(year: 2026, month: 7, day: 27, hour: 5).unixSeconds,
        CivilTime(year: 2026, month: 7, day: 31, hour: 5).unixSeconds, CivilTime(year: 2026, month: 7, day: 30, hour: 22, minute: 45).unixSeconds,
        CivilTime(year: 2026, month: 7, day: 25, hour: 22).unixSeconds, CivilTime(year: 2026, month: 10, day: 5).unixSeconds
    ]

    /// A data directory holding the hand-checked timetable of TimetableTests, saved.
    static func savedStore(_ name: String) -> TimetableStore? {
        let data = "/tmp/lodestone-ttindex-\(name)-\(getpid())"
        removeTree(data)
        guard makeDirectories(data) else { return nil }
        let store = TimetableStore(dataDirectory: data)
        return store.save(TimetableTests.timetable()) ? store : nil
    }

    @Test func theIndexAnswersAsTheFeedDoes() throws {
        let store = try #require(Self.savedStore("same"))
        defer { removeTree(store.directory) }
        #expect(fileExists(store.indexPath))
        let (indexed, refusal) = try store.loadNotingRefusal()
        #expect(refusal == nil)
        #expect(indexed.callSource != nil && indexed.calls.isEmpty, "the calls stay in the file until a stop is asked for")
        #expect(indexed.stops.isStored && indexed.routes.isStored && indexed.trips.isStored, "rows are made when asked for")
        let fromFeed = try GTFSImport.read(store.directory).0
        // Kept, a timetable has its agency's zone (the first stop's, for this one made by hand):
        // every GTFS time of a feed counts in one zone.
        var original = TimetableTests.timetable()
        original.agencyZone = "Europe/Zurich"
        #expect(indexed.agencyZone == "Europe/Zurich" && fromFeed.agencyZone == "Europe/Zurich")
        #expect(indexed.stops == fromFeed.stops && indexed.routes == fromFeed.routes && indexed.trips == fromFeed.trips)
        #expect(indexed.calendar.weeks == fromFeed.calendar.weeks && indexed.calendar.exceptions == fromFeed.calendar.exceptions)
        for stop in 0..<2 {
            #expect(indexed.calls(at: stop) == original.calls(at: stop))
            for time in Self.times {
                for count in [1, 3] {
                    let answer = indexed.departures(from: stop, after: time, count: count)
                    #expect(answer == fromFeed.departures(from: stop, after: time, count: count), "stop \(stop) at \(time)")
                    #expect(answer == original.departures(from: stop, after: time, count: count), "stop \(stop) at \(time)")
                }
            }
        }
        // The hand-checked answers: the night boat past midnight, and the exception day.
        let night = indexed.departures(from: 0, after: CivilTime(year: 2026, month: 7, day: 24, hour: 21).unixSeconds, count: 2)
        #expect(night.map { TimetableTests.local($0.time, "Europe/Zurich") } == ["2026-07-25T00:30:00+02:00", "2026-07-25T09:00:00+02:00"], "\(night)")
        let holiday = indexed.departures(from: 0, after: CivilTime(year: 2026, month: 7, day: 31, hour: 5).unixSeconds, count: 2)
        #expect(holiday.map { TimetableTests.local($0.time, "Europe/Zurich") } == ["2026-07-31T09:00:00+02:00", "2026-08-01T09:00:00+02:00"], "\(holiday)")
        #expect(indexed.departures(from: 5, after: 0, count: 1).isEmpty && indexed.calls(at: -1).isEmpty, "a stop it does not have")
    }

    /// CRC-32 taken eight bytes a step gives the check value of the standard and what a plain
    /// bit-by-bit CRC written here gives, for every length across the eight-byte steps.
    @Test func theSlicedChecksumIsTheZipOne() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        func bitByBit(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }
        for length in 0...bytes.count {
            #expect(CRC32.checksum(Array(bytes.prefix(length))) == bitByBit(Array(bytes.prefix(length))), "\(length) bytes")
        }
    }

    /// Where each section of `bytes` lies, from its header.
    static func spans(_ bytes: [UInt8]) -> [IndexFile.Span] {
        let file = IndexFile(.bytes(bytes), size: bytes.count, name: "index")
        return (try? file.openHeader(verifying: false)) == nil ? [] : file.spans
    }

    /// The bytes with the CRC-32 of `section` and of the header made right again, so the
    /// check after them is the one tested (a crafted file).
    static func rechecked(_ bytes: [UInt8], _ section: TimetableIndex.Section) -> [UInt8] {
        let spans = Self.spans(bytes)
        guard spans.indices.contains(section.rawValue) else { return bytes }
        let span = spans[section.rawValue]
        let entry = TimetableIndex.sectionTableOffset + section.rawValue * TimetableIndex.sectionEntrySize
        var copy = patched(bytes, at: entry + 8, CRC32.checksum(Array(bytes[span.offset..<(span.offset + span.length)])))
        copy = patched(copy, at: TimetableIndex.headerSize - 4, CRC32.checksum(Array(copy.prefix(TimetableIndex.headerSize - 4))))
        return copy
    }

    static func patched(_ bytes: [UInt8], at offset: Int, _ value: UInt32) -> [UInt8] {
        var copy = bytes
        for index in 0..<4 where copy.indices.contains(offset + index) { copy[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        return copy
    }

    static func flipped(_ bytes: [UInt8], at offset: Int) -> [UInt8] {
        var copy = bytes
        if copy.indices.contains(offset) { copy[offset] ^= 0x10 }
        return copy
    }

    /// Damage where every answer reads (the header, the counts, the calendars, the shapes, the
    /// stops' rows), a file cut short, another file or another version: refused with the
    /// reason, and the feed answers.
    @Test func aDamagedIndexIsRefusedAndTheFeedAnswers() throws {
        let store = try #require(Self.savedStore("damaged"))
        defer { removeTree(store.directory) }
        let bytes = try #require(readFileBytes(store.indexPath))
        let spans = Self.spans(bytes)
        try #require(spans.count == TimetableIndex.Section.allCases.count)
        func start(_ section: TimetableIndex.Section) -> Int { spans.indices.contains(section.rawValue) ? spans[section.rawValue].offset : 0 }
        var cases: [(String, [UInt8], String)] = [
            ("truncated", Array(bytes.dropLast(7)), "truncated"),
            ("cut inside the header", Array(bytes.prefix(30)), "shorter than its header"),
            ("empty", [], "shorter than its header"),
            ("a flipped byte in the header", Self.flipped(bytes, at: 20), "CRC-32 of its header"),
            ("another file", Array("stop_id,stop_name\n".utf8) + bytes, "not a timetable index"),
            ("a later version", Self.patched(bytes, at: 8, 5), "version 5"),
            ("an older version", Self.patched(bytes, at: 8, 3), "version 3, where this lodestone reads 4"),
            ("a stop's calls out of range", Self.rechecked(Self.patched(bytes, at: start(.stops), 1_000_000), .stops), "claims calls"),
            ("a stop's call count out of range", Self.rechecked(Self.patched(bytes, at: start(.stops) + 4, 1_000_000), .stops), "claims calls"),
            ("four billion stops", Self.rechecked(Self.patched(bytes, at: start(.meta), UInt32.max), .meta), "4294967295 stops"),
            ("a text longer than its section", Self.rechecked(Self.patched(bytes, at: start(.services), 1 << 30), .services), "a text of")
        ]
        for section in [TimetableIndex.Section.meta, .services, .shapes, .stops] {
            cases.append(("a flipped byte in its \(section.name)", Self.flipped(bytes, at: start(section) + 2), "damaged: its \(section.name)"))
        }
        let expected = TimetableTests.timetable()
        for (what, damaged, reason) in cases {
            #expect(writeFileAtomically(store.indexPath, damaged))
            #expect(throws: TimetableIndex.Failure.self, "\(what)") { try TimetableIndex.read(store.indexPath) }
            let (timetable, refusal) = try store.loadNotingRefusal()
            #expect(refusal?.contains(reason) == true && refusal?.contains("reading the feed instead") == true, "\(what): \(refusal ?? "accepted")")
            #expect(timetable.callSource == nil, "\(what): the feed was read")
            for time in Self.times {
                #expect(timetable.departures(from: 0, after: time, count: 3) == expected.departures(from: 0, after: time, count: 3), "\(what)")
            }
        }
    }

    /// Damage in a section an answer reads later (texts, routes, trips): reported with the
    /// reason when it is read, and what it holds left out: an answer is the right one or none,
    /// never a wrong one.
    @Test func aDamagedSectionIsReportedWhenRead() throws {
        let bytes = TimetableIndex.encode(TimetableTests.timetable())
        let spans = Self.spans(bytes)
        try #require(spans.count == TimetableIndex.Section.allCases.count)
        // Kept, the timetable counts its times in its first stop's zone (see the first test).
        var expected = TimetableTests.timetable()
        expected.agencyZone = "Europe/Zurich"
        let lazy: [TimetableIndex.Section] = [.stopIDs, .stopNames, .zones, .routeIDs, .routeShortNames, .routeLongNames, .tripIDs, .headsigns, .routes, .trips]
        for section in lazy {
            let span = try #require(spans.indices.contains(section.rawValue) ? spans[section.rawValue] : nil)
            try #require(span.length > 0, "\(section.name)")
            let timetable = try TimetableIndex.decode(Self.flipped(bytes, at: span.offset + span.length - 1))
            let stored = try #require(timetable.lookups as? StoredTimetable)
            #expect(stored.reports.isEmpty, "\(section.name): nothing is read before it is asked for")
            _ = (Array(timetable.stops), Array(timetable.routes), Array(timetable.trips), timetable.stop(id: "nowhere"), timetable.stops(matching: "x"))
            for stop in 0..<2 {
                for time in Self.times {
                    let answer = timetable.departures(from: stop, after: time, count: 3)
                    #expect(answer.isEmpty || answer == expected.departures(from: stop, after: time, count: 3), "\(section.name): \(answer)")
                }
            }
            #expect(
                stored.reports.contains { $0.contains("its \(section.name) are damaged (its CRC-32 does not match)") }, "\(section.name): \(stored.reports)")
        }
    }

    /// One stop's calls damaged: that stop reported by its id and showing no departures; the
    /// other stop answers as before.
    @Test func aStopsDamagedCallsAreReportedAndTheOthersAnswer() throws {
        let bytes = TimetableIndex.encode(TimetableTests.timetable())
        let spans = Self.spans(bytes)
        let calls = try #require(spans.indices.contains(TimetableIndex.Section.calls.rawValue) ? spans[TimetableIndex.Section.calls.rawValue] : nil)
        let timetable = try TimetableIndex.decode(Self.flipped(bytes, at: calls.offset + 5))
        let stored = try #require(timetable.lookups as? StoredTimetable)
        var expected = TimetableTests.timetable()
        expected.agencyZone = "Europe/Zurich"
        let first = try #require(expected.stops.first)
        #expect(timetable.calls(at: 0).isEmpty)
        for time in Self.times {
            #expect(timetable.departures(from: 0, after: time, count: 3).isEmpty)
            #expect(timetable.departures(from: 1, after: time, count: 3) == expected.departures(from: 1, after: time, count: 3))
        }
        #expect(stored.reports.contains { $0.contains("the calls of stop 0 ('\(first.id)') are damaged") }, "\(stored.reports)")
        #expect(stored.reports.count == 1, "reported once however often it is asked: \(stored.reports)")
    }

    /// The file cut short after it was opened (in place, where the store would have swapped
    /// folders): what can no longer be read is reported and left out, never a trap (a mapping
    /// would have raised SIGBUS).
    @Test func aFileCutShortWhileOpenIsReportedNotTrappedOn() throws {
        let store = try #require(Self.savedStore("cut"))
        defer { removeTree(store.directory) }
        let timetable = try TimetableIndex.read(store.indexPath)
        let stored = try #require(timetable.lookups as? StoredTimetable)
        #expect(truncate(store.indexPath, off_t(TimetableIndex.headerSize + 8)) == 0)
        for stop in 0..<2 {
            for time in Self.times { #expect(timetable.departures(from: stop, after: time, count: 3).isEmpty) }
        }
        _ = (Array(timetable.stops), Array(timetable.trips), timetable.stops(matching: "x"))
        #expect(stored.reports.contains { $0.contains("shorter than its header says while it was read") }, "\(stored.reports)")
    }

    /// Any one byte changed with its checksums taken as right (a crafted file): refused or
    /// read, never a trap, and whatever is read answers without one.
    @Test func everyCraftedByteIsRefusedOrRead() throws {
        let bytes = TimetableIndex.encode(TimetableTests.timetable())
        var refused = 0
        for offset in 0..<bytes.count {
            for value: UInt8 in [0xFF, 0x80, 0x00, 0x07] {
                var crafted = bytes
                guard crafted.indices.contains(offset), crafted[offset] != value else { continue }
                crafted[offset] = value
                guard let timetable = try? TimetableIndex.decode(crafted, verifying: false) else { refused += 1; continue }
                for stop in -1...timetable.stops.count {
                    _ = timetable.departures(from: stop, after: CivilTime(year: 2026, month: 7, day: 24, hour: 21).unixSeconds, count: 3)
                    _ = timetable.calls(at: stop)
                }
                _ = (Array(timetable.stops), Array(timetable.routes), Array(timetable.trips))
                _ = timetable.stops(matching: "interlaken")
            }
        }
        #expect(refused > 0)
    }

    /// The synthetic national feed of the bench, small: imported, kept with its index, and
    /// answering as the imported feed does on weekdays, weekends, holidays, the extra dates
    /// and across midnight.
    @Test func aSmallSyntheticFeedImportsAndAnswers() throws {
        let feed = SyntheticFeed(stops: 200, stopTimes: 20_000)
        let folder = "/tmp/lodestone-ttindex-feed-\(getpid())", data = folder + "-data"
        removeTree(folder)
        removeTree(data)
        defer { removeTree(folder); removeTree(data) }
        #expect(feed.write(to: folder))
        let (imported, summary) = try GTFSImport.read(folder)
        #expect(imported.stops.count == 200 && imported.trips.count == 400 && imported.routes.count == 8)
        #expect(summary.kept.first { $0.table == "stop times" }?.count == 20_000, "\(summary.kept)")
        let store = TimetableStore(dataDirectory: data)
        #expect(store.save(imported))
        let (indexed, refusal) = try store.loadNotingRefusal()
        #expect(refusal == nil && indexed.callSource != nil)

        let busy = try #require(indexed.stops(matching: SyntheticFeed.busyStopID).first)
        #expect(indexed.calls(at: busy).count == 400, "every trip passes the hub")
        let next = indexed.departures(from: busy, after: SyntheticFeed.queryTime, count: 5)
        #expect(next.count == 5 && next.allSatisfy { $0.time >= SyntheticFeed.queryTime }, "\(next)")
        let named = try #require(indexed.stops(matching: feed.searchWords).first)
        let namedStop = try #require(indexed.stops.indices.contains(named) ? indexed.stops[named] : nil)
        #expect(namedStop.name.hasSuffix(" \(200 * 2 / 3)"))
        #expect(SyntheticFeed.nearest(to: feed.searchPosition, in: indexed) == named)

        let lateEvening = CivilTime(year: 2026, month: 3, day: 16, hour: 22).unixSeconds  // 23:00 in Zurich: trips past 24:00
        let moments = [
            SyntheticFeed.queryTime, lateEvening,
            CivilTime(year: 2026, month: 3, day: 21, hour: 6).unixSeconds,  // a Saturday of the extra service
            CivilTime(year: 2026, month: 5, day: 14, hour: 5).unixSeconds,  // a holiday Thursday
            CivilTime(year: 2026, month: 12, day: 31, hour: 22).unixSeconds
        ]  // the calendar's last night
        for stop in [busy, named, 1, 100, 199] {
            for time in moments {
                #expect(
                    indexed.departures(from: stop, after: time, count: 8) == imported.departures(from: stop, after: time, count: 8), "stop \(stop) at \(time)")
            }
        }
        let late = indexed.departures(from: busy, after: lateEvening, count: 40)
        #expect(late.contains { TimetableTests.local($0.time, "Europe/Zurich").hasPrefix("2026-03-17T00:") }, "a trip past midnight: \(late)")
    }
}
