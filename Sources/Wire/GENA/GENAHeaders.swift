/// UPnP eventing (GENA, UPnP Device Architecture 1.1 §4): the header fields of `SUBSCRIBE`,
/// its renewal and `UNSUBSCRIBE`, and what a `SUBSCRIBE` answer carries. Pure; the requests go
/// out through the HTTP client and the answers come back through its parser.
public enum GENA {
    /// `NT` of a subscription and of every event message.
    public static let notificationType = "upnp:event"
    /// `NTS` of every event message.
    public static let notificationSubtype = "upnp:propchange"
    /// The event namespace of `e:propertyset`.
    public static let eventNamespace = "urn:schemas-upnp-org:event-1-0"
    /// SIDs longer than this are refused: real ones are `uuid:` plus 36 characters (UDA §4.1.2).
    public static let maxSIDLength = 256

    /// A first `SUBSCRIBE`: `CALLBACK: <url>`, `NT: upnp:event`, `TIMEOUT: Second-N` (UDA §4.1.2).
    public static func subscribeHeaders(callback: String, timeoutSeconds: Int) -> HTTPHeaders {
        HTTPHeaders([
            ("CALLBACK", "<\(callback)>"), ("NT", notificationType), ("TIMEOUT", timeout(timeoutSeconds)),
        ])
    }

    /// A renewal: `SID` and `TIMEOUT`, never `CALLBACK` or `NT` (UDA §4.1.3: both together is 400).
    public static func renewHeaders(sid: String, timeoutSeconds: Int) -> HTTPHeaders {
        HTTPHeaders([("SID", sid), ("TIMEOUT", timeout(timeoutSeconds))])
    }

    public static func unsubscribeHeaders(sid: String) -> HTTPHeaders {
        HTTPHeaders([("SID", sid)])
    }

    static func timeout(_ seconds: Int) -> String { "Second-\(max(1, seconds))" }

    /// `Second-N` → N; `infinite` (UDA 1.0) → nil, like anything unreadable: the caller then
    /// uses the duration it asked for.
    public static func parseTimeout(_ value: String?) -> Int? {
        guard let value else { return nil }
        let trimmed = value.trimmingSpaces
        let prefix = "second-"
        guard trimmed.lowercased().hasPrefix(prefix) else { return nil }
        let digits = trimmed.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit), let seconds = Int(digits),
            seconds > 0
        else { return nil }
        return seconds
    }

    /// Whether `sid` can be a subscription id: visible ASCII, not empty, bounded.
    public static func isValidSID(_ sid: String) -> Bool {
        !sid.isEmpty && sid.utf8.count <= maxSIDLength && sid.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

/// What a publisher's `200 OK` to `SUBSCRIBE` (first or renewal) says.
public struct GENASubscribeAnswer: Equatable, Sendable {
    public var sid: String
    /// The granted duration; nil when the answer named none we could read (`infinite`).
    public var timeoutSeconds: Int?

    public init(sid: String, timeoutSeconds: Int?) {
        self.sid = sid
        self.timeoutSeconds = timeoutSeconds
    }

    /// Reads the `SID` and `TIMEOUT` of a successful answer.
    ///
    /// - Throws: `WireError` `.malformed` when `SID` is missing, repeated or not a valid id.
    public init(headers: HTTPHeaders) throws(WireError) {
        let sids = headers.values(for: "SID")
        guard sids.count == 1, let sid = sids.first?.trimmingSpaces, GENA.isValidSID(sid) else {
            throw .malformed("GENA", "the SUBSCRIBE answer has no valid SID")
        }
        self.sid = sid
        timeoutSeconds = GENA.parseTimeout(headers["TIMEOUT"])
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
    /// Without leading and trailing spaces and tabs (header values).
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
