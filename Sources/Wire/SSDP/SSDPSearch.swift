/// An SSDP search request, `M-SEARCH * HTTP/1.1` (UPnP Device Architecture 2.0 §1.3.2).
///
/// tv2mqtt multicasts one per search target (`roku:ecp`,
/// `urn:samsung.com:device:RemoteControlReceiver:1`) and repeats it, because UDP may drop it.
public struct SSDPSearch: Equatable, Sendable {
    /// The multicast group and port every SSDP search goes to.
    public static let multicastHost = "239.255.255.250:1900"
    /// The search target that matches every device (§1.3.2).
    public static let all = "ssdp:all"

    /// `ST`: what to look for.
    public var searchTarget: String
    /// `MX`: seconds a device may wait before answering, 1…5 (§1.3.2: values above 5 mean 5).
    public var mx: Int
    /// `HOST`: the multicast group, or the device's address for a unicast search.
    public var host: String

    /// - Parameter mx: clamped to 1…5.
    public init(searchTarget: String, mx: Int = 2, host: String = SSDPSearch.multicastHost) {
        self.searchTarget = searchTarget
        self.mx = min(max(mx, 1), 5)
        self.host = host
    }

    /// The search a received `M-SEARCH` carries, for a simulated device deciding whether to answer.
    ///
    /// `ST` is required, and `MAN` must be `"ssdp:discover"` (§1.3.2). A missing or out-of-range
    /// `MX` is taken as 1, since Roku's own example search omits it.
    ///
    /// - Throws: `WireError` `malformed` when `ST` is missing or `MAN` is wrong.
    public init(headers: SSDPHeaders) throws(WireError) {
        guard let target = headers.searchTarget, !target.isEmpty else {
            throw .malformed("SSDP", "M-SEARCH without ST")
        }
        guard headers.man == "ssdp:discover" else {
            throw .malformed("SSDP", "M-SEARCH without MAN: \"ssdp:discover\"")
        }
        self.init(searchTarget: target, mx: headers.mx ?? 1, host: headers["host"] ?? Self.multicastHost)
    }

    /// Whether a device advertising `target` should answer this search: `ST` equals it or is `ssdp:all`.
    public func matches(_ target: String) -> Bool {
        searchTarget == Self.all || searchTarget == target
    }

    /// The datagram: start line, `HOST`, `MAN`, `MX`, `ST`, CRLF line ends and a blank line.
    public func encode() -> [UInt8] {
        let headers = SSDPHeaders([
            SSDPHeaderField(name: "HOST", value: host),
            SSDPHeaderField(name: "MAN", value: "\"ssdp:discover\""),
            SSDPHeaderField(name: "MX", value: String(mx)),
            SSDPHeaderField(name: "ST", value: searchTarget),
        ])
        return headers.encode(startLine: "M-SEARCH * HTTP/1.1")
    }
}
