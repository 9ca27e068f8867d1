import Clients
import Net
import Support
import Wire

/// The remote-control channel: the WebSocket upgrade, pairing, and the message loop.
///
/// On `portWS` (plain) any client is connected without a token, as older TVs do. On
/// `portWSS` (TLS) a client with a token this TV issued for the same name connects silently;
/// any other client meets the "prompt", settled by `options.pairing`.
extension SamsungSimulator {
    static let remotePath = "/api/v2/channels/samsung.remote.control"

    /// Per-connection facts the message handlers need.
    struct RemoteClient: Sendable {
        let name: String
        /// Keys held down with `Press`, and since when (a Frame power-off is a 3 s hold).
        var pressed: [String: ContinuousClock.Instant] = [:]
    }

    func remoteChannel(_ request: HTTPRequest, stream: any ByteStream, leftover: [UInt8], secure: Bool)
        async
    {
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        if path == Self.artPath {
            await artChannel(request, stream: stream, secure: secure, leftover: leftover)
            return
        }
        guard path == Self.remotePath else {
            // Other channels are not simulated.
            let response = SimResponse.notFound
            if let bytes = try? response.encode() { try? await stream.write(bytes, deadline: .now + .seconds(2)) }
            return
        }
        guard let (ws, encodedName, name, token) = await Self.acceptChannel(request, stream: stream, leftover: leftover)
        else {
            return
        }
        let clientID = Self.randomID()
        let channelID = Self.randomID()
        func connect(_ token: String?) async {
            let event = SamsungRemoteEvents.connect(
                clientID: clientID, channelID: channelID, encodedName: encodedName, token: token,
                connectTime: Int64(wallClockSeconds() * 1000))
            try? await ws.send(text: event.serialized())
            try? await ws.send(text: SamsungRemoteEvents.ready.serialized())
        }

        // Noise before the answer, as real TVs send it: a client must wait for the connect.
        try? await ws.send(text: SamsungRemoteEvents.edenUpdate.serialized())
        var authorized = true
        var promptTimer: Task<Void, Never>?
        switch pairing(secure: secure, token: token, name: name) {
        case .connect(let token):
            await connect(token)
        case .deny:
            try? await ws.send(text: SamsungRemoteEvents.unauthorized.serialized())
            _ = try? await ws.close(code: 1000, reason: "unauthorized")
            return
        case .prompt:
            authorized = false
            let timeout = options.promptTimeout
            promptTimer = Task { [self] in
                try? await EventLoop.sleep(for: timeout, clock: .system)
                guard !Task.isCancelled else { return }
                record("pairing", ["result": "timeout", "client": .string(name)])
                try? await ws.send(text: SamsungRemoteEvents.timeOut.serialized())
                _ = try? await ws.close(code: 1000, reason: "timeout")
            }
        }

        var client = RemoteClient(name: name)
        for await event in ws.incoming {
            guard case .text(let text) = event else {
                if case .closed = event { break }
                continue  // binary frames mean nothing on this channel
            }
            // Until the prompt is answered, a real TV ignores what the client sends.
            guard authorized else { continue }
            for reply in handleRemoteMessage(text, client: &client) {
                try? await ws.send(text: reply.serialized())
            }
        }
        promptTimer?.cancel()
        await promptTimer?.value
    }

    enum PairingOutcome {
        case connect(token: String?)
        case deny
        /// The prompt stays on screen: nothing is sent until it times out.
        case prompt
    }

    /// Settles the "prompt" for one connection, logging what the user "did".
    private func pairing(secure: Bool, token: String?, name: String) -> PairingOutcome {
        guard secure else { return .connect(token: nil) }
        return core.withLock { core -> PairingOutcome in
            if let token, core.tokens.contains(where: { $0.token == token && $0.client == name }) {
                return .connect(token: token)
            }
            switch options.pairing {
            case .accept:
                var issued = Self.newToken()
                while core.tokens.contains(where: { $0.token == issued }) { issued = Self.newToken() }
                core.tokens.append((issued, name))
                record("pairing", ["result": "accepted", "client": .string(name)])
                return .connect(token: issued)
            case .tokenless:
                record("pairing", ["result": "accepted", "client": .string(name), "token": false])
                return .connect(token: nil)
            case .deny:
                record("pairing", ["result": "denied", "client": .string(name)])
                return .deny
            case .ignore:
                record("pairing", ["result": "prompt", "client": .string(name)])
                return .prompt
            }
        }
    }

    /// The client name from the `name` query item: base64 of UTF-8; taken as sent when it is
    /// not (a real TV shows whatever it got).
    static func decodeName(_ encoded: String) -> String {
        guard let bytes = try? Base64.decode(encoded), let text = String(validating: bytes, as: UTF8.self)
        else { return encoded }
        return text
    }

    /// An 8-digit numeric token, like the ones real TVs issue.
    static func newToken() -> String { String(Int.random(in: 10_000_000...99_999_999)) }

    static func randomID() -> String {
        let bytes = SecureRandom.bytes(16)
        let hex = Digest.hex(bytes)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    /// A channel client's WebSocket upgrade: the connection, the client's name as sent (the
    /// `name` query item, base64) and decoded, and its `token`; nil when the upgrade failed
    /// (nothing more to answer).
    static func acceptChannel(_ request: HTTPRequest, stream: any ByteStream, leftover: [UInt8]) async -> (
        WebSocketConnection, encodedName: String, name: String, token: String?
    )? {
        let items = (try? request.queryItems) ?? []
        let encodedName = items.first { $0.name == "name" }?.value ?? ""
        let token = items.first { $0.name == "token" }?.value
        guard
            let accepted = try? await WebSocketServerHandshake.upgrade(
                stream: stream, request: request, leftover: leftover)
        else { return nil }
        return (accepted.connection, encodedName, decodeName(encodedName), token)
    }
}
