import Net
import Wire

/// App and input icons, at `/resources/<40 hex>/<app id>.png` on the SSAP ports, as real sets
/// serve them (the same small PNG the other simulated TVs use).
extension LGSimulator {
    /// Per TV, so two simulated TVs never share icon URLs.
    var iconDirectory: String {
        String(Digest.hex(Digest.sha256(Array(identity.udn.utf8))).prefix(40))
    }

    /// https on 3001 for a connection over TLS, http on 3000 otherwise.
    func iconURL(_ appID: String, secure: Bool) -> String {
        let base =
            secure ? "https://\(common.urlHost):\(portWSS ?? portWS)" : "http://\(common.urlHost):\(portWS)"
        return "\(base)/resources/\(iconDirectory)/\(appID).png"
    }

    /// `GET /resources/<dir>/<app id>.png`: the icon of an app of the catalogue; nil (404) else.
    func icon(_ segments: [String], method: String) -> SimHTTPReply? {
        guard segments.count == 3, segments[0] == "resources", segments[1] == iconDirectory,
            segments[2].hasSuffix(".png"), LGCatalog.app(String(segments[2].dropLast(4))) != nil
        else { return nil }
        guard method == "GET" else { return SimHTTPReply(SimResponse.methodNotAllowed) }
        var response = HTTPResponse(status: 200, body: RokuSimulator.pngIcon)
        response.headers.set(name: "Content-Type", value: "image/png")
        return SimHTTPReply(response)
    }
}
