import Glibc
import LodestoneCore

/// Asking a person before something that cannot be undone: only when both ends are a
/// terminal (a script gets an error telling it to say --yes instead of a prompt it cannot see).
enum Confirmation {
    static var isInteractive: Bool { isatty(0) == 1 && isatty(2) == 1 }

    /// Writes `question` to stderr and reads a line; true for "y" or "yes".
    static func ask(_ question: String) -> Bool {
        var text = question
        _ = text.withUTF8 { Glibc.write(2, $0.baseAddress, $0.count) }
        guard let line = readLine(strippingNewline: true) else { return false }
        let answer = line.filter { $0 != " " && $0 != "\t" }.lowercased()
        return answer == "y" || answer == "yes"
    }
}
