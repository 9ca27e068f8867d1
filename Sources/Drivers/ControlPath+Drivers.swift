import TVModel

/// Every driver's control paths, as the state document's `control` shows them.
extension ControlPath {
    /// Roku: HTTP ECP on port 8060.
    public static let ecp = ControlPath(rawValue: "ecp")
    /// Roku: the ECP-2 WebSocket session.
    public static let ecp2 = ControlPath(rawValue: "ecp-2")
    /// The TV's WebSocket: a Samsung's remote channel over TLS (8002), an LG's SSAP socket.
    public static let websocket = ControlPath(rawValue: "websocket")
    /// Samsung: the plain remote WebSocket (8001), on a TV that has no TLS port.
    public static let plainWebSocket = ControlPath(rawValue: "websocket-8001")
    /// Samsung before 2016: the legacy remote protocol on TCP 55000.
    public static let legacyRemote = ControlPath(rawValue: "legacy-55000")
    /// Android TV: the Android TV Remote protocol v2's session over TLS (6466).
    public static let remoteV2 = ControlPath(rawValue: "remote-v2")
}
