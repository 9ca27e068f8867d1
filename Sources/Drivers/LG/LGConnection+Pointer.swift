import Clients
import Net
import Support
import Wire

/// The pointer input socket: buttons go there as `type:button` frames. Its address comes from
/// the TV (`getPointerInputSocket`) and is checked before use: it must name the TV's own host
/// (a host posing as the TV must not send us elsewhere) and, on a TV paired over TLS, be
/// `wss` on the TLS port, reached with the pinned certificate.
extension LGConnection {
    /// `prompt`: whether connecting may show the TV's pairing prompt (a command may).
    func sendButtons(_ names: [String], prompt: Bool) async throws(DriverError) {
        Trace.mark(.driverSend)
        let socket = try await pointerSocket(prompt: prompt)
        for name in names {
            do {
                try await socket.send(text: "type:button\nname:\(name)\n\n")
            } catch {
                pointer = nil
                throw DriverError(.unreachable, "the pointer socket closed: \(error.message)")
            }
        }
    }

    private func pointerSocket(prompt: Bool) async throws(DriverError) -> WebSocketConnection {
        if let pointer { return pointer }
        let answer = try await request("ssap://com.webos.service.networkinput/getPointerInputSocket", prompt: prompt)
        guard let path = answer["socketPath"]?.stringValue else {
            throw DriverError(.badResponse, "the TV gave no pointer socket")
        }
        let url = try Self.checkedPointerURL(path, host: configuration.host, secure: !session.isPlain)
        let pin = configuration.pin.flatMap(SamsungChannel.bytes(hex:))
        let connected: WebSocketClient.Connected
        do {
            connected = try await WebSocketClient.connect(
                url: url.description, tls: url.isSecure ? TLSConfiguration(trust: .selfSigned(pinned: pin)) : nil,
                connectTimeout: configuration.connectTimeout, handshakeTimeout: configuration.requestTimeout)
        } catch {
            throw DriverError(.unreachable, "cannot open the pointer socket: \(error.message)")
        }
        pointer = connected.connection
        // The TV sends nothing on it; its end is noticed at the next send.
        let incoming = connected.connection.incoming
        let current = rpc.generation
        Task { [weak self] in
            for await message in incoming {
                if case .closed = message { await self?.pointerEnded(current) }
            }
        }
        return connected.connection
    }

    func pointerEnded(_ current: Int) {
        guard current == rpc.generation else { return }
        pointer = nil
    }

    /// The TV's `socketPath`, refused unless it is a ws/wss URL on `host` whose security
    /// matches the main connection's.
    static func checkedPointerURL(_ path: String, host: String, secure: Bool) throws(DriverError) -> URLParts {
        let url: URLParts
        do {
            url = try URLParts(parsing: path)
        } catch {
            throw DriverError(.badResponse, "the TV's pointer socket path is not a URL: \(printable(path))")
        }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        guard url.host.lowercased() == bare.lowercased() else {
            throw DriverError(
                .badResponse, "refused a pointer socket on another host (\(printable(url.host)), not \(host))")
        }
        guard url.scheme == (secure ? "wss" : "ws") else {
            throw DriverError(
                .badResponse,
                "refused a pointer socket over \(printable(url.scheme)) on a \(secure ? "TLS" : "plain") connection")
        }
        return url
    }
}
