import Clients
import Net
import Wire

extension RokuECP2Session {
    static let path = "/ecp-session"
    static let subprotocol = "ecp-2"
    /// What the Roku shows for us where it lists connected remotes.
    static let clientName = "tv2mqtt"

    /// Keepalive: a ping after 10 s of silence, the link declared dead 5 s later (Roam fails
    /// its link after about 5 s without progress), so a TV that vanished without closing is
    /// noticed within 15 s and polling takes over again.
    static let webSocketConfiguration = WebSocketConfiguration(
        keepAliveInterval: .seconds(10), keepAliveTimeout: .seconds(5))

    /// Connects to `ws://host:port/ecp-session` with subprotocol `ecp-2`, answers the
    /// challenge (tv-protocols §B.2) and returns the authenticated session.
    static func open(host: String, port: UInt16, settings: DriverSettings) async throws(OpenError)
        -> RokuECP2Session
    {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let connection: WebSocketConnection
        do {
            connection = try await WebSocketClient.connect(
                url: "ws://\(authority)\(path)", subprotocols: [subprotocol],
                connectTimeout: settings.connectTimeout, handshakeTimeout: settings.requestTimeout,
                configuration: webSocketConfiguration
            ).connection
        } catch {
            switch error.kind {
            case .handshake where error.status != nil:
                throw .refused(status: error.status, error.message)
            case .connect:
                throw .failed(DriverError(.unreachable, error.message))
            case .timeout:
                throw .failed(DriverError(.timeout, error.message))
            default:
                throw .failed(DriverError(.badResponse, error.message))
            }
        }
        do {
            try await authenticate(connection, timeout: settings.requestTimeout)
        } catch {
            _ = try? await connection.close(code: WebSocketCloseCode.normalClosure)
            throw error
        }
        return RokuECP2Session(
            connection: connection, timeout: min(settings.requestTimeout, .seconds(3)))
    }

    /// Waits for `{"notify":"authenticate","param-challenge":…}`, answers it as request "1",
    /// and checks the response's status.
    private static func authenticate(_ connection: WebSocketConnection, timeout: Duration)
        async throws(OpenError)
    {
        let deadline = LoopClock.current.now + timeout
        let challengeMessage = try await nextMessage(
            connection, until: deadline, waitingFor: "the challenge")
        guard case .notify("authenticate") = challengeMessage.kind,
            let challenge = challengeMessage["param-challenge"]
        else {
            throw .failed(
                DriverError(
                    .badResponse, "the Roku's first ECP-2 message is not the authentication challenge"))
        }
        let answer = ECP2Message.request(
            "authenticate", id: "1",
            [
                "param-response": ECP2Authentication.response(challenge: challenge, sha1: Digest.sha1),
                "param-client-friendly-name": clientName,
                "param-has-microphone": "false",
                "param-microphone-sample-rates": "1600",
            ])
        do {
            try await connection.send(text: answer.serialized())
        } catch {
            throw .failed(DriverError(.unreachable, "ECP-2: \(error.message)"))
        }
        while true {
            let message = try await nextMessage(
                connection, until: deadline, waitingFor: "the authentication result")
            guard case .response("authenticate", "1") = message.kind else { continue }
            guard message.isSuccess else {
                let status = message["status"] ?? "none"
                let detail = message["status-msg"].map { " (\(RokuCommandPlanner.printable($0)))" } ?? ""
                throw .authentication(
                    "the Roku refused tv2mqtt's ECP-2 authentication: status \(status)\(detail); staying on HTTP ECP"
                )
            }
            return
        }
    }

    /// The next text message as ECP-2, before `deadline`.
    private static func nextMessage(
        _ connection: WebSocketConnection, until deadline: ContinuousClock.Instant,
        waitingFor what: String
    ) async throws(OpenError) -> ECP2Message {
        let incoming =
            await withDeadline(deadline) { () -> WebSocketIncoming? in
                var iterator = connection.incoming.makeAsyncIterator()
                return await iterator.next()
            } ?? nil
        switch incoming {
        case .text(let text)?:
            do {
                return try ECP2Message.parse(text)
            } catch {
                throw .failed(
                    DriverError(.badResponse, "the Roku sent a malformed ECP-2 message: \(error.reason)"))
            }
        case .binary?:
            throw .failed(DriverError(.badResponse, "the Roku sent a binary message instead of \(what)"))
        case .closed(let reason)?:
            // A Roku that closes right after our answer refused it.
            if what == "the authentication result" {
                throw .authentication(
                    "the Roku closed the ECP-2 session after tv2mqtt's authentication (\(reason)); staying on HTTP ECP"
                )
            }
            throw .failed(
                DriverError(.unreachable, "the Roku closed the ECP-2 session before \(what): \(reason)"))
        case nil:
            throw .failed(DriverError(.timeout, "the Roku sent no \(what) on the ECP-2 session in time"))
        }
    }
}
