import LodestoneHAL
import LodestoneReports

/// The framebuffer's pages: the compass, the level, the barometer, the track, the sky chart and
/// the day drawn as graphics on panels from 240 x 160 up (a 128 x 64 mono LCD keeps its text
/// cells, which read better at that size), the other pages in text cells. The header is the text pages' own.
public enum GraphicPages {
    /// Whether `page` is drawn as graphics on a panel of this layout (the QR code on every
    /// panel: a phone reads modules of one pixel).
    public static func drawsGraphics(_ page: DisplayPage, layout: FramebufferLayout) -> Bool {
        page == .connect || (layout.scale >= 2 && [.compass, .level, .barometer, .track, .chart, .day].contains(page))
    }

    /// Draws `page` on `target`: graphics where they serve, text cells otherwise.
    public static func draw(_ page: DisplayPage, _ model: DisplayModel, theme: Theme, on target: any Framebuffer) {
        let layout = FramebufferLayout(width: target.width, height: target.height)
        guard drawsGraphics(page, layout: layout) else {
            let (screen, zoomed) = TextPageZoom.screen(page, model, width: target.width, height: target.height)
            FramebufferRenderer.draw(screen, theme: theme, layout: zoomed, on: target)
            return
        }
        // The header alone (one row of cells), then the drawing under it.
        FramebufferRenderer.draw(page.draw(model, columns: layout.columns, rows: 1), theme: theme, layout: layout, on: target)
        let canvas = Canvas(target: target, theme: theme)
        let header = FramebufferLayout.cellHeight * layout.scale
        // The words beside a drawing grow with the panel (a 800 x 480 panel reads at arm's length).
        let textScale = max(layout.scale, target.height / 160)
        switch page {
        case .compass:
            CompassDial.draw(
                model, canvas: canvas,
                geometry: CompassDial.Geometry(width: target.width, height: target.height, header: header, textScale: textScale),
                textScale: textScale)
        case .level:
            LevelDial.draw(
                model, canvas: canvas,
                geometry: LevelDial.Geometry(width: target.width, height: target.height, header: header, textScale: textScale),
                textScale: textScale)
        case .barometer:
            PressureGraphs.draw(model, canvas: canvas, top: header, textScale: textScale)
        case .track:
            TrackDrawing.draw(model, canvas: canvas, top: header, textScale: textScale)
        case .day:
            DayDrawing.draw(model, canvas: canvas, top: header, textScale: textScale)
        case .chart:
            SkyChartDrawing.draw(model, canvas: canvas, top: header, textScale: textScale)
        case .connect:
            ConnectDrawing.draw(model, canvas: canvas, top: header, textScale: layout.scale)
        default:
            break
        }
    }
}
