import LodestoneEncoding
import LodestoneReports

/// The connect page on a framebuffer: the pairing address's QR code as large as the panel
/// allows in whole pixels a module, dark on light with its four-module quiet zone whatever the
/// theme (phones read dark on light), and the address in words under it.
enum ConnectDrawing {
    static func draw(_ model: DisplayModel, canvas: Canvas, top: Int, textScale: Int) {
        guard let panel = model.connect, let url = panel.url, let code = QRCode(Array(url.utf8)) else {
            let problem = model.connect?.problem ?? "the web app is off: run with --http ADDR"
            let columns = max(1, (canvas.width - 2) / (FramebufferLayout.cellWidth * textScale))
            for (n, line) in PageWriter.wrapped(problem, width: columns).enumerated() {
                canvas.text(line, x: 2, y: top + 4 + n * FramebufferLayout.cellHeight * textScale, scale: textScale, ink: .warning)
            }
            return
        }
        let lineHeight = FramebufferLayout.cellHeight * textScale
        let perLine = max(1, canvas.width / (FramebufferLayout.cellWidth * textScale))
        var words = ConnectPage.pieces(url, width: perLine)
        // The symbol above the address's lines, in whole pixels a module; where the panel is
        // too small for both (a 128 x 64 LCD), the symbol alone.
        var room = min(canvas.width, canvas.height - top - lineHeight * words.count - 2)
        if room < code.size + 8 {
            words = []
            room = min(canvas.width, canvas.height - top)
        }
        let module = max(1, room / (code.size + 8))
        let side = module * (code.size + 8)
        let left = (canvas.width - side) / 2, upper = top + max(0, (room - side) / 2)
        let light = Theme.Colour(255, 255, 255), dark = Theme.Colour(0, 0, 0)
        for my in -4..<(code.size + 4) {
            for mx in -4..<(code.size + 4) {
                let colour = code[mx, my] ? dark : light
                let x0 = left + (mx + 4) * module, y0 = upper + (my + 4) * module
                for y in y0..<(y0 + module) where y >= 0 && y < canvas.height {
                    for x in x0..<(x0 + module) where x >= 0 && x < canvas.width { canvas.pixel(x, y, colour) }
                }
            }
        }
        for (n, line) in words.enumerated() {
            canvas.text(line, centredAt: canvas.width / 2, upper + side + 2 + lineHeight * n + lineHeight / 2, scale: textScale, ink: .text)
        }
    }
}
