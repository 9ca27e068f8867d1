import Net
import Wire

/// One authenticated connection to a pre-2016 Samsung on TCP 55000: the authentication packet,
/// the TV's answer (waiting for the allow prompt as long as `approvalTimeout`), then key packets,
/// each answered by the TV. Every read has a deadline and is bounded by the packet limits of
/// `SamsungLegacyPacket`; anything the TV sends that we do not understand is an error, never a trap.
final class SamsungLegacyConnection {
    private let connection: TCPConnection
    private var buffer = InputBuffer()
    private let requestTimeout: Duration

    private init(connection: TCPConnection, requestTimeout: Duration) {
        self.connection = connection
        self.requestTimeout = requestTimeout
    }

    /// Connects and authenticates as `clientName` (shown in the TV's prompt) with the stable
    /// `clientID` the TV remembers its answer by.
    static func open(
        host: String, port: UInt16, clientName: String, clientID: String, settings: DriverSettings,
        approvalTimeout: Duration
    ) async throws(DriverError) -> SamsungLegacyConnection {
        let tcp: TCPConnection
        do {
            tcp = try await TCPConnection.connect(
                host: host, port: port, timeout: settings.connectTimeout)
        } catch {
            throw DriverError(.unreachable, "the TV's legacy remote port \(port): \(error)")
        }
        let connection = SamsungLegacyConnection(
            connection: tcp, requestTimeout: settings.requestTimeout)
        do throws(DriverError) {
            try await connection.authenticate(
                clientName: clientName, clientID: clientID, approvalTimeout: approvalTimeout)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    private func authenticate(clientName: String, clientID: String, approvalTimeout: Duration)
        async throws(DriverError)
    {
        let ip = connection.localAddress?.ip ?? "0.0.0.0"
        try await send(SamsungLegacyRequest.authenticate(ip: ip, id: clientID, name: clientName))
        // The first answer comes at once; a `waiting` one means the prompt shows, and the final
        // answer comes when the user chooses (or the TV gives up, about 30 s later).
        let promptDeadline = LoopClock.current.now + approvalTimeout
        var deadline = LoopClock.current.now + requestTimeout
        while true {
            switch try await reply(deadline: deadline) {
            case .granted: return
            case .waiting: deadline = promptDeadline
            case .denied:
                throw DriverError(.unauthorized, SamsungLegacyHelp.denied(clientName: clientName))
            case .timedOut:
                throw DriverError(.unauthorized, SamsungLegacyHelp.unanswered(clientName: clientName))
            case .keyAccepted, .other:
                throw DriverError(
                    .badResponse, "the TV answered the legacy authentication with an unknown reply")
            }
        }
    }

    /// Sends one key code and reads the TV's acknowledgement.
    func sendKey(_ code: String) async throws(DriverError) {
        try await send(SamsungLegacyRequest.key(code))
        switch try await reply(deadline: LoopClock.current.now + requestTimeout) {
        case .denied, .timedOut:
            throw DriverError(.unauthorized, "the TV withdrew its permission while \(code) was sent")
        // Other answers are taken as an acknowledgement: the TV sends the same reply whether
        // the key did something or not (openHAB's notes), so there is nothing more to learn.
        case .keyAccepted, .granted, .waiting, .other: return
        }
    }

    func close() { connection.close() }

    private func send(_ request: SamsungLegacyRequest) async throws(DriverError) {
        do {
            try await connection.write(
                request.packet.encoded(), deadline: LoopClock.current.now + requestTimeout)
        } catch {
            throw DriverError(.unreachable, "the TV's legacy remote port: \(error)")
        }
    }

    /// The next packet's meaning; bytes of a further packet stay buffered.
    private func reply(deadline: ContinuousClock.Instant) async throws(DriverError)
        -> SamsungLegacyReply
    {
        while true {
            do {
                if let (packet, used) = try SamsungLegacyPacket.decode(from: buffer.readable) {
                    buffer.consume(used)
                    return SamsungLegacyReply(payload: packet.payload)
                }
            } catch {
                throw DriverError(.badResponse, "the TV's legacy remote reply: \(error)")
            }
            let bytes: [UInt8]
            do {
                bytes = try await connection.read(maxBytes: 2048, deadline: deadline)
            } catch let error as NetError where error.kind == .timedOut {
                throw DriverError(.timeout, "the TV did not answer on its legacy remote port in time")
            } catch {
                throw DriverError(.unreachable, "the TV's legacy remote port: \(error)")
            }
            if bytes.isEmpty {
                throw DriverError(.unreachable, "the TV closed its legacy remote connection")
            }
            buffer.append(bytes)
        }
    }
}
