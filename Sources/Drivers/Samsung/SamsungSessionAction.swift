/// One thing the remote channel must do, in a request's order: send a message, or wait
/// (between the Press and Release of a held key).
public enum SamsungRemoteStep: Equatable, Sendable {
    case message(SamsungRemoteMessage)
    case pause(Duration)
}

/// Why the connection to the remote channel could not be made.
public enum SamsungConnectFailure: Equatable, Sendable {
    /// TCP connection refused (nothing listens: e.g. no 8002 on a 2016 TV).
    case refused
    /// The TLS handshake failed (an old TLS stack on 8002).
    case tlsHandshakeFailed(String)
    /// No answer in time.
    case timedOut
    /// No route, host down, name resolution: the TV is off or gone.
    case unreachable(String)
    /// The WebSocket upgrade was refused (an HTTP status other than 101).
    case upgradeRejected(Int)
}

/// What `SamsungSession` asks its driver to do. Carry the actions out in order.
public enum SamsungSessionAction: Equatable, Sendable, CustomStringConvertible {
    /// Connect to the endpoint (TCP, then TLS when secure, then the WebSocket upgrade). For
    /// a secure endpoint, report the certificate with `tlsEstablished` *before* the upgrade:
    /// the upgrade request carries the token.
    case open(SamsungRemoteEndpoint)
    /// Send a text frame.
    case send(SamsungRemoteMessage)
    /// Wait before the next action (holding a key).
    case pause(Duration)
    /// Every step of request `id` was handed to the connection.
    case completed(UInt64)
    /// Request `id` failed; nothing more of it will be sent.
    case failed(UInt64, DriverError)
    /// A new token: persist it (`DriverEvent.token`) and never log it.
    case persistToken(SamsungToken)
    /// First sight of the TV's certificate: persist the pin (`DriverEvent.certificatePinned`).
    case pinCertificate(String)
    /// The certificate differs from the pin: report it (`DriverEvent.certificateChanged`).
    case certificateChanged(pinned: String, seen: String)
    /// The TV has not approved us; tell the user what to do (`DriverEvent.pairingRequired`).
    case pairingRequired(String)
    /// An event for the driver itself (app list, launch replies, other `ms.error`s).
    case deliver(SamsungEvent)
    /// Close the connection.
    case close

    public var description: String {
        switch self {
        case .open(let endpoint): "open \(endpoint)"
        case .send(let message): "send \(message.summary)"
        case .pause(let duration): "pause \(duration)"
        case .completed(let id): "completed #\(id)"
        case .failed(let id, let error): "failed #\(id): \(error)"
        case .persistToken: "persist token <redacted>"
        case .pinCertificate(let pin): "pin certificate \(pin)"
        case .certificateChanged(let pinned, let seen): "certificate changed \(pinned) → \(seen)"
        case .pairingRequired(let message): "pairing required: \(message)"
        case .deliver(let event): "deliver \(event)"
        case .close: "close"
        }
    }
}

extension SamsungRemoteMessage {
    /// For logs: the key and action, never typed text (it may be a password).
    public var summary: String {
        switch self {
        case .key(let code, let action): "\(code) \(action.rawValue)"
        case .text(let text): "text (\(text.count) characters)"
        case .textEnd: "text end"
        case .installedApps: "ed.installedApp.get"
        case .appIcon(let path): "ed.apps.icon \(path)"
        case .launch(let appID, let type, _): "ed.apps.launch \(appID) \(type.rawValue)"
        }
    }
}
