import Support
import Wire

/// The SSAP session with one LG TV, as a pure state machine (as `SamsungSession` is for a
/// Samsung): `LGConnection` feeds it what happened on the sockets (the TLS port refused, the
/// registration answered, the socket lost) and the time, and carries out the actions it
/// returns. It decides who may connect, whether the TV may be reached in clear, which
/// certificate and key are kept, what the user is told, and when to reconnect; it knows no
/// socket.
///
/// ```
/// idle ──admission──▶ connect (TLS; in clear only when allowed and never spoken TLS)
///   ▲                    │ certificate changed / refused / denied / unanswered ──▶ blocked (until pair)
///   │                    ▼ registration: silent with the key, or the prompt, or the PIN screen
///   └── lost: backoff ◀── registered (key and pin kept)
/// ```
struct LGSession: Sendable {
    struct Configuration: Sendable {
        var host: String
        var securePort: UInt16 = 3001
        var plainPort: UInt16 = 3000
        /// The key the TV issued at pairing (state file); nil before the first pairing.
        var clientKey: String?
        /// SHA-256 of the TV's certificate, hex (state file).
        var pin: String?
        var approvalTimeout: Duration = .seconds(60)
        var connectTimeout: Duration = .seconds(3)
        var requestTimeout: Duration = .seconds(5)
        var keepAlive: Duration = .seconds(20)
        var keepAliveTimeout: Duration = .seconds(10)
        /// A lost socket is reconnected after `reconnectFirst`, the wait doubling after each
        /// failed attempt up to `reconnectMax`, and starting again at `reconnectFirst` after a
        /// success.
        var reconnectFirst: Duration = .seconds(1)
        var reconnectMax: Duration = .seconds(60)
        /// Port 3000 in clear for a TV that refuses 3001 and never spoke TLS.
        var allowCleartext = false
    }

    /// Why the connection will not be made until the user acts (cleared by `pair`).
    enum Blocked: Equatable, Sendable {
        case pairingRequired(String)
        case certificateChanged(pinned: String, seen: String)
    }

    /// What a caller that needs the connection does.
    enum Admission: Equatable, Sendable {
        case ready
        case connect
        case refused(DriverError)
    }

    /// The reconnect backoff while it runs: the wait, and the next attempt's instant.
    struct Backoff: Equatable, Sendable {
        var delay: Duration
        var nextAttempt: ContinuousClock.Instant
    }

    var configuration: Configuration
    var blocked: Blocked?
    /// Whether the open connection is in clear (port 3000).
    var isPlain = false
    /// The TV shows its PIN screen for the open connection's registration (`pair(pin:)` next).
    var pinShown = false
    /// `pairing_required` for a TV without TLS that may not be reached in clear was said.
    var cleartextRefusalSaid = false
    /// The PIN to send as soon as the TV shows its PIN screen (`pair(pin:)`); never logged.
    var pinToSend: String?
    /// The open connection's certificate, until its registration completes.
    var registeringFingerprint: String?
    /// A pairing runs (`pair`): its registration goes without the key, and its TLS connection
    /// takes the certificate the TV presents (checked against the pin in `registered`).
    var isPairing = false
    /// The pin a pairing set aside, to log a certificate the user accepted by pairing again.
    var pinBeforePairing: String?
    /// Shut down: nothing connects again (a refresh or poll still running must not).
    private(set) var isShutDown = false
    /// Reconnecting a lost socket (`LGSession+Reconnect.swift`), while it runs.
    var backoff: Backoff?
    /// Subscription ids → their URI, for the open connection.
    private(set) var subscriptions: [String: String] = [:]

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    var hasClientKey: Bool { configuration.clientKey != nil }
    /// A certificate is pinned: the TV has spoken TLS.
    var hasSpokenTLS: Bool { !SamsungCertificatePolicy.normalize(configuration.pin ?? "").isEmpty }
    /// The pin a TLS connection must present: none while pairing (the certificate is compared
    /// with the pin at `registered`).
    var pinToTrust: String? { isPairing ? nil : configuration.pin }

    /// Whether a caller may use the connection (`connected`), must open it, or is refused: a
    /// blocked session fails at once with the reason. `prompt`: whether connecting may show the
    /// TV's pairing prompt (commands may; polls never do, nor do they connect while the
    /// backoff runs).
    func admission(prompt: Bool, connected: Bool) -> Admission {
        if isShutDown { return .refused(DriverError(.unreachable, "the driver was shut down")) }
        if connected { return .ready }
        if let blocked { return .refused(Self.error(blocked)) }
        guard prompt || hasClientKey else { return .refused(DriverError(.unauthorized, LGPairingHelp.notPaired)) }
        if !prompt, backoff != nil {
            return .refused(DriverError(.unreachable, "the TV closed the connection: reconnecting with backoff"))
        }
        return .connect
    }

    static func error(_ blocked: Blocked) -> DriverError {
        switch blocked {
        case .pairingRequired(let message): DriverError(.unauthorized, message)
        case .certificateChanged:
            DriverError(
                .unauthorized, "the TV's TLS certificate changed since pairing; pair again if you trust it")
        }
    }

    /// Pairing (again): registers without the key, so the TV asks its user. The pin and the key
    /// are kept until the TV issues a new key: a TV once on TLS is reached over TLS only, and
    /// a changed certificate is accepted over TLS only (with a warning, `registered`), never by
    /// falling back to port 3000, where whoever answers would get the registration in clear.
    mutating func pair() {
        blocked = nil
        backoff = nil
        pinBeforePairing = configuration.pin
        isPairing = true
    }

    /// The pairing's connect failed: the PIN screen waits for `pair(pin:)`, still pairing;
    /// anything else ends it.
    mutating func pairingFailed() {
        if !pinShown { isPairing = false }
    }

    /// A key and pin saved by another tv2mqtt process: used from the next connection.
    mutating func adoptSecrets(clientKey: String?, pin: String?) {
        if let clientKey { configuration.clientKey = clientKey }
        if let pin { configuration.pin = pin }
        blocked = nil
    }

    mutating func shutDown() {
        isShutDown = true
        backoff = nil
    }

    /// The connection closed: what belonged to it goes.
    mutating func dropped() {
        pinShown = false
        subscriptions.removeAll()
    }

    mutating func subscribing(_ uri: String, id: String) { subscriptions[id] = uri }
    mutating func unsubscribed(_ id: String) { subscriptions[id] = nil }
    func isSubscribed(_ uri: String) -> Bool { subscriptions.values.contains(uri) }
}
