import LodestoneEncoding
import LodestoneHAL
import LodestoneOutputs

/// A frame's layout as `lodestone screenshot --layout-json` writes it: the page, the panel's
/// size, the page's `usedFraction` (see `PanelCoverage`) and its text runs,
/// `{"page","width","height","usedFraction","texts":[{"text","x","y","w","h","missingGlyphs",
/// "clipped","key"}]}`, pixels from the panel's top left.
package enum TextLayoutJSON {
    package static func document(page: String, width: Int, height: Int, runs: [TextRun], drawings: [PixelBox]) -> String {
        var o = JSONObjectWriter()
        o.string("page", page)
        o.integer("width", width)
        o.integer("height", height)
        let used = PanelCoverage.usedFraction(texts: runs, drawings: drawings, width: width, height: height)
        o.number("usedFraction", used, decimals: 3)
        o.raw("texts", array(runs))
        return o.finished
    }

    package static func array(_ runs: [TextRun]) -> String {
        "["
            + runs.map { run in
                var o = JSONObjectWriter()
                o.string("text", run.text)
                o.integer("x", run.x)
                o.integer("y", run.y)
                o.integer("w", run.width)
                o.integer("h", run.height)
                o.integer("missingGlyphs", run.missingGlyphs)
                o.bool("clipped", run.clipped)
                o.bool("key", run.key)
                return o.finished
            }.joined(separator: ",") + "]"
    }
}
