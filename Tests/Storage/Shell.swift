import Glibc

/// What the storage tests ask of the system's tools (gzip, djpeg, Python's imaging library).
enum Shell {
    /// Runs a shell command and returns what it printed.
    static func output(_ command: String) -> String {
        guard let pipe = popen(command + " 2>&1", "r") else { return "" }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        pclose(pipe)
        return String(decoding: out, as: UTF8.self)
    }
}
