// The web app's files as Swift source: `web-assets WEBDIR OUTPUT` writes OUTPUT with every
// file under WEBDIR (hidden ones left out) as a raw string, its media type and its path on the
// server. The tool lists WEBDIR itself each time it runs, so a file added since the build was
// planned is compiled in too. Run by the WebAssets build plugin; the generated file is build
// output, never edited.
import Glibc

/// Says what went wrong and stops.
func fail(_ message: String, status: Int32 = 1) -> Never {
    var line = Array(("web-assets: " + message + "\n").utf8)
    _ = write(2, &line, line.count)
    exit(status)
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return bytes
}

func mediaType(_ name: String) -> String? {
    switch name.split(separator: ".").last.map(String.init) ?? "" {
    case "html": return "text/html; charset=utf-8"
    case "css": return "text/css; charset=utf-8"
    case "js": return "text/javascript; charset=utf-8"
    case "svg": return "image/svg+xml"
    case "json", "webmanifest": return "application/manifest+json"
    case "txt": return "text/plain; charset=utf-8"
    default: return nil
    }
}

/// The files under `root` as paths relative to it, sorted, leaving out hidden files and folders.
func files(under root: String, in folder: String = "") -> [String] {
    let path = folder.isEmpty ? root : root + "/" + folder
    guard let directory = opendir(path) else { fail("cannot list \(path)") }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasPrefix(".") { continue }
        let relative = folder.isEmpty ? name : folder + "/" + name
        var info = stat()
        guard stat(root + "/" + relative, &info) == 0 else { fail("cannot read \(root)/\(relative)") }
        if (info.st_mode & S_IFMT) == S_IFDIR { names += files(under: root, in: relative) } else { names.append(relative) }
    }
    return names.sorted()
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    fail("usage: web-assets WEBDIR OUTPUT", status: 2)
}
let web = arguments[1], output = arguments[2]
var source = "// Generated from web/ by the WebAssets build plugin (Plugins/WebAssetsTool): edit web/, not this.\n\n"
source += "/// The web app's files: the path the server answers, the media type, the text.\n"
source += "package enum WebAssets {\n    package static let files: [(path: String, type: String, text: String)] = [\n"
for name in files(under: web) {
    guard let type = mediaType(name) else {
        fail("\(name): only text files (html, css, js, svg, json, webmanifest, txt) are served")
    }
    guard let bytes = readFile(web + "/" + name), let text = String(validating: bytes, as: UTF8.self) else {
        fail("cannot read \(web)/\(name) as UTF-8")
    }
    // Enough #s that nothing in the file ends the raw string.
    var longest = 0, run = 0
    for character in text.utf8 { run = character == UInt8(ascii: "#") ? run + 1 : 0; longest = max(longest, run) }
    let hashes = String(repeating: "#", count: longest + 1)
    source += "        (\"/\(name)\", \"\(type)\", \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),\n"
}
source += "    ]\n}\n"
guard let file = fopen(output, "wb") else {
    fail("cannot write \(output)")
}
_ = source.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
fclose(file)
