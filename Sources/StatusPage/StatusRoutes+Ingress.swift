import Net
import Wire

/// Home Assistant's ingress: the gateway (an `http.allow_from` peer) forwards the user's
/// requests and names the page's path in `X-Ingress-Path`, which becomes the page's `<base>`.
/// From anyone else the header is the client's own word, and a `<base>` it chose would send
/// the page's requests (its token cookie's login included) wherever it pointed.
extension StatusRoutes {
    /// Where Home Assistant serves every add-on's ingress panel.
    static let ingressPrefix = "/api/hassio_ingress/"

    /// The `http.allow_from` addresses, parsed: each in one spelling (`SocketAddress.canonicalIP`),
    /// so `::ffff:172.30.32.2` is `172.30.32.2` and `0:0::1` is `::1`, for the peer's
    /// address, which the kernel gives in its own spelling, to be compared with.
    static func peerSet(_ allowFrom: [String]) -> Set<String> {
        Set(allowFrom.compactMap { try? SocketAddress(ip: $0, port: 0).canonicalIP })
    }

    /// Whether `remote` is one of `http.allow_from`, by address, not by its text.
    func isAllowedPeer(_ remote: SocketAddress) -> Bool {
        allowedPeers.contains(remote.canonicalIP)
    }

    /// The ingress path a request names, when it may: from an allowed peer only, and only a
    /// path under `/api/hassio_ingress/` of safe characters (`isSafeIngressPath`).
    func ingressPath(_ request: HTTPRequest, from remote: SocketAddress) -> String? {
        guard isAllowedPeer(remote), let path = request.headers["X-Ingress-Path"], Self.isSafeIngressPath(path)
        else { return nil }
        return path
    }

    /// `/api/hassio_ingress/<token>`, as Home Assistant sends it: under the ingress prefix,
    /// of unreserved characters and `/`, no empty segment (`//` would make the `<base>` a
    /// network path to another host), no `.` or `..` segment, at most 256 characters.
    static func isSafeIngressPath(_ path: String) -> Bool {
        guard path.hasPrefix(ingressPrefix), path.count > ingressPrefix.count, path.count <= 256,
            path.utf8.allSatisfy({ PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "/") })
        else { return false }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        let last = segments.count - 1
        for (index, segment) in segments.enumerated() {
            // A trailing slash is the one empty segment allowed.
            if segment.isEmpty && index != last { return false }
            if segment == "." || segment == ".." { return false }
        }
        return true
    }
}
