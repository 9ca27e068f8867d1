/// A device's answer to an M-SEARCH, `HTTP/1.1 200 OK` (UPnP Device Architecture 2.0 §1.3.3).
///
/// What a Roku sends:
/// ```
/// HTTP/1.1 200 OK
/// Cache-Control: max-age=3600
/// ST: roku:ecp
/// USN: uuid:roku:ecp:P0A070000007
/// Ext:
/// Location: http://192.168.1.134:8060/
/// ```
public struct SSDPResponse: Equatable, Sendable {
    /// `ST`: the search target matched.
    public var searchTarget: String
    /// `LOCATION`: where the device description (or, for Roku, the ECP root) is.
    public var location: String
    /// `USN`: the unique service name.
    public var usn: String
    /// `SERVER`, if any.
    public var server: String?
    /// `CACHE-CONTROL: max-age`, in seconds, if any.
    public var maxAge: Int?
    /// More fields to send after the standard ones (a simulator's `WAKEUP`, `BOOTID.UPNP.ORG`…).
    public var extraHeaders: [SSDPHeaderField]

    public init(
        searchTarget: String, location: String, usn: String, server: String? = nil, maxAge: Int? = 3600,
        extraHeaders: [SSDPHeaderField] = []
    ) {
        self.searchTarget = searchTarget
        self.location = location
        self.usn = usn
        self.server = server
        self.maxAge = maxAge
        self.extraHeaders = extraHeaders
    }

    /// The response carried by parsed headers. `ST`, `USN` and `LOCATION` are required (§1.3.3);
    /// fields other than those and `SERVER`/`CACHE-CONTROL`/`EXT` land in `extraHeaders`.
    ///
    /// - Throws: `WireError` `malformed` when a required field is missing or empty.
    public init(headers: SSDPHeaders) throws(WireError) {
        guard let target = headers.searchTarget, !target.isEmpty else {
            throw .malformed("SSDP", "response without ST")
        }
        guard let usn = headers.usn, !usn.isEmpty else { throw .malformed("SSDP", "response without USN") }
        guard let location = headers.location, !location.isEmpty else {
            throw .malformed("SSDP", "response without LOCATION")
        }
        let known: Set<String> = ["st", "usn", "location", "server", "cache-control", "ext"]
        self.init(
            searchTarget: target, location: location, usn: usn, server: headers.server, maxAge: headers.maxAge,
            extraHeaders: headers.fields.filter { !known.contains($0.name.lowercased()) })
    }

    /// The datagram, with CRLF line ends and the closing blank line.
    public func encode() -> [UInt8] {
        var headers = SSDPHeaders()
        if let maxAge { headers.add("Cache-Control", "max-age=\(maxAge)") }
        headers.add("ST", searchTarget)
        headers.add("USN", usn)
        // EXT is required in responses for UPnP 1.0 compatibility and is always empty (§1.3.3).
        headers.add("Ext", "")
        if let server { headers.add("Server", server) }
        headers.add("Location", location)
        for field in extraHeaders { headers.add(field.name, field.value) }
        return headers.encode(startLine: "HTTP/1.1 200 OK")
    }
}
