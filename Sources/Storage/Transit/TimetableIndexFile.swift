import Glibc
import LodestoneCore
import LodestoneEncoding
import Synchronization

/// An open `index.bin`: its section table, read and checked; each section read (pread) and
/// checked once, when first asked for; a stop's calls read and checked each time that stop is
/// asked for. The descriptor stays open for the timetable's life: the store replaces the
/// folder whole, so the file opened is the one read to the end. Nothing is mapped (a file cut
/// short under a mapping would stop the process with SIGBUS).
final class IndexFile: Sendable {
    enum Source: Sendable {
        case descriptor(Int32)
        case bytes([UInt8])
    }

    struct Span: Sendable {
        var offset: Int, length: Int, checksum: UInt32
    }

    let source: Source
    let size: Int
    /// The file's path, for the reports of damage.
    let name: String
    private let state = Mutex(State())

    private struct State {
        var spans: [Span] = []
        var verifying = true
        var read: [Int: [UInt8]] = [:]
        /// Sections found damaged, and why (each reported once).
        var damaged: [Int: String] = [:]
        var reports: [String] = []
    }

    init(_ source: Source, size: Int, name: String) { (self.source, self.size, self.name) = (source, size, name) }

    deinit { if case .descriptor(let fd) = source { close(fd) } }

    var spans: [Span] { state.withLock { $0.spans } }

    /// What was found damaged since the index was opened, each with its reason.
    var reports: [String] { state.withLock { $0.reports } }

    /// Reads the header and its section table: each section inside the file, in order, the
    /// file ending with the last.
    func openHeader(verifying: Bool) throws(TimetableIndex.Failure) {
        let headerSize = TimetableIndex.headerSize, magic = TimetableIndex.magic
        let header = bytes(at: 0, count: headerSize)
        guard header.count >= magic.count + 8 else { throw failure("\(size) bytes, shorter than its header") }
        guard Array(header.prefix(magic.count)) == magic else { throw failure("not a timetable index (its first bytes are wrong)") }
        var fields = ByteReader(header, at: magic.count)
        let fileVersion = try fields.u32()
        guard fileVersion == TimetableIndex.version else {
            throw failure("version \(fileVersion), where this lodestone reads \(TimetableIndex.version): made by another version of lodestone")
        }
        guard header.count == headerSize else { throw failure("\(size) bytes, shorter than its header") }
        // The header's own CRC-32 before any of its numbers is believed.
        var last = ByteReader(header, at: headerSize - 4)
        let checksum = try last.u32()
        guard !verifying || header.withUnsafeBytes({ CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<(headerSize - 4)])) }) == checksum else {
            throw failure("damaged: the CRC-32 of its header does not match it")
        }
        let sectionCount = Int(try fields.u32())
        guard sectionCount == TimetableIndex.Section.allCases.count else {
            throw failure("\(sectionCount) sections where version \(TimetableIndex.version) has \(TimetableIndex.Section.allCases.count)")
        }
        var spans: [Span] = []
        var end = headerSize
        for section in TimetableIndex.Section.allCases {
            let span = Span(offset: Int(try fields.u32()), length: Int(try fields.u32()), checksum: try fields.u32())
            // The size first, so a truncated file is named as one and never allocates what it claims.
            guard span.offset == end, span.length <= size - span.offset else {
                throw failure("its \(section.name) lie at \(span.offset)..<\(span.offset + span.length) of \(size) bytes: truncated or overwritten")
            }
            end += span.length
            spans.append(span)
        }
        guard end == size else { throw failure("\(size) bytes where its header says \(end): truncated or overwritten") }
        state.withLock { ($0.spans, $0.verifying) = (spans, verifying) }
    }

    /// Section `section`, read and checked on its first use; nil (reported once) when its
    /// CRC-32 does not match or `validate` finds a number it cannot hold.
    func section(_ section: TimetableIndex.Section, validate: ([UInt8]) -> String? = { _ in nil }) -> [UInt8]? {
        switch load(section, validate: validate) {
        case .success(let bytes): return bytes
        case .failure(let problem):
            report("\(name): its \(section.name) are damaged (\(problem.text)); what they hold is left out (import the timetable again to rebuild the index)")
            return nil
        }
    }

    /// Section `section`, which the index cannot be read without: damage refuses it.
    func required(_ section: TimetableIndex.Section, validate: ([UInt8]) -> String? = { _ in nil }) throws(TimetableIndex.Failure) -> [UInt8] {
        switch load(section, validate: validate) {
        case .success(let bytes): return bytes
        case .failure(let problem): throw failure("damaged: its \(section.name) (\(problem.text))")
        }
    }

    private struct Problem: Error { var text: String }

    private func load(_ section: TimetableIndex.Section, validate: ([UInt8]) -> String?) -> Result<[UInt8], Problem> {
        state.withLock { state -> Result<[UInt8], Problem> in
            if let bytes = state.read[section.rawValue] { return .success(bytes) }
            if let problem = state.damaged[section.rawValue] { return .failure(Problem(text: problem)) }
            guard state.spans.indices.contains(section.rawValue) else { return .failure(Problem(text: "the index has no such section")) }
            let span = state.spans[section.rawValue]
            let bytes = self.bytes(at: span.offset, count: span.length), verifying = state.verifying
            func problem() -> String? {
                guard bytes.count == span.length else { return "shorter than its header says while it was read" }
                guard !verifying || CRC32.checksum(bytes) == span.checksum else { return "its CRC-32 does not match" }
                return validate(bytes)
            }
            if let problem = problem() {
                state.damaged[section.rawValue] = problem
                return .failure(Problem(text: problem))
            }
            state.read[section.rawValue] = bytes
            return .success(bytes)
        }
    }

    /// `count` bytes of the calls section from its byte `start`, checked against `checksum`;
    /// nil when they cannot be read whole or do not match.
    func calls(from start: Int, count: Int, checksum: UInt32) -> [UInt8]? {
        let (spans, verifying) = state.withLock { ($0.spans, $0.verifying) }
        guard spans.indices.contains(TimetableIndex.Section.calls.rawValue) else { return nil }
        let span = spans[TimetableIndex.Section.calls.rawValue]
        guard start >= 0, count >= 0, start <= span.length, count <= span.length - start else { return nil }
        let bytes = self.bytes(at: span.offset + start, count: count)
        guard bytes.count == count, !verifying || CRC32.checksum(bytes) == checksum else { return nil }
        return bytes
    }

    /// Reports `text` as a warning, once however often the damage it names is met.
    func report(_ text: String) {
        let new = state.withLock { state -> Bool in
            guard !state.reports.contains(text) else { return false }
            state.reports.append(text)
            return true
        }
        if new { Log.warning(text) }
    }

    private func failure(_ text: String) -> TimetableIndex.Failure { TimetableIndex.Failure(description: text) }

    /// Up to `count` bytes from `offset`, fewer only at the end of the file or on an error.
    func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count >= 0 else { return [] }
        switch source {
        case .bytes(let all):
            guard offset <= all.count else { return [] }
            return Array(all[offset..<(offset + min(count, all.count - offset))])
        case .descriptor(let fd):
            return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                initialized = 0
                while initialized < count, let base = buffer.baseAddress {
                    let n = pread(fd, base + initialized, count - initialized, off_t(offset + initialized))
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    initialized += n
                }
            }
        }
    }
}
