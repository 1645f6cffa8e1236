import LodestoneCore

/// Who may see the web app and who may act through it. Location is personal data: by default
/// (`paired`) every page and every API call needs a browser paired with `lodestone web pair`;
/// `openRead` lets anyone on the network see the pages while actions still need a pairing.
public enum WebAccessMode: String, Sendable, CaseIterable {
    case paired
    case openRead = "open-read"
}

/// Where pairings are kept (the device keeps them on disk, `WebPairingStore` in Storage).
package protocol WebPairings: AnyObject {
    /// The browser whose cookie is `token`, marked as seen at `now`.
    func browser(token: String, now: Double) -> PairedBrowser?
    /// A one-time code, valid `WebPairing.codeSeconds` from `now` (nil: the kernel's random
    /// source could not be read).
    func newCode(now: Double) -> String?
    /// Pairs the browser that brings `code` (once, before it expires): its cookie's token.
    func redeem(code: String, name: String, now: Double) -> String?
    func browsers() -> [PairedBrowser]
    /// Revokes the browser `id`; false when there is none.
    func forget(id: String) -> Bool
}

public enum WebPairing {
    /// A pairing code is good for ten minutes, once.
    public static let codeSeconds = 600.0
    /// The cookie that carries a paired browser's token.
    public static let cookie = "lodestone"
}

/// The `http.names` setting: more host names the web app answers to, separated by commas.
package enum WebHostNames {
    /// The names in lower case; nil when one is not a host name (letters, digits, '-', '.', up to 253 bytes).
    package static func parse(_ text: String) -> [String]? {
        let names = text.split(separator: ",").map { String($0.trimmingSpaces()).lowercased() }
        guard !names.isEmpty,
            names.allSatisfy({ name in
                !name.isEmpty && name.utf8.count <= 253
                    && name.utf8.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || (48...57).contains($0) || (97...122).contains($0) }
            })
        else { return nil }
        return names
    }
}
