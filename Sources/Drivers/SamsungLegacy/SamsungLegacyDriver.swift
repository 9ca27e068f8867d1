import Net
import Support
import Synchronization
import TVModel

/// A pre-2016 Samsung (C/D/E/F series 2010–2013, non-encrypted 2014–2015 models) over the legacy
/// remote protocol on TCP 55000: keys and power off, nothing read back.
///
/// State is reachability: the remote port accepts a connection only while the TV is on (its
/// network is off in standby), so `power` is ON exactly while the port answers. A poll only
/// connects and closes (no authentication, so no prompt). Each command opens one connection,
/// authenticates (the TV shows its allow prompt the first time, and remembers the answer by
/// our client id), sends its keys and closes.
public final class SamsungLegacyDriver: TVDriver {
    struct State {
        var description: TVDescription
        /// The TV denied us, or nobody answered its prompt; cleared by the next granted one.
        var pairingRequired = false
    }

    /// Keys and power: no volume level, mute state, apps, keyboard or inputs (they need the
    /// Tizen APIs). `power` gives the power switch: OFF works, ON only with a MAC (Wake-on-LAN).
    public static let capabilities = TVCapabilities(power: true, volumeKeys: true, channels: true)
    /// The id the TV remembers its allow/deny answer by when the bridge gives none (its
    /// installation's, `TVSecrets.installationID`): the protocol carries no secret, so any
    /// client sending an id the TV allowed is allowed too, and a constant one is everyone's.
    static let fallbackClientID = "tv2mqtt"

    public let kind = TVKind.samsungLegacy
    public let events = DriverEvents()
    let state: Mutex<State>
    let settings: DriverSettings
    /// The name the TV's allow prompt shows (`samsung.client_name`).
    let clientName: String
    let approvalTimeout: Duration
    let logger: Logger

    /// The id sent in the authentication packet (`fallbackClientID` without one).
    let clientID: String

    public init(
        description: TVDescription, settings: DriverSettings, clientName: String,
        approvalTimeout: Duration = .seconds(30), clientID: String? = nil
    ) {
        state = Mutex(State(description: description))
        self.clientID = clientID ?? Self.fallbackClientID
        self.settings = settings
        self.clientName = clientName
        self.approvalTimeout = approvalTimeout
        logger = settings.logger.labeled("samsung-legacy").with("tv", description.identity.id.rawValue)
    }

    /// Who a legacy TV is, from what is known without asking it (it reports nothing): the
    /// id comes from its address, so a TV found again at a new address is a new TV unless the
    /// configuration gives it an `id`.
    public static func describe(host: String, port: UInt16) -> TVDescription {
        let hostPart = host.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? String($0) : "-" }.joined()
        let id = TVID("samsung_legacy_\(hostPart)".prefix(64).description) ?? TVID("samsung_legacy")!
        let identity = TVIdentity(
            id: id, kind: .samsungLegacy, name: "Samsung TV \(host)", manufacturer: "Samsung",
            model: "pre-2016 (legacy remote)", host: host, port: port)
        return TVDescription(identity: identity, capabilities: capabilities)
    }

    public var description: TVDescription {
        get async { state.withLock { $0.description } }
    }

    public func updateHost(_ host: String) async {
        state.withLock { $0.description.identity.host = host }
    }

    public func shutdown() async { events.finish() }

    private var address: (host: String, port: UInt16) {
        state.withLock { ($0.description.identity.host, $0.description.identity.port) }
    }

    // MARK: state

    public func poll(full: Bool) async -> TVSnapshot {
        guard await isReachable() else { return .unreachable }
        let pairingRequired = state.withLock { $0.pairingRequired }
        return TVSnapshot(
            reachable: true, power: true, powerMode: "on", controlPath: .legacyRemote,
            pairingRequired: pairingRequired ? true : nil)
    }

    func isReachable() async -> Bool {
        let (host, port) = address
        guard
            let connection = try? await TCPConnection.connect(host: host, port: port, timeout: settings.connectTimeout)
        else { return false }
        connection.close()
        return true
    }

    // MARK: commands

    public func plan(_ command: CheckedCommand) throws(CommandRejection) -> TVPlan {
        let macs = state.withLock { $0.description.identity.macs }
        return TVPlan(command.command, steps: try SamsungLegacyPlanner.plan(command, macs: macs))
    }

    public func execute(_ plan: TVPlan) async throws(DriverError) {
        switch try plan.steps(as: SamsungLegacyAction.self) {
        case .keys(let codes):
            try await send(codes)
        case .power(let action):
            try await power(action)
        }
    }

    /// Idempotent power against reachability: OFF on an unreachable TV and ON on a reachable
    /// one send nothing; ON on an unreachable one is Wake-on-LAN.
    private func power(_ action: PowerAction) async throws(DriverError) {
        let reachable = await isReachable()
        switch (action, reachable) {
        case (.off, true), (.toggle, true):
            try await send([SamsungLegacyPlanner.powerOffKey])
        case (.off, false), (.on, true):
            return
        case (.on, false), (.toggle, false):
            let macs = state.withLock { $0.description.identity.macs }
            guard !macs.isEmpty else { throw DriverError(.unsupported, SamsungLegacyHelp.cannotPowerOn) }
            await DriverWake.send(to: macs, settings: settings, logger: logger)
        }
    }

    public func pair() async throws(DriverError) {
        try await send([])
    }

    /// One connection: authenticate, the keys, close. A denial or an unanswered prompt is
    /// `pairing_required` (the event and the state field) and the command's failure.
    private func send(_ codes: [String]) async throws(DriverError) {
        let (host, port) = address
        let connection: SamsungLegacyConnection
        do {
            connection = try await SamsungLegacyConnection.open(
                host: host, port: port, clientName: clientName, clientID: clientID,
                settings: settings, approvalTimeout: approvalTimeout)
        } catch {
            if error.kind == .unauthorized {
                state.withLock { $0.pairingRequired = true }
                events.yield(.pairingRequired(error.message))
            }
            throw error
        }
        defer { connection.close() }
        if state.withLock({ $0.pairingRequired }) {
            state.withLock { $0.pairingRequired = false }
            events.yield(.state(await poll(full: false)))
        }
        for (index, code) in codes.enumerated() {
            // Samsung's own remote app pauses between keys; the TV drops keys sent in quick succession.
            if index > 0 { try? await EventLoop.sleep(for: .milliseconds(200)) }
            try await connection.sendKey(code)
            logger.debug("sent \(code)")
        }
    }
}
