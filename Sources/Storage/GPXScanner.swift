/// The XML of a GPX file read as it arrives, a piece at a time (`feed`), so a file of any size
/// is read in the memory of its largest single construct: what is held between pieces is only
/// a tag, a comment or a run of text not yet closed. The events and refusals are the same
/// whatever the pieces' sizes (`GPXReader.scan` reads a whole text through it).
package struct GPXScanner {
    /// The longest tag, comment, CDATA section or declaration held whole; a longer one refuses
    /// the file (no GPX writer makes one; a hostile file would otherwise be held entire).
    static let largestConstruct = 4 << 20
    /// A run of text longer than this is handed on in parts (entities never split).
    static let largestText = 1 << 20

    private var pending: [UInt8] = []
    /// Where the search for the end of what is open (a construct, or a run of text) goes on from.
    private var searchFrom = 0
    /// The line of `pending[counted]`: lines are counted up to there.
    private var line = 1
    private var counted = 0
    private var sawGPX = false, closedGPX = false

    package init() {}
    /// The most bytes held at once (a piece and what was left open before it).
    package private(set) var largestHeld = 0

    package typealias Handler = (GPXReader.Event) throws(GPXReader.Failure) -> Void

    /// Reads the next piece of the file; events for everything it completes.
    package mutating func feed(_ bytes: ArraySlice<UInt8>, _ handle: Handler) throws(GPXReader.Failure) {
        pending.append(contentsOf: bytes)
        largestHeld = max(largestHeld, pending.count)
        try process(final: false, handle)
    }

    /// A whole file's bytes in pieces of `size`, as reading it in pieces would hand them over,
    /// then its end (the fuzz target and the tests hold the pieces to the whole).
    package mutating func scan(_ bytes: [UInt8], inPiecesOf size: Int, _ handle: Handler) throws(GPXReader.Failure) {
        var at = 0
        while at < bytes.count {
            let end = min(at + max(1, size), bytes.count)
            try feed(bytes[at..<end], handle)
            at = end
        }
        try finish(handle)
    }

    /// The file has ended: what is left is read, and a file that is not GPX or is cut short refused.
    package mutating func finish(_ handle: Handler) throws(GPXReader.Failure) {
        try process(final: true, handle)
        guard sawGPX else { throw GPXReader.Failure(description: "not a GPX file: no <gpx> element") }
        guard closedGPX else { throw GPXReader.Failure(description: "the file is cut short: <gpx> is never closed; nothing was imported") }
    }

    private mutating func process(final: Bool, _ handle: Handler) throws(GPXReader.Failure) {
        var index = 0
        defer {
            countLines(upTo: index)
            pending.removeFirst(index)
            counted -= index
            searchFrom = max(0, searchFrom - index)
        }
        let open = UInt8(ascii: "<")
        while index < pending.count {
            if pending[index] != open {
                // From where the last piece's search stopped: a long run of text arriving in
                // small pieces is searched once, not again with every piece.
                if let end = pending[max(index, searchFrom)...].firstIndex(of: open) {
                    try handle(.text(GPXReader.decode(String(decoding: pending[index..<end], as: UTF8.self))))
                    index = end
                    searchFrom = 0
                    continue
                }
                let cut = final ? pending.count : textCut(from: index)
                if cut > index { try handle(.text(GPXReader.decode(String(decoding: pending[index..<cut], as: UTF8.self)))) }
                index = cut
                searchFrom = pending.count
                break
            }
            // The longest opening to tell the kinds apart is "<![CDATA[": wait for it.
            if !final && pending.count - index < 9 { break }
            let kind = Kind(pending[index...])
            let terminator = kind.terminator
            let bodyStart = min(index + kind.opening, pending.count)
            guard let end = find(terminator, from: max(bodyStart, searchFrom)) else {
                let at = lineAt(index)
                if final {
                    throw GPXReader.Failure(
                        description: "line \(at): the file ends inside a '\(String(decoding: terminator, as: UTF8.self))' construct: it is cut short or not XML"
                    )
                }
                if pending.count - index > Self.largestConstruct {
                    throw GPXReader.Failure(
                        description: "line \(at): a tag, comment or CDATA section longer than \(Self.largestConstruct >> 20) MiB: not a GPX file")
                }
                searchFrom = max(bodyStart, pending.count - terminator.count + 1)
                break
            }
            let body = pending[bodyStart..<end]
            switch kind {
            case .comment, .declaration: break
            case .data: try handle(.text(String(decoding: body, as: UTF8.self)))
            case .tag:
                let at = lineAt(index)
                let tag: (name: String, closing: Bool, selfClosing: Bool, attributes: [String: String])
                do { tag = try GPXReader.tagText(Array(body)) } catch { throw GPXReader.Failure(description: "line \(at): \(error.description)") }
                let name = GPXReader.localName(tag.name)
                if tag.closing {
                    if name == "gpx" { closedGPX = true }
                    try handle(.close(name, line: at))
                } else {
                    if name == "gpx" { sawGPX = true }
                    try handle(.open(name, tag.attributes, selfClosing: tag.selfClosing, line: at))
                    if tag.selfClosing { try handle(.close(name, line: at)) }
                }
            }
            index = end + terminator.count
            searchFrom = 0
        }
    }

    /// What starts at a '<', how long its opening is and what ends it.
    enum Kind {
        case comment, data, declaration, tag

        init(_ bytes: ArraySlice<UInt8>) {
            if bytes.starts(with: "<!--".utf8) {
                self = .comment
            } else if bytes.starts(with: "<![CDATA[".utf8) {
                self = .data
            } else if bytes.starts(with: "<?".utf8) || bytes.starts(with: "<!".utf8) {
                self = .declaration
            } else {
                self = .tag
            }
        }

        var opening: Int {
            switch self {
            case .comment: 4
            case .data: 9
            case .declaration: 2
            case .tag: 1
            }
        }

        var terminator: [UInt8] {
            switch self {
            case .comment: Array("-->".utf8)
            case .data: Array("]]>".utf8)
            case .declaration, .tag: [UInt8(ascii: ">")]
            }
        }
    }

    /// The first place from `start` where `terminator` begins in `pending`.
    private func find(_ terminator: [UInt8], from start: Int) -> Int? {
        guard let first = terminator.first else { return nil }
        var i = start
        while i + terminator.count <= pending.count {
            guard let hit = pending[i...].firstIndex(of: first) else { return nil }
            if hit + terminator.count > pending.count { return nil }
            if pending[hit..<(hit + terminator.count)].elementsEqual(terminator) { return hit }
            i = hit + 1
        }
        return nil
    }

    /// Where a run of text not yet ended may be handed on: none of it while it is short; past
    /// `largestText`, all but a possible entity or character cut at its end.
    private func textCut(from index: Int) -> Int {
        guard pending.count - index > Self.largestText else { return index }
        var cut = pending.count
        if let amp = pending[max(index, cut - 12)...].lastIndex(of: UInt8(ascii: "&")) { cut = amp }
        while cut > index && cut < pending.count && pending[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut
    }

    /// The line of `pending[index]`; asked in order, so each byte is counted once.
    private mutating func lineAt(_ index: Int) -> Int {
        countLines(upTo: index)
        return line
    }

    private mutating func countLines(upTo index: Int) {
        while counted < index {
            if pending[counted] == UInt8(ascii: "\n") { line += 1 }
            counted += 1
        }
    }
}
