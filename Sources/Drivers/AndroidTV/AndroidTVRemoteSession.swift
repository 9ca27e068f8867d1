import Support
import TVModel

/// The remote session with one Android TV on port 6466, as a pure state machine (as
/// `LGSession` is for LG): the connection feeds it each message the TV sends and the time, and
/// sends what it answers. It negotiates the features, echoes pings, keeps what the TV pushes
/// (power, the app in front, volume, the input method's counters) and says when a silent TV
/// is to be dropped. It knows no socket.
///
/// ```
/// connected ──configure──▶ answered (features: ours ∧ the TV's) ──set active──▶ answered
///     └──────────────▶ start: ready (started: on) ◀── ping ⇄ pong, volume, app, batch edit
/// silent for `idleTimeout` ──▶ dropped (the connection reopens with backoff)
/// ```
struct AndroidTVRemoteSession: Sendable {
    /// The TV pings about every 5 s: three missed pings mean it is gone (androidtvremote2's
    /// 16 s, close to the TV's own rule).
    static let idleTimeout: Duration = .seconds(16)
    /// How the bridge names itself to the TV. The package name is the one the official app's
    /// protocol implementations send.
    static let ownDevice = AndroidTVRemoteMessage.Device(
        model: "tv2mqtt", vendor: "tv2mqtt", packageName: "atvremote", appVersion: "1.0.0")
    /// What to do on the TV when it offers no keys or app links, from Home Assistant's
    /// integration: the service's data holds a broken pairing.
    static let clearServiceData =
        "on the TV open Settings › Apps › See all apps › Show system apps › Android TV Remote Service › Storage, clear its data, then pair again"

    /// The volume as the TV reports it; `maximum` 0 means the sound goes to an external
    /// device the TV does not control.
    struct Volume: Equatable, Sendable {
        var level: UInt64
        var maximum: UInt64
        var muted: Bool

        /// 0–100, the state document's scale; nil without a volume of the TV's own.
        var percent: Int? {
            guard maximum > 0 else { return nil }
            return Int((min(level, maximum) * 100 + maximum / 2) / maximum)
        }
    }

    /// What the connection does with a message it received.
    enum Effect: Equatable, Sendable {
        case send(AndroidTVRemoteMessage)
        /// Power, app or volume changed: publish the snapshot.
        case changed
        /// The TV refused a message the bridge sent (it echoes it, when it can be read).
        case refused(AndroidTVRemoteMessage?)
        case log(LogLevel, String)

        /// A warning, made by name so the troubleshooting table's check finds its text
        /// (`LogLineTableTests`).
        static func warn(_ message: String) -> Effect { .log(.warning, message) }
    }

    let wanted: AndroidTVFeatures
    private(set) var active: AndroidTVFeatures = []
    /// The TV said RemoteStart: commands may go.
    private(set) var ready = false
    private(set) var started: Bool?
    private(set) var appPackage: String?
    private(set) var volume: Volume?
    private(set) var device: AndroidTVRemoteMessage.Device?
    /// The counters of the TV's last batch edit, which a text insertion must repeat.
    private(set) var imeCounter: Int32 = 0
    private(set) var fieldCounter: Int32 = 0
    private(set) var lastHeard: ContinuousClock.Instant

    init(wanted: AndroidTVFeatures, connectedAt now: ContinuousClock.Instant) {
        self.wanted = wanted
        lastHeard = now
    }

    /// When a TV that stays silent is dropped.
    var idleDeadline: ContinuousClock.Instant { lastHeard + Self.idleTimeout }

    mutating func received(_ message: AndroidTVRemoteMessage, at now: ContinuousClock.Instant) -> [Effect] {
        lastHeard = now
        switch message {
        case .configure(let offered, let device):
            self.device = device
            active = wanted.intersection(offered)
            var effects: [Effect] = [.send(.configure(active, Self.ownDevice))]
            for (feature, name) in [(AndroidTVFeatures.key, "keys"), (.appLink, "app links")]
            where !offered.contains(feature) {
                effects.append(
                    .warn("the TV offers no \(name) (features \(offered.rawValue)): \(Self.clearServiceData)"))
            }
            return effects
        case .setActive:
            return [.send(.setActive(active))]
        case .pingRequest(let value):
            return [.send(.pingResponse(value))]
        case .start(let started):
            ready = true
            return Self.update(&self.started, started)
        case .appInFront(let package):
            return Self.update(&appPackage, package)
        case .volume(let level, let maximum, let muted):
            return Self.update(&volume, Volume(level: level, maximum: maximum, muted: muted))
        case .imeBatchEdit(let ime, let field, _):
            imeCounter = ime
            fieldCounter = field
            return []
        case .error(let echoed):
            return [.refused(echoed)]
        case .pingResponse, .key, .appLink, .other:
            return []
        }
    }

    private static func update<Value: Equatable>(_ stored: inout Value?, _ value: Value) -> [Effect] {
        guard stored != value else { return [] }
        stored = value
        return [.changed]
    }

    /// The text to insert through the input method, with the counters the TV expects.
    func insertion(_ text: String) -> AndroidTVRemoteMessage {
        .imeBatchEdit(imeCounter: imeCounter, fieldCounter: fieldCounter, text: text)
    }

    /// What the TV has pushed, as the bridge publishes it; `appID` is the package.
    func snapshot() -> TVSnapshot {
        var snapshot = TVSnapshot(
            reachable: true, power: started, appID: appPackage, volume: volume?.percent,
            muted: volume.map(\.muted))
        if started == false { snapshot.powerMode = "standby" }
        return snapshot
    }
}
