import Net
import TVModel

extension SamsungDriver {
    /// REST `/api/v2/` always (power, identity); UPnP volume and mute and the current app
    /// (1–2 REST app requests, `SamsungAppWatch`) while on (a failure leaves them unknown);
    /// the app list on `full` or while unknown. Never throws.
    ///
    /// Requests per poll: 1 in standby; at most 5 while on (REST, 2 UPnP, 2 app checks),
    /// plus the app list on a full poll. While UPnP events push volume and mute, the 2 UPnP
    /// reads are left out but once a `renderingReconcile` (a missed event is mended within
    /// it). The input stays absent: Tizen has no source query.
    public func poll(full: Bool) async -> TVSnapshot {
        var info: SamsungDeviceInfo?
        do {
            info = try await http.deviceInfo()
        } catch {
            logger.debug("REST /api/v2/ failed: \(error.message)")
        }
        let reading = state.withLock { state in
            state.info = info
            state.reachable = info != nil
            if let info {
                Self.update(
                    &state.description, from: info, inputs: SamsungInputs(configured: samsung.inputs))
            }
            return state.grace.reading(for: info, now: LoopClock.current.now)
        }
        if info != nil { await channel.recheckChangedCertificate() }
        let pairingRequired = await channel.pairingRequired
        let controlPath: ControlPath = await channel.plainOnly ? .plainWebSocket : .websocket
        guard info != nil else {
            forgetCurrentApp()
            var snapshot = TVSnapshot.unreachable
            snapshot.powerMode = reading.powerMode
            snapshot.controlPath = controlPath
            snapshot.pairingRequired = pairingRequired
            renderingEvents?.polled(snapshot)
            return await mergeArt(into: snapshot)
        }
        var snapshot = TVSnapshot(
            reachable: true, power: reading.power, powerMode: reading.powerMode, controlPath: controlPath,
            pairingRequired: pairingRequired)
        let pushed = renderingEvents?.isPushing == true && !renderingReadDue(full: full)
        let readSince = renderingEvents?.pushCount
        if reading.power && !pushed {
            snapshot.volume = await readRendering(.getVolume)
            snapshot.muted = await readRendering(.getMute)
            state.withLock { $0.renderingReadAt = LoopClock.current.now }
        }
        if full || !state.withLock({ $0.appsLoaded }) { await refreshApps(poweredOn: reading.power) }
        let app = await readCurrentApp(poweredOn: reading.power)
        snapshot.app = app?.name
        snapshot.appID = app?.id
        if let renderingEvents {
            snapshot = renderingEvents.polled(snapshot, keepingPushed: pushed, readSince: readSince)
        }
        return await mergeArt(into: snapshot)
    }

    /// While volume and mute are pushed, how often a poll still reads them (as a Roku's
    /// ECP-2 session is reconciled): a dropped NOTIFY is mended within this.
    static let renderingReconcile = Duration.seconds(60)

    private func renderingReadDue(full: Bool) -> Bool {
        full
            || state.withLock {
                $0.renderingReadAt.map { LoopClock.current.now - $0 >= Self.renderingReconcile } ?? true
            }
    }

    private func readRendering<Value>(_ action: UPnPRenderingAction) async -> Value? {
        do {
            switch try await http.rendering(action) {
            case .volume(let level): return level as? Value
            case .mute(let muted): return muted as? Value
            case .done: return nil
            }
        } catch {
            logger.debug("UPnP \(action.name) failed: \(error.message)")
            return nil
        }
    }

    /// The installed list over the remote channel when the TV answers it (only asked while
    /// on, and only on a channel that is open or can open without a prompt), else the
    /// configured `samsung.apps` that the REST API confirms installed.
    private func refreshApps(poweredOn: Bool) async {
        let askChannel = poweredOn && !state.withLock { $0.installedListUnavailable }
        if askChannel {
            let mayConnect = await channel.hasToken
            let wasReady = await channel.isReady
            let installed = await channel.installedApps(
                connect: mayConnect, timeout: options.appListTimeout)
            if let installed, !installed.isEmpty {
                state.withLock { state in
                    state.installed = installed
                    state.appsLoaded = true
                    state.description.capabilities.appIcons = installed.contains { $0.iconPath != nil }
                    Self.setApps(
                        installed.map { TVApp(id: $0.appID, name: $0.name) }, seen: state.seenApps,
                        in: &state.description)
                }
                return
            }
            // Asked on an open channel and got nothing: this firmware dropped the request.
            let readyNow = await channel.isReady
            if wasReady || readyNow {
                state.withLock { $0.installedListUnavailable = true }
            }
        }
        await loadConfiguredApps()
    }

    private func loadConfiguredApps() async {
        var apps: [TVApp] = []
        var answered = false
        for (name, id) in samsung.apps.sorted(by: { $0.key < $1.key }) {
            do {
                if try await http.appInstalled(id) { apps.append(TVApp(id: id, name: name)) }
                answered = true
            } catch {
                logger.debug("REST app check of \(name) failed: \(error.message)")
            }
        }
        guard answered || samsung.apps.isEmpty else { return }
        state.withLock { state in
            state.appsLoaded = true
            Self.setApps(apps, seen: state.seenApps, in: &state.description)
        }
    }

    /// The list, and after it the apps seen in front that it lacks (launched by id).
    static func setApps(_ apps: [TVApp], seen: [TVApp], in description: inout TVDescription) {
        let all = apps + seen.filter { app in !apps.contains { $0.id == app.id } }
        description.apps = all
        description.capabilities.apps = all.map(\.name)
    }

    /// What a REST reading tells about the TV's identity; the name stays (the user's or
    /// the one first seen), the Wi-Fi MAC is added to those known (configured Ethernet ones stay).
    static func update(
        _ description: inout TVDescription, from info: SamsungDeviceInfo,
        inputs: SamsungInputs = SamsungInputs()
    ) {
        var identity = description.identity
        if let model = info.modelName { identity.model = model }
        if let code = info.modelCode { identity.modelID = code }
        if let firmware = info.firmwareVersion { identity.softwareVersion = firmware }
        for mac in info.macs where !identity.macs.contains(mac) { identity.macs.append(mac) }
        description.identity = identity
        let apps = description.apps
        let appIcons = description.capabilities.appIcons  // from the installed list, not REST
        description.capabilities = info.capabilities(apps: apps)
        description.capabilities.appIcons = appIcons
        description.capabilities.inputs = inputs.names
    }
}
