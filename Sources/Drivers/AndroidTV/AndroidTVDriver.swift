import Net
import Support
import Synchronization
import TVModel
import Wire

/// What an Android TV driver needs besides `DriverSettings`: its ports, the bridge's own
/// certificate, the TV's pinned one, and its settings (`androidtv.apps`, `androidtv.ime`).
public struct AndroidTVDriverOptions: Sendable {
    public var remotePort: UInt16
    public var pairingPort: UInt16
    /// The bridge's identity toward every Android TV (kept in the state directory; never logged).
    public var identity: TLSIdentitySource
    /// SHA-256 of the TV's certificate, hex, pinned at pairing; nil before.
    public var certificatePin: String?
    /// Use the input method: the app in front and text. Off for TVs whose own keyboard it hides.
    public var ime: Bool
    public var apps: [TVApp]
    /// How long the TV has to start a remote session, and to answer each pairing step.
    public var readyTimeout: Duration

    public init(
        remotePort: UInt16 = AndroidTVPorts.remote, pairingPort: UInt16 = AndroidTVPorts.pairing,
        identity: TLSIdentitySource, certificatePin: String? = nil, ime: Bool = true, apps: [TVApp]? = nil,
        readyTimeout: Duration = .seconds(10)
    ) {
        self.remotePort = remotePort
        self.pairingPort = pairingPort
        self.identity = identity
        self.certificatePin = certificatePin
        self.ime = ime
        self.apps = apps ?? AndroidTVApps.defaults
        self.readyTimeout = readyTimeout
    }
}

/// The Android TV Remote protocol v2's ports.
public enum AndroidTVPorts {
    public static let remote: UInt16 = 6466
    public static let pairing: UInt16 = 6467

    /// A TV's pairing port is the one after its remote port (6467 after 6466).
    public static func pairing(after remote: UInt16) -> UInt16 { remote == .max ? pairing : remote + 1 }
}

/// An Android TV or Google TV (Sony, TCL, Hisense, Philips, Chromecast with Google TV, Shield):
/// pairing by the code on its screen on 6467, then one remote session on 6466 over which it
/// pushes power, the app in front and its volume, and takes keys, app links and text.
public final class AndroidTVDriver: TVDriver {
    struct State {
        var description: TVDescription
        var options: AndroidTVDriverOptions
        var snapshot = TVSnapshot(reachable: false)
    }

    public let kind: TVKind
    public let events = DriverEvents()
    let state: Mutex<State>
    let link: AndroidTVLink
    let pairer: AndroidTVPairer
    let settings: DriverSettings
    let logger: Logger

    public init(kind: TVKind, description: TVDescription, settings: DriverSettings, options: AndroidTVDriverOptions) {
        self.kind = kind
        let identity = description.identity
        self.settings = settings
        logger = settings.logger.labeled("androidtv").with("tv", identity.id.rawValue)
        var description = description
        description.capabilities = .androidTV(apps: options.apps, ime: options.ime)
        state = Mutex(State(description: description, options: options))
        let events = events
        link = AndroidTVLink(
            configuration: AndroidTVLink.Configuration(
                host: identity.host, port: options.remotePort, identity: options.identity,
                pin: options.certificatePin.flatMap { HexDigits.bytes(Array($0.utf8)) },
                wanted: .wanted(ime: options.ime), connectTimeout: settings.connectTimeout,
                readyTimeout: options.readyTimeout),
            logger: logger,
            changed: { snapshot in events.yield(.state(AndroidTVDriver.named(snapshot))) },
            lost: { error in
                if error.kind == .unauthorized { events.yield(.pairingRequired(error.message)) }
                var gone = TVSnapshot(reachable: false)
                gone.unreachableHint = error.message
                events.yield(.state(gone))
            },
            certificateChanged: { pinned, seen in events.yield(.certificateChanged(pinned: pinned, seen: seen)) })
        pairer = AndroidTVPairer(
            host: identity.host, port: options.pairingPort, identity: options.identity, clientName: "tv2mqtt",
            timeout: options.readyTimeout)
    }

    public var description: TVDescription {
        get async { state.withLock { $0.description } }
    }

    /// The TV pushes its state while the session is open: polls only reconcile.
    public var reconcileInterval: Duration? { .seconds(60) }

    public func poll(full: Bool) async -> TVSnapshot {
        guard state.withLock({ $0.options.certificatePin != nil }) else { return await unpairedReachability() }
        do {
            try await link.open()
        } catch {
            var snapshot = TVSnapshot(reachable: error.kind == .unauthorized)
            if error.kind == .unauthorized { snapshot.pairingRequired = true }
            snapshot.unreachableHint = error.message
            return snapshot
        }
        await adoptDevice()
        return Self.named(await link.snapshot ?? TVSnapshot(reachable: false))
    }

    /// The manufacturer and model the TV gave when its session opened, into the description.
    private func adoptDevice() async {
        guard let device = await link.device else { return }
        let changed = state.withLock { state -> TVDescription? in
            var identity = state.description.identity
            if !device.vendor.isEmpty { identity.manufacturer = TVDescription.boundedName(device.vendor) }
            if !device.model.isEmpty { identity.model = TVDescription.boundedName(device.model) }
            guard identity != state.description.identity else { return nil }
            state.description.identity = identity
            return state.description
        }
        if let changed { events.yield(.description(changed)) }
    }

    /// A TV never paired is not spoken to (a session would only be refused): it is there while
    /// its remote port takes a TCP connection.
    private func unpairedReachability() async -> TVSnapshot {
        let (host, port) = state.withLock { ($0.description.identity.host, $0.options.remotePort) }
        do {
            let connection = try await TCPConnection.connect(host: host, port: port, timeout: settings.connectTimeout)
            connection.close()
            return TVSnapshot(reachable: true, pairingRequired: true)
        } catch {
            var snapshot = TVSnapshot(reachable: false)
            snapshot.unreachableHint = "the TV's remote port \(port) does not answer: \(error)"
            return snapshot
        }
    }

    /// The app's name from its package, where the package is one the bridge knows.
    static func named(_ snapshot: TVSnapshot) -> TVSnapshot {
        var snapshot = snapshot
        if let package = snapshot.appID { snapshot.app = AndroidTVApps.packages[package] ?? package }
        snapshot.pairingRequired = false
        if snapshot.reachable { snapshot.controlPath = .remoteV2 }
        return snapshot
    }

    public func plan(_ checked: CheckedCommand) throws(CommandRejection) -> TVPlan {
        let planner = state.withLock {
            AndroidTVPlanner(apps: $0.options.apps, ime: $0.options.ime)
        }
        return TVPlan(checked.command, steps: try planner.plan(checked.command))
    }

    public func execute(_ plan: TVPlan) async throws(DriverError) {
        for action in try plan.steps(as: [AndroidTVAction].self) {
            switch action {
            case .keys(let codes): try await link.send(codes.map { .key(code: $0, .short) })
            case .hold(let code, let milliseconds): try await hold(code, milliseconds: milliseconds)
            case .power(let action): try await power(action)
            case .appLink(let link): try await self.link.send([.appLink(link)])
            case .volume(let percent): try await volume(percent)
            case .mute(let muted): try await mute(muted)
            case .text(let text):
                try await link.open()
                guard let insertion = await link.insertion(text) else {
                    throw DriverError(.unreachable, "the remote session closed")
                }
                try await link.send([insertion])
            }
        }
    }

    /// Held as START_LONG … END_LONG; the release goes even when the wait is cut short.
    private func hold(_ code: UInt64, milliseconds: Int) async throws(DriverError) {
        try await link.send([.key(code: code, .startLong)])
        try? await EventLoop.sleep(for: .milliseconds(milliseconds))
        try await link.send([.key(code: code, .endLong)])
    }

    /// Waits for the TV to push what a key did, so the next command starts from it; a TV that
    /// does not say is only logged.
    func confirm(_ what: String, _ condition: @escaping @Sendable (AndroidTVRemoteSession) -> Bool) async {
        guard await link.waitForState(timeout: Self.confirmTimeout, condition) else {
            logger.debug(
                "the TV did not report the \(what) it was asked for within \(Self.confirmTimeout.components.seconds) s")
            return
        }
    }

    static let confirmTimeout: Duration = .seconds(3)

    /// There is no "set volume" message: volume keys from the level the TV reports.
    private func volume(_ percent: Int) async throws(DriverError) {
        try await link.open()
        // RemoteStart says the session is ready; the volume may come just before or after it.
        await confirm("volume level") { $0.volume != nil }
        guard let volume = await link.volume, volume.maximum > 0 else {
            throw DriverError(
                .unsupported, "volume: the TV reports no volume of its own (its sound goes to an external device)")
        }
        let target = (percent * Int(volume.maximum) + 50) / 100
        let steps = target - Int(volume.level)
        guard steps != 0 else { return }
        try await link.send(
            Array(
                repeating: .key(code: steps > 0 ? AndroidTVKeys.volumeUp : AndroidTVKeys.volumeDown, .short),
                count: abs(steps)))
        await confirm("volume") { $0.volume?.level == UInt64(target) }
    }

    private func mute(_ muted: Bool) async throws(DriverError) {
        try await link.open()
        await confirm("mute state") { $0.volume != nil }
        guard await link.volume?.muted != muted else { return }
        try await link.send([.key(code: AndroidTVKeys.volumeMute, .short)])
        await confirm("mute") { $0.volume?.muted == muted }
    }

    /// Starts a pairing: the TV shows its code, which `pair(pin:)` sends back.
    public func pair() async throws(DriverError) {
        try await pairer.start()
        throw DriverError(.pinRequired, AndroidTVPairingHelp.codeShown)
    }

    /// Sends the code the TV shows; a TV that shows none yet is asked to (and shows a new one).
    public func pair(pin: String) async throws(DriverError) {
        let fingerprint: String
        do throws(DriverError) {
            fingerprint = try await pairer.finish(code: pin)
        } catch  where error.kind == .pinRequired {
            try await pair()
            return
        }
        state.withLock { $0.options.certificatePin = fingerprint }
        await link.pinned(HexDigits.bytes(Array(fingerprint.utf8)))
        events.yield(.certificatePinned(fingerprint))
        logger.info("paired: the TV's certificate is pinned")
        // The session opens beside the answer: a TV slow to start it does not hold the pairing.
        Task { [weak self] in
            guard let self, let snapshot = try? await refreshed() else { return }
            events.yield(.state(snapshot))
        }
    }

    private func refreshed() async throws(DriverError) -> TVSnapshot {
        try await link.open()
        return Self.named(await link.snapshot ?? TVSnapshot(reachable: false))
    }

    public func adoptSecrets(token: String?, certificatePin: String?) async {
        guard let certificatePin else { return }
        state.withLock { $0.options.certificatePin = certificatePin }
        await link.pinned(HexDigits.bytes(Array(certificatePin.utf8)))
    }

    public func updateHost(_ host: String) async {
        state.withLock { $0.description.identity.host = host }
        await link.updateHost(host)
    }

    public func shutdown() async {
        await link.shutdown()
        await pairer.close()
        events.finish()
    }
}
