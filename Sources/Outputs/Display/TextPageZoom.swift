import LodestoneReports

/// A text page on a large panel in the largest cells that hold all it has to say: a page with
/// a few lines (the departures, the day) is drawn a size up on a 800 x 480 panel rather than
/// in its top half, as long as nothing of it is shortened, cut or left out and it keeps the
/// wide wording (32 columns or more). Medium and small panels keep their cells.
enum TextPageZoom {
    static func screen(_ page: DisplayPage, _ model: DisplayModel, width: Int, height: Int) -> (TextScreen, FramebufferLayout) {
        let base = FramebufferLayout(width: width, height: height)
        if base.scale >= 2, base.columns >= 32 {
            let larger = FramebufferLayout(width: width, height: height, scale: base.scale + 1)
            if larger.columns >= 32 {
                let drawn = page.measured(model, columns: larger.columns, rows: larger.rows, large: true)
                if drawn.dropped == 0, !drawn.screen.cells.contains(where: \.clipped) { return (drawn.screen, larger) }
            }
        }
        return (page.draw(model, columns: base.columns, rows: base.rows, large: true), base)
    }
}
