import LodestoneEncoding
import LodestoneHAL

/// A frame's text runs as `lodestone screenshot --layout-json` writes them:
/// `[{"text","x","y","w","h","missingGlyphs"}]`, pixels from the panel's top left.
package enum TextLayoutJSON {
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
                return o.finished
            }.joined(separator: ",") + "]"
    }
}
