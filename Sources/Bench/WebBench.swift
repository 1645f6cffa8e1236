import LodestoneEncoding
import LodestoneOutputs

/// What the web app weighs as a browser fetches it: every file of `web/` gzipped, as the
/// server sends it (bench key `web.appBytes`; the budget is 150 KB).
public enum WebBench {
    public static func appBytes() -> (compressed: Int, files: Int, plain: Int) {
        var compressed = 0, plain = 0
        for file in WebAssets.files {
            let bytes = Array(file.text.utf8)
            plain += bytes.count
            compressed += Deflate.gzip(bytes).count
        }
        return (compressed, WebAssets.files.count, plain)
    }
}
