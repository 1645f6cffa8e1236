import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneReports

/// The browsers paired with the web app, `<dataDir>/web-browsers.json`: each by a short id, the
/// name it gave, when it paired and when it was last seen, and only a digest of its cookie (a
/// copy of the file lets nobody in). Pairing codes live in memory only: ten minutes, once.
/// Written atomically; a damaged file is set aside with a warning and no browser stays paired.
package final class WebPairingStore: WebPairings {
    package let path: String
    private var paired: [(browser: PairedBrowser, digest: String)] = []
    private var codes: [(digest: String, expires: Double)] = []
    /// A visit is written to the file at most this often per browser.
    static let seenInterval = 3600.0

    package init(dataDirectory: String) {
        path = dataDirectory + "/web-browsers.json"
        load()
    }

    package func browser(token: String, now: Double) -> PairedBrowser? {
        let digest = Self.digest(token)
        guard let index = paired.firstIndex(where: { $0.digest == digest }) else { return nil }
        if now - paired[index].browser.seen > Self.seenInterval {
            paired[index].browser.seen = now
            save()
        }
        return paired[index].browser
    }

    package func newCode(now: Double) -> String? {
        codes.removeAll { $0.expires <= now }
        // Ten characters a person can read aloud: no 0/O or 1/l.
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        guard let random = Self.randomBytes(10) else { return nil }
        let code = String(random.map { alphabet[Int($0) % alphabet.count] })
        codes.append((Self.digest(code), now + WebPairing.codeSeconds))
        return code
    }

    /// Whether `code` may still pair a browser (not used, not expired).
    package func isOpen(code: String, now: Double) -> Bool {
        let digest = Self.digest(code.lowercased())
        return codes.contains { $0.digest == digest && $0.expires > now }
    }

    package func redeem(code: String, name: String, now: Double) -> String? {
        codes.removeAll { $0.expires <= now }
        // Codes are lower case; one typed from a screen that shows capitals still pairs.
        let digest = Self.digest(code.lowercased())
        guard let index = codes.firstIndex(where: { $0.digest == digest }) else { return nil }
        guard let secret = Self.randomBytes(32), var random = Self.randomBytes(3) else { return nil }
        codes.remove(at: index)
        let token = SHA256.hexText(secret)
        while paired.contains(where: { $0.browser.id == SHA256.hexText(random) }) {
            guard let again = Self.randomBytes(3) else { return nil }
            random = again
        }
        let id = SHA256.hexText(random)
        paired.append((PairedBrowser(id: id, name: name, paired: now, seen: now), Self.digest(token)))
        save()
        return token
    }

    package func browsers() -> [PairedBrowser] { paired.map(\.browser) }

    package func forget(id: String) -> Bool {
        guard let index = paired.firstIndex(where: { $0.browser.id == id }) else { return false }
        paired.remove(at: index)
        save()
        return true
    }

    static func digest(_ text: String) -> String { SHA256.hex(Array(text.utf8)) }

    /// Bytes from the kernel's random source; nil when it cannot be read (never a guessable
    /// fallback: no pairing without it).
    static func randomBytes(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return read(fd, base + filled, count - filled)
            }
            if got > 0 {
                filled += got
            } else if got < 0 && errno == EINTR {
                continue
            } else {
                return nil
            }
        }
        return bytes
    }

    private func load() {
        guard let text = readStoreTextIfPresent(path, limit: 1 << 20) else { return }
        guard let list = (try? JSONValue.parse(text))?.arrayValue else {
            let aside = setAside(path, at: OutputClock.unixTime())
            Log.warning("\(path) is damaged: set aside\(aside.map { " as " + $0 } ?? ""); pair the browsers again with 'lodestone web pair'")
            return
        }
        for entry in list {
            guard let id = entry["id"]?.stringValue, id.utf8.count <= 16, let digest = entry["digest"]?.stringValue, digest.utf8.count == 64,
                let paired = entry["paired"]?.numberValue, paired.isFinite
            else {
                Log.warning("\(path): a browser entry without its id, digest or time is left out")
                continue
            }
            let seen = entry["seen"]?.numberValue.flatMap { $0.isFinite ? $0 : nil } ?? paired
            self.paired.append((PairedBrowser(id: id, name: String((entry["name"]?.stringValue ?? "").prefix(120)), paired: paired, seen: seen), digest))
        }
    }

    private func save() {
        let entries = paired.map { entry -> String in
            var w = JSONObjectWriter()
            w.string("id", entry.browser.id)
            w.string("name", entry.browser.name)
            w.string("digest", entry.digest)
            w.number("paired", entry.browser.paired, decimals: 0)
            w.number("seen", entry.browser.seen, decimals: 0)
            return w.finished
        }
        do {
            try replaceFile(path, with: Array(("[" + entries.joined(separator: ",\n") + "]\n").utf8))
        } catch let failure {
            Log.warning(failure.description + ": the browsers paired since the start are kept in memory only")
        }
    }
}
