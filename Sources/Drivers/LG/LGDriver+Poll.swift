import Net
import TVModel
import Wire

extension LGDriver {
    /// The state the driver subscribes to; while every one holds, the TV pushes and the bridge
    /// only reconciles. The current channel is asked too, but only live TV answers it.
    static let watched = [LGURI.powerState, LGURI.volume, LGURI.foregroundApp, LGURI.soundOutput]

    /// Connects (silently, with the client key; never with a prompt), reads the app, input and
    /// channel lists on `full` or while unknown, then subscribes to the watched state, or
    /// reads it where a subscription is refused. Never throws.
    public func poll(full: Bool) async -> TVSnapshot {
        guard await connection.hasClientKey else { return await unpaired() }
        do {
            try await connection.ensureConnected(prompt: false)
        } catch {
            return failed(error)
        }
        if full || !state.withLock({ $0.catalogueLoaded }) { await loadCatalogue() }
        var allSubscribed = true
        for uri in Self.watched {
            allSubscribed = await watch(uri) && allSubscribed
        }
        let onLiveTV = state.withLock { $0.snapshot.appID == LGReadings.liveTVApp }
        if onLiveTV { _ = await watch(LGURI.currentChannel) }
        let snapshot = state.withLock { state -> TVSnapshot in
            state.snapshot.reachable = true
            state.snapshot.pairingRequired = false
            state.snapshot.controlPath = .websocket
            if state.snapshot.power == nil { state.snapshot.power = true }
            state.subscribed = allSubscribed
            return state.snapshot
        }
        if !allSubscribed, state.withLock({ !$0.pollingSaid }) {
            state.withLock { $0.pollingSaid = true }
            logger.info("the TV refuses subscriptions: its state is polled instead")
        }
        return snapshot
    }

    /// Subscribes to `uri` (or, once subscribed, reads it to reconcile); a refused
    /// subscription is read instead. Returns whether a subscription holds.
    private func watch(_ uri: String) async -> Bool {
        let subscribed = await connection.isSubscribed(uri)
        do {
            let payload = subscribed ? try await connection.request(uri) : try await connection.subscribe(uri)
            state.withLock { Self.apply(uri, payload, to: &$0) }
            return true
        } catch {
            logger.debug("subscribing to \(uri) failed: \(error.message)")
        }
        do {
            let payload = try await connection.request(uri)
            state.withLock { Self.apply(uri, payload, to: &$0) }
        } catch {
            logger.debug("reading \(uri) failed: \(error.message)")
        }
        return false
    }

    /// Apps, inputs, channels, MACs and the model: published as a new description when it changed.
    private func loadCatalogue() async {
        let host = state.withLock { $0.description.identity.host }
        let launchPoints = await read(LGURI.launchPoints)
        let apps = launchPoints.flatMap(LGReadings.apps)
        let icons = launchPoints.map { LGReadings.iconPaths($0, host: host) }
        let inputs = await read(LGURI.inputs).flatMap(LGReadings.inputs)
        let channels = await read(LGURI.channelList).flatMap(LGReadings.channels)
        let macs = await read(LGURI.connectionInfo).map(LGReadings.macs) ?? []
        let model = await read(LGURI.systemInfo)?["modelName"]?.stringValue
        let software = await read(LGURI.softwareInfo)
        let changed = state.withLock { state -> TVDescription? in
            let before = state.description
            if let apps { state.description.apps = apps }
            if let icons { state.iconPaths = icons }
            if let inputs { state.inputs = inputs }
            if let channels { state.channels = channels }
            state.catalogueLoaded = true
            var description = state.description
            for mac in macs where !description.identity.macs.contains(mac) { description.identity.macs.append(mac) }
            if let model { description.identity.model = model }
            if let version = software?["major_ver"]?.stringValue, let minor = software?["minor_ver"]?.stringValue {
                description.identity.softwareVersion = "\(version).\(minor)"
            }
            description.capabilities.apps = description.apps.map(\.name)
            description.capabilities.inputs = state.inputs.map(\.label)
            description.capabilities.channelList = state.channels.map(\.label)
            var outputs = LGSoundOutputs.known
            if let current = state.snapshot.soundOutput, !outputs.contains(current) { outputs.append(current) }
            description.capabilities.soundOutputs = outputs
            state.description = description
            return description == before ? nil : description
        }
        if let changed { events.yield(.description(changed)) }
    }

    private func read(_ uri: String) async -> JSONValue? {
        do {
            return try await connection.request(uri)
        } catch {
            logger.debug("\(uri) failed: \(error.message)")
            return nil
        }
    }

    /// No client key: whether the TV answers at all, without connecting (which would prompt).
    private func unpaired() async -> TVSnapshot {
        let host = state.withLock { $0.description.identity.host }
        let config = await connection.configuration
        var reachable = false
        for port in [config.securePort, config.plainPort] where !reachable {
            if let tcp = try? await TCPConnection.connect(host: host, port: port, timeout: settings.connectTimeout) {
                tcp.close()
                reachable = true
            }
        }
        var snapshot = reachable ? TVSnapshot(reachable: true) : .unreachable
        snapshot.pairingRequired = true
        return snapshot
    }

    private func failed(_ error: DriverError) -> TVSnapshot {
        state.withLock { state in
            state.subscribed = false
            if error.kind == .unauthorized {
                state.snapshot.reachable = true
                state.snapshot.pairingRequired = true
                return state.snapshot
            }
            // Off (standby without network, unplugged) or gone: nothing else is known.
            var snapshot = TVSnapshot.unreachable
            snapshot.pairingRequired = false
            state.snapshot = snapshot
            return snapshot
        }
    }
}
