import Wire

/// Small pieces of HTTP syntax both handshake sides need (RFC 9110 §5.6).
enum WebSocketHandshakeSyntax {
    /// The elements of every `name` field's comma-separated list, trimmed, empty ones dropped.
    static func listElements(_ headers: HTTPHeaders, _ name: String) -> [String] {
        headers.values(for: name).flatMap { value in
            value.split(separator: ",").map { String($0.trimmingSpacesAndTabs()) }.filter { !$0.isEmpty }
        }
    }

    /// Whether `text` is an RFC 9110 token, which a subprotocol name must be (RFC 6455 §4.1 item 10).
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
            }
    }

    /// A body made safe and short for an error message: control bytes become spaces, at most
    /// `limit` characters, so a hostile server cannot flood a log line or forge new ones.
    static func printable(_ body: [UInt8], limit: Int = 200) -> String {
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
        var result = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            result.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? " " : scalar)
        }
        let trimmed = result.trimmingSpacesAndTabs()
        return text.unicodeScalars.count > limit ? trimmed + "…" : String(trimmed)
    }
}

extension StringProtocol {
    fileprivate func trimmingSpacesAndTabs() -> SubSequence {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }),
            let last = lastIndex(where: { !isBlank($0) })
        else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
