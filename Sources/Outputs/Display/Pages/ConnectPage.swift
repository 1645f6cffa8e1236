import LodestoneCore
import LodestoneEncoding

/// The connect page in text cells (a terminal): the web app's one-time pairing address as a
/// QR code drawn with half blocks (two modules a cell, upper and lower, so they come out
/// square), the address in words under it, and how long it is good for.
enum ConnectPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let panel = model.connect, let url = panel.url else {
            page.paragraph(model.connect?.problem ?? model.say("webAppOff"), ink: .warning)
            return
        }
        page.line(page.wide ? model.say("scanToOpen") + ":" : model.say("scanToConnect").uppercased(), ink: .accent)
        if let code = QRCode(Array(url.utf8)), page.remaining >= (code.size + 2) / 2 + 2, page.columns >= code.size + 4 {
            // Dark modules as the terminal's background, light ones (and the quiet zone) as
            // blocks: a terminal's cells are light on dark.
            for line in code.halfBlockLines(quietZone: 2, blocksAreDark: false) { page.line(line) }
        }
        for piece in pieces(url, width: page.columns) { page.line(piece) }
        if let minutes = panel.minutesLeft { page.lines(model.say("goodOnce", "\(minutes)"), ink: .dim) }
    }

    /// The address in lines of `width`, broken after a `/`, `:`, `?`, `&` or `=` where one
    /// falls in the line (never inside a port or a number), else at the width.
    static func pieces(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var out: [String] = []
        var rest = Substring(text)
        while rest.count > width {
            let line = rest.prefix(width)
            let cut = line.lastIndex { "/:?&=".contains($0) }.map { line.index(after: $0) } ?? line.endIndex
            let taken = rest[rest.startIndex..<cut]
            out.append(String(taken.isEmpty ? line : taken))
            rest = rest.dropFirst(taken.isEmpty ? line.count : taken.count)
        }
        if !rest.isEmpty { out.append(String(rest)) }
        return out
    }
}
