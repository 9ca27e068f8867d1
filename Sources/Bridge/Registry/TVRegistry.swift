import Configuration
import Drivers
import Net
import Persistence
import Support
import TVModel
import Wire

/// Every TV the bridge knows, by stable id, with its agent.
///
/// Candidates come from SSDP, the subnet scan and the configuration; each new address is
/// probed once for the TV's identity, and a TV seen on a new address keeps its id (the
/// record's host is updated). Changes are persisted (debounced) and rediscovered.
actor TVRegistry {
    struct Record {
        var agent: TVAgent
        var persisted: PersistedTV
    }

    let context: BridgeContext
    let factory: any DriverFactory
    let store: StateStore
    /// Called when a TV's description changes or a TV is removed (discovery republish).
    var onChange: @Sendable (TVID, TVDescription?) async -> Void = { _, _ in }

    private(set) var records: [TVID: Record] = [:]
    private(set) var hostIndex: [String: TVID] = [:]
    private var probing: Set<String> = []
    /// Addresses whose probe failed lately, not probed again before `probeRetryDelay`; only
    /// through `noteFailedProbe`, which bounds it.
    var failedProbes: [String: ContinuousClock.Instant] = [:]
    /// Reports of TVs not probed because `max_tvs` is reached, at most one a minute.
    let fullReports = LogThrottle()
    /// A save is pending (`scheduleSave`).
    var saveScheduled = false
    /// The state file is looked at for other processes' changes (`restoreSaved` until the stop).
    var watchesStateFile = false
    /// While the state file's TVs are being started: a save now would write only those started
    /// so far over the file that holds them all.
    var restoring = false
    /// A save is being written (`saveNow`): another one waits for it rather than write an
    /// older snapshot beside it.
    var saving = false
    /// Something asked for a save while one was being written: it runs again, with a fresh
    /// snapshot, when that one is done.
    var saveAgain = false
    /// This installation's id (`PersistedState.ensureInstallationID`), handed to every driver
    /// and saved with the TVs.
    var installationID: String?
    /// Callers of `saveNow` waiting for the save in progress (and its re-run) to finish.
    var saveWaiters: [CheckedContinuation<Void, Never>] = []

    /// How long a failed probe of an address is not repeated.
    static let probeRetryDelay = Duration.seconds(60)
    /// Failed addresses remembered at most (a NOTIFY flood from spoofed sources must not
    /// grow the map without end): past it, expired entries go, then the oldest.
    static let maxFailedProbes = 1024

    /// Remembers that `host` failed (or was refused) now, pruning the map when it is full.
    func noteFailedProbe(_ host: String) {
        let now = LoopClock.current.now
        failedProbes[host] = now
        guard failedProbes.count > Self.maxFailedProbes else { return }
        failedProbes = failedProbes.filter { now < $0.value + Self.probeRetryDelay }
        guard failedProbes.count > Self.maxFailedProbes else { return }
        // Still full of recent failures: keep the newest three quarters (amortised: the next
        // prune is a quarter of the limit away).
        let keep = failedProbes.sorted { $0.value > $1.value }.prefix(Self.maxFailedProbes * 3 / 4)
        failedProbes = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }

    init(context: BridgeContext, factory: any DriverFactory, store: StateStore) {
        self.context = context
        self.factory = factory
        self.store = store
    }

    func setOnChange(_ handler: @escaping @Sendable (TVID, TVDescription?) async -> Void) {
        onChange = handler
    }

    var ids: [TVID] { records.keys.sorted() }

    /// Addresses remembered as having failed a probe lately (bounded: see `noteFailedProbe`).
    var failedProbeCount: Int { failedProbes.count }

    func agent(_ id: TVID) -> TVAgent? { records[id]?.agent }

    func agents() -> [TVAgent] { records.values.map(\.agent) }

    /// Starts agents for the TVs remembered in the state file.
    func restore(_ state: PersistedState) async {
        for persisted in state.tvs where records[persisted.identity.id] == nil {
            await add(persisted.tvDescription, persisted: persisted, announce: false)
        }
    }

    /// A device may be at `host`: probe it unless it is known, being probed, or failed lately.
    func candidate(
        host: String, kind: TVKind?, port: UInt16?, source: String,
        configured: BridgeConfiguration.ConfiguredTV? = nil
    )
        async
    {
        if let id = hostIndex[host], records[id] != nil { return }
        if let refusal = fullRefusal() {
            context.observer?.discovery(.refused(address: host, reason: refusal))
            if let heldBack = fullReports.admit(now: LoopClock.current.now) {
                context.logger.warning(
                    "not probing \(host) (\(source)): \(refusal)", [("held_back", "\(heldBack)")])
            }
            return
        }
        if probing.contains(host) { return }
        if let failed = failedProbes[host], LoopClock.current.now < failed + Self.probeRetryDelay {
            return
        }
        probing.insert(host)
        defer { probing.remove(host) }
        let description: TVDescription
        do {
            description = try await factory.probe(host: host, kind: kind, port: port)
        } catch {
            noteFailedProbe(host)
            context.observer?.discovery(.refused(address: host, reason: "\(error)"))
            if error.kind == .unsupported {
                // A TV we recognise but cannot drive (a 2014–2015 encrypted Samsung): say so,
                // once per probe retry, rather than leave the user wondering why it is missing.
                await context.emit(
                    BridgeEvent(
                        .commandFailed, tv: nil, message: "\(error)",
                        data: ["host": .string(host), "via": .string(source)]))
                return
            }
            context.logger.debug("no TV answered at \(host) (\(source)): \(error)")
            return
        }
        failedProbes[host] = nil
        var found = description
        if let configured { apply(configured, to: &found) }
        let id = found.identity.id
        if records[id] != nil {
            await relocate(id, to: host, claim: description)
            return
        }
        guard fullRefusal() == nil else { return }  // filled while this probe ran
        await add(found, persisted: nil, announce: true)
        context.logger.info(
            "found \(found.identity.kind) TV \(found.identity.name)",
            [("tv", id.rawValue), ("host", host), ("via", source)])
    }

    /// A configured TV that did not answer but has an id: known well enough to be woken.
    func placeholder(_ configured: BridgeConfiguration.ConfiguredTV) async {
        guard let id = configured.id, let kind = configured.kind,
            let vendor = factory.vendors.vendor(kind),
            records[id] == nil, fullRefusal() == nil
        else { return }
        var identity = TVIdentity(
            id: id, kind: kind, name: configured.name ?? configured.host,
            manufacturer: vendor.manufacturer, host: configured.host,
            port: configured.port ?? vendor.defaultPort,
            macs: configured.macs)
        identity.model = nil
        let description = TVDescription(
            identity: identity, capabilities: vendor.placeholderCapabilities)
        await add(description, persisted: nil, announce: false)
    }

    private func apply(
        _ configured: BridgeConfiguration.ConfiguredTV, to description: inout TVDescription
    ) {
        if let id = configured.id { description.identity.id = id }
        if let name = configured.name { description.identity.name = name }
        for mac in configured.macs where !description.identity.macs.contains(mac) {
            description.identity.macs.append(mac)
        }
    }

    func add(_ description: TVDescription, persisted: PersistedTV?, announce: Bool) async {
        let description = description.bounded
        let id = description.identity.id
        var record = persisted ?? PersistedTV(identity: description.identity)
        record.identity = description.identity
        record.capabilities = description.capabilities
        record.apps = description.apps.map { AppEntry(id: $0.id, name: $0.name) }
        let driver = factory.makeDriver(
            for: description, secrets: TVSecrets(persisted, installationID: installationID))
        let agent = TVAgent(
            description: description, driver: driver, context: context, lastSeen: persisted?.lastSeen
        ) { [weak self] updated in
            await self?.updated(id, updated)
        } secretsChanged: { [weak self] token, pin in
            await self?.setSecrets(id, token: token, certificatePin: pin)
        }
        records[id] = Record(agent: agent, persisted: record)
        hostIndex[description.identity.host] = id
        agent.start()
        await onChange(id, description)
        scheduleSave()
        if announce {
            await context.emit(
                BridgeEvent(
                    .tvDiscovered, tv: id.rawValue, message: "found \(description.identity.name)",
                    data: [
                        "kind": .string(description.identity.kind.rawValue),
                        "host": .string(description.identity.host),
                    ]),
                level: .info)
        }
    }

    func moved(_ id: TVID, from old: String, to new: String) async {
        guard old != new, let record = records[id] else { return }
        context.logger.info(
            "TV moved to a new address", [("tv", id.rawValue), ("from", old), ("to", new)])
        hostIndex[old] = nil
        hostIndex[new] = id
        await record.agent.driver.updateHost(new)
        var description = await record.agent.description
        description.identity.host = new
        await record.agent.adopt(description)
    }

    /// An agent reports a new description: remember it, persist, rediscover.
    func updated(_ id: TVID, _ description: TVDescription) async {
        guard var record = records[id] else { return }
        if record.persisted.identity.host != description.identity.host {
            hostIndex[record.persisted.identity.host] = nil
            hostIndex[description.identity.host] = id
        }
        record.persisted.identity = description.identity
        record.persisted.capabilities = description.capabilities
        record.persisted.apps = description.apps.map { AppEntry(id: $0.id, name: $0.name) }
        records[id] = record
        await onChange(id, description)
        scheduleSave()
    }

    /// Removes a TV: stops it and forgets it (the caller clears its retained topics).
    func remove(_ id: TVID) async -> Bool {
        guard let record = records.removeValue(forKey: id) else { return false }
        record.agent.stop()
        await record.agent.driver.shutdown()
        hostIndex[record.persisted.identity.host] = nil
        failedProbes[record.persisted.identity.host] = nil
        await onChange(id, nil)
        scheduleSave()
        return true
    }

    /// Secrets another process saved: for the record, the driver's next connection, and a save
    /// of this process's own (the file holding them now may be written over by an older
    /// snapshot of another writer; saving what memory holds is the one sure way to keep them).
    func adoptSavedSecrets(_ id: TVID, token: String?, certificatePin: String?) async {
        guard var record = records[id] else { return }
        record.persisted.token = token
        record.persisted.certificatePin = certificatePin
        records[id] = record
        context.logger.info(
            "using the token and pin another tv2mqtt process saved", [("tv", id.rawValue)])
        await record.agent.driver.adoptSecrets(token: token, certificatePin: certificatePin)
        scheduleSave()
    }

    /// Driver-held secrets (Samsung token, certificate pin) to persist.
    func setSecrets(_ id: TVID, token: String?, certificatePin: String?) {
        guard var record = records[id] else { return }
        if let token { record.persisted.token = token }
        if let certificatePin { record.persisted.certificatePin = certificatePin }
        records[id] = record
        scheduleSave()
    }
}
