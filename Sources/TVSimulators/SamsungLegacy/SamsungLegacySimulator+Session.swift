import Net
import Wire

/// One client connection to the simulated legacy TV: authentication with the prompt, then keys.
extension SamsungLegacySimulator {
    private static let readTimeout = Duration.seconds(120)

    func session(_ connection: TCPConnection) async {
        defer { connection.close() }
        var buffer = InputBuffer()
        var authenticated = false
        while !Task.isCancelled {
            let packet: SamsungLegacyPacket
            do {
                guard let next = try await nextPacket(connection, &buffer) else { return }
                packet = next
            } catch {
                record("bad_request", ["error": .string("\(error)")])
                return
            }
            let request: SamsungLegacyRequest
            do {
                request = try SamsungLegacyRequest(payload: packet.payload)
            } catch {
                record("bad_request", ["error": .string("\(error)")])
                return
            }
            switch request {
            case .authenticate(_, let id, let clientName):
                guard await authenticate(connection, id: id, clientName: clientName) else { return }
                authenticated = true
            case .key(let code):
                // A real TV ignores keys before authentication; we close, which a client notices.
                guard authenticated else { return }
                record("legacy_key", ["key": .string(code)])
                await reply(connection, .keyAccepted)
                if code == "KEY_POWEROFF" || code == "KEY_POWER" {
                    powerOff()
                    return
                }
            }
        }
    }

    /// The prompt: a remembered answer at once; otherwise `waiting`, then the configured answer.
    private func authenticate(_ connection: TCPConnection, id: String, clientName: String) async -> Bool {
        if let remembered = core.withLock({ $0.answers[id] }) {
            await reply(connection, remembered ? .granted : .denied)
            return remembered
        }
        await reply(connection, .waiting)
        switch options.pairing {
        case .accept, .tokenless:
            core.withLock { $0.answers[id] = true }
            record("pairing", ["result": "accepted", "client": .string(clientName), "id": .string(id)])
            await reply(connection, .granted)
            return true
        case .deny:
            core.withLock { $0.answers[id] = false }
            record("pairing", ["result": "denied", "client": .string(clientName), "id": .string(id)])
            await reply(connection, .denied)
            return false
        case .ignore:
            record("pairing", ["result": "ignored", "client": .string(clientName)])
            try? await EventLoop.sleep(for: options.promptTimeout, clock: .system)
            await reply(connection, .timedOut)
            return false
        }
    }

    private func reply(_ connection: TCPConnection, _ reply: SamsungLegacyReply) async {
        let packet = SamsungLegacyPacket(type: 0x00, app: SamsungLegacyReply.tvApp, payload: reply.payload)
        try? await connection.write(packet.encoded(), deadline: .now + .seconds(5))
    }

    /// nil at the end of the stream.
    private func nextPacket(_ connection: TCPConnection, _ buffer: inout InputBuffer) async throws
        -> SamsungLegacyPacket?
    {
        while true {
            if let (packet, used) = try SamsungLegacyPacket.decode(from: buffer.readable) {
                buffer.consume(used)
                return packet
            }
            let bytes = try await connection.read(maxBytes: 4096, deadline: .now + Self.readTimeout)
            if bytes.isEmpty { return nil }
            buffer.append(bytes)
        }
    }
}
