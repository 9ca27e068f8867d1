import Net

/// A UDP port that several simulated TVs share (their SSDP responders, their Wake-on-LAN
/// listeners), held from the moment the kernel picks it until `close()`.
///
/// Asking for a free port by binding port 0, closing, and binding the number again later
/// leaves a window in which any other socket can take it: a fresh-clone CI run failed once with
/// `bind UDP 0.0.0.0:P: Address already in use`. This socket binds `0.0.0.0:0` with
/// SO_REUSEADDR and SO_REUSEPORT and stays bound, so the TVs (which bind the same way) can join,
/// leave and come back, while no socket without those options can have the port meanwhile.
///
/// It never reads: broadcasts it receives fill its buffer and are then dropped. A unicast
/// datagram to the shared wildcard port goes to one socket of the group, possibly this one, so
/// tests address a shared port by broadcast (127.255.255.255), as the TVs' neighbours do; a
/// single TV that needs unicast binds a port of its own (port 0 in its options).
public final class SharedUDPPort: Sendable {
    private let socket: UDPSocket
    /// The port the kernel picked.
    public let port: UInt16

    public init() throws {
        socket = try UDPSocket.bind(host: "0.0.0.0", port: 0, reuse: true)
        port = socket.localAddress.port
    }

    /// Gives the port up (the TVs' own sockets keep it for as long as they run).
    public func close() { socket.close() }
}
