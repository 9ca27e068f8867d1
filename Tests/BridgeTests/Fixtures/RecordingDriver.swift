import Configuration
import Drivers
import Synchronization
import TVModel
import TestSupport
import Testing

@testable import Bridge

/// A driver that records what it is asked to do, for tests of the bridge's own logic
/// (routing, validation order, publishing); the vendor protocols are tested against the
/// simulated TVs elsewhere.
final class RecordingDriver: TVDriver {
    let kind: TVKind
    private struct State {
        var description: TVDescription
        var snapshot: TVSnapshot
        var performed: [TVCommand] = []
        /// Every command `plan` was asked about, refused or not.
        var planned: [TVCommand] = []
        var failure: DriverError?
        var polls = 0
        /// The apps whose icon was asked for, in order.
        var iconsAsked: [String] = []
        /// While set, `perform` records the command and then waits (a TV that does not answer).
        var held = false
    }

    private let state: Mutex<State>
    let events = DriverEvents()

    init(description: TVDescription, snapshot: TVSnapshot) {
        kind = description.identity.kind
        state = Mutex(State(description: description, snapshot: snapshot))
    }

    var description: TVDescription { state.withLock { $0.description } }
    var performed: [TVCommand] { state.withLock { $0.performed } }
    var planned: [TVCommand] { state.withLock { $0.planned } }
    var polls: Int { state.withLock { $0.polls } }
    var iconsAsked: [String] { state.withLock { $0.iconsAsked } }

    func setSnapshot(_ snapshot: TVSnapshot) { state.withLock { $0.snapshot = snapshot } }
    func failNext(_ error: DriverError) { state.withLock { $0.failure = error } }
    func push(_ event: DriverEvent) { events.yield(event) }
    /// Commands from now on hang after being recorded, until `release()`.
    func hold() { state.withLock { $0.held = true } }
    func release() { state.withLock { $0.held = false } }

    func poll(full: Bool) async -> TVSnapshot {
        state.withLock {
            $0.polls += 1
            return $0.snapshot
        }
    }

    /// Accepts shared keys and `Home`/`VolumeUp`; refuses `.volume` like a Roku without ECP-2.
    func plan(_ checked: CheckedCommand) throws(CommandRejection) -> TVPlan {
        let command = checked.command
        state.withLock { $0.planned.append(command) }
        switch command {
        case .key(.vendor(let name), _) where !["Home", "VolumeUp"].contains(name):
            throw CommandRejection("unknown key '\(name)'")
        case .volume:
            throw CommandRejection("this TV does not report its volume level")
        default:
            return TVPlan(command, steps: command)
        }
    }

    func execute(_ plan: TVPlan) async throws(DriverError) {
        let command = try plan.steps(as: TVCommand.self)
        let failure = state.withLock { state -> DriverError? in
            defer { state.failure = nil }
            if state.failure == nil { state.performed.append(command) }
            return state.failure
        }
        if let failure { throw failure }
        while state.withLock({ $0.held }) { try? await Task.sleep(for: .milliseconds(10)) }
    }

    func updateHost(_ host: String) async {
        state.withLock { $0.description.identity.host = host }
    }

    func shutdown() async { events.finish() }

    func pair() async throws(DriverError) {}

    /// A PNG of its own for every app (read only when the TV's capabilities say `appIcons`).
    func appIcon(_ appID: String) async throws(DriverError) -> AppIcon? {
        state.withLock { $0.iconsAsked.append(appID) }
        return Self.icon(appID)
    }

    /// The icon it gives for `appID`.
    static func icon(_ appID: String) -> AppIcon {
        AppIcon(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(appID.utf8), contentType: "image/png")
    }
}

/// Knows a fixed set of TVs by host, and keeps the drivers it makes.
final class RecordingFactory: DriverFactory {
    let vendors: [Vendor] = .shipped
    private let known: Mutex<[String: TVDescription]>
    private let made = Mutex<[TVID: RecordingDriver]>([:])
    let initialSnapshot: TVSnapshot

    init(
        _ descriptions: [TVDescription],
        snapshot: TVSnapshot = TVSnapshot(reachable: true, power: true, powerMode: "PowerOn", app: "Home")
    ) {
        known = Mutex(Dictionary(uniqueKeysWithValues: descriptions.map { ($0.identity.host, $0) }))
        initialSnapshot = snapshot
    }

    func driver(_ id: TVID) -> RecordingDriver? { made.withLock { $0[id] } }

    func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError) -> TVDescription {
        guard let description = known.withLock({ $0[host] }) else {
            throw DriverError(.unreachable, "nothing at \(host)")
        }
        return description
    }

    func makeDriver(for description: TVDescription, secrets: TVSecrets) -> any TVDriver {
        let driver = RecordingDriver(description: description, snapshot: initialSnapshot)
        made.withLock { $0[description.identity.id] = driver }
        return driver
    }
}

extension TVDescription {
    /// A Roku TV as the tests know it.
    static func sample(id: String = "roku_sample1", host: String = "127.0.0.2", name: String = "Living Room")
        -> TVDescription
    {
        TVDescription(
            identity: TVIdentity(
                id: TVID(id)!, kind: .roku, name: name, manufacturer: "Onn", model: "Onn Roku TV", modelID: "7820X",
                serialNumber: "YN00H5555555", softwareVersion: "9.2.0", host: host, port: 8060,
                macs: ["02:00:7f:00:00:02", "02:01:7f:00:00:02"]),
            capabilities: TVCapabilities(
                power: true, volumeKeys: true, inputs: ["HDMI1"], apps: ["Netflix", "YouTube"], keyboard: true,
                mediaState: true, limitedMode: true, channels: true),
            apps: [TVApp(id: "12", name: "Netflix"), TVApp(id: "837", name: "YouTube")])
    }
}

extension BridgeFixture {
    /// Starts a bridge with one configured recording TV (`TVDescription.sample()`), waits until
    /// it is online, and returns its driver.
    func startRecordingTV(_ tv: TVDescription = .sample()) async throws -> RecordingDriver {
        let factory = RecordingFactory([tv])
        let configuration = configuration {
            $0.tvs = [BridgeConfiguration.ConfiguredTV(host: tv.identity.host, kind: .roku)]
        }
        try await startBridge(configuration, factory: factory)
        _ = await log.waitFor("tv2mqtt/\(tv.identity.id.rawValue)/availability") { $0.text == "online" }
        return try #require(factory.driver(tv.identity.id))
    }
}
