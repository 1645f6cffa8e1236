import LodestoneCore
import LodestoneEncoding
import LodestoneReports

/// The connect page on a framebuffer: the pairing address's QR code as large as the panel
/// allows in whole pixels a module, dark on light with its four-module quiet zone whatever the
/// theme (phones read dark on light), and the address in words under it.
enum ConnectDrawing {
    static func draw(_ model: DisplayModel, canvas: Canvas, top: Int, textScale: Int) {
        guard let panel = model.connect, let url = panel.url, let code = QRCode(Array(url.utf8)) else {
            let problem = model.connect?.problem ?? model.say("webAppOff")
            let columns = max(1, (canvas.width - 2) / (FramebufferLayout.cellWidth * textScale))
            for (n, line) in PageWriter.wrapped(problem, width: columns).enumerated() {
                canvas.text(line, x: 2, y: top + 4 + n * FramebufferLayout.cellHeight * textScale, scale: textScale, ink: .warning)
            }
            return
        }
        let lineHeight = FramebufferLayout.cellHeight * textScale
        // A wide panel (800 x 480) has room beside the symbol for the words, larger.
        let besideWidth = canvas.width - (canvas.height - top) - textScale * 4
        if besideWidth >= FramebufferLayout.cellWidth * textScale * 16 {
            let room = canvas.height - top - textScale * 2
            let module = max(1, room / (code.size + 8))
            let side = module * (code.size + 8)
            let upper = top + textScale + (room - side) / 2
            symbol(code, canvas: canvas, left: textScale, upper: upper, module: module)
            let x = textScale * 4 + side, width = canvas.width - x - textScale
            var y = top + textScale * 2
            y = canvas.paragraph(model.say("scanToOpen").uppercased(), x: x, y: y, width: width, bottom: canvas.height, scale: textScale, ink: .accent)
            y += lineHeight / 2
            for piece in ConnectPage.pieces(url, width: max(1, width / (FramebufferLayout.cellWidth * textScale))) {
                canvas.text(piece, x: x, y: y, scale: textScale, ink: .text)
                y += lineHeight
            }
            if let minutes = panel.minutesLeft {
                canvas.paragraph(
                    Words.capitalized(model.say("goodOnce", "\(minutes)")), x: x, y: y + lineHeight / 2, width: width, bottom: canvas.height, scale: textScale,
                    ink: .dim)
            }
            return
        }
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
        symbol(code, canvas: canvas, left: left, upper: upper, module: module)
        for (n, line) in words.enumerated() {
            canvas.text(line, centredAt: canvas.width / 2, upper + side + 2 + lineHeight * n + lineHeight / 2, scale: textScale, ink: .text)
        }
    }

    /// The symbol with its quiet zone from (`left`, `upper`), `module` pixels a module.
    static func symbol(_ code: QRCode, canvas: Canvas, left: Int, upper: Int, module: Int) {
        let light = Theme.Colour(255, 255, 255), dark = Theme.Colour(0, 0, 0)
        canvas.drew(x: left, y: upper, width: module * (code.size + 8), height: module * (code.size + 8))
        for my in -4..<(code.size + 4) {
            for mx in -4..<(code.size + 4) {
                let colour = code[mx, my] ? dark : light
                let x0 = left + (mx + 4) * module, y0 = upper + (my + 4) * module
                for y in y0..<(y0 + module) where y >= 0 && y < canvas.height {
                    for x in x0..<(x0 + module) where x >= 0 && x < canvas.width { canvas.pixel(x, y, colour) }
                }
            }
        }
    }
}
