/// A device's multicast advertisement, `NOTIFY * HTTP/1.1` (UPnP Device Architecture 2.0 §1.2).
///
/// Roku multicasts `ssdp:alive` about every 20 minutes; a device that sends no alive within its
/// `max-age` is gone.
public struct SSDPNotify: Equatable, Sendable {
    /// `NT`: what is advertised (the NOTIFY counterpart of `ST`).
    public var notificationType: String
    /// `NTS`: alive, byebye or update.
    public var subtype: SSDPNotificationSubtype
    /// `USN`: the unique service name.
    public var usn: String
    /// `LOCATION`: required for alive and update, absent from byebye (§1.2.2, §1.2.4).
    public var location: String?
    /// `SERVER`, if any.
    public var server: String?
    /// `CACHE-CONTROL: max-age` in seconds; sent with alive only.
    public var maxAge: Int?
    /// `HOST`: the multicast group.
    public var host: String
    /// More fields to send after the standard ones.
    public var extraHeaders: [SSDPHeaderField]

    public init(
        notificationType: String, subtype: SSDPNotificationSubtype, usn: String, location: String? = nil,
        server: String? = nil, maxAge: Int? = nil, host: String = SSDPSearch.multicastHost,
        extraHeaders: [SSDPHeaderField] = []
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.usn = usn
        self.location = location
        self.server = server
        self.maxAge = maxAge
        self.host = host
        self.extraHeaders = extraHeaders
    }

    /// The advertisement carried by parsed headers. `NT`, a known `NTS` and `USN` are required, and
    /// `LOCATION` too unless the subtype is byebye (§1.2.2–§1.2.4).
    ///
    /// - Throws: `WireError` `malformed` when a required field is missing, `unsupported` for an
    ///   unknown `NTS`.
    public init(headers: SSDPHeaders) throws(WireError) {
        guard let type = headers.notificationType, !type.isEmpty else { throw .malformed("SSDP", "NOTIFY without NT") }
        guard let rawSubtype = headers["nts"] else { throw .malformed("SSDP", "NOTIFY without NTS") }
        guard let subtype = headers.notificationSubtype else {
            throw .unsupported("SSDP", "NOTIFY subtype \"\(rawSubtype)\"")
        }
        guard let usn = headers.usn, !usn.isEmpty else { throw .malformed("SSDP", "NOTIFY without USN") }
        let location = headers.location
        guard subtype == .byebye || !(location ?? "").isEmpty else {
            throw .malformed("SSDP", "\(subtype.rawValue) without LOCATION")
        }
        let known: Set<String> = ["nt", "nts", "usn", "location", "server", "cache-control", "host"]
        self.init(
            notificationType: type, subtype: subtype, usn: usn, location: location, server: headers.server,
            maxAge: headers.maxAge, host: headers["host"] ?? SSDPSearch.multicastHost,
            extraHeaders: headers.fields.filter { !known.contains($0.name.lowercased()) })
    }

    /// The datagram, with CRLF line ends and the closing blank line.
    public func encode() -> [UInt8] {
        var headers = SSDPHeaders()
        headers.add("HOST", host)
        if let maxAge { headers.add("CACHE-CONTROL", "max-age=\(maxAge)") }
        if let location { headers.add("LOCATION", location) }
        headers.add("NT", notificationType)
        headers.add("NTS", subtype.rawValue)
        if let server { headers.add("SERVER", server) }
        headers.add("USN", usn)
        for field in extraHeaders { headers.add(field.name, field.value) }
        return headers.encode(startLine: "NOTIFY * HTTP/1.1")
    }
}
