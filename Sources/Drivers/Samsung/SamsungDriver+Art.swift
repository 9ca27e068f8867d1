import Net
import Support
import Synchronization
import TVModel

/// The Frame's art mode, as one driver keeps it: the art channel, and the last poll's
/// snapshot that an art event is merged into and pushed at once.
final class SamsungArt: Sendable {
    let channel: SamsungArtChannel
    /// The last poll as read (before the art mode is merged) or as UPnP events amended it,
    /// whether the TV is a Frame, and the art mode the channel last pushed.
    private let lastPoll = Mutex<(snapshot: TVSnapshot, frameTV: Bool, artMode: Bool?)?>(nil)
    /// A fresh poll, for when an art event alone cannot tell the state (`setRepoll`).
    private let repoll = Mutex<(@Sendable () async -> TVSnapshot?)?>(nil)

    init(
        timeouts: SamsungChannel.Timeouts, logger: Logger,
        emit: @escaping @Sendable (DriverEvent) -> Void
    ) {
        let box = Box()
        channel = SamsungArtChannel(timeouts: timeouts, logger: logger.labeled("art")) { artMode in
            guard let art = box.art else { return }
            let last = art.lastPoll.withLock { last in
                last?.artMode = artMode
                return last
            }
            guard let last else { return }
            // Art ended while REST last said standby (a 2025 Frame showing art): TV or standby
            // now, which only REST tells; it is read again before anything is pushed.
            if artMode != true, SamsungArt.readsStandby(last.snapshot),
                let repoll = art.repoll.withLock({ $0 })
            {
                Task {
                    if let snapshot = await repoll() { emit(.state(snapshot)) }
                }
                return
            }
            emit(.state(SamsungArt.merge(last.snapshot, artMode: artMode, frameTV: last.frameTV)))
        }
        box.art = self
    }

    /// How to poll the TV afresh (the driver's own poll).
    func setRepoll(_ poll: @escaping @Sendable () async -> TVSnapshot?) {
        repoll.withLock { $0 = poll }
    }

    /// A state pushed between polls by another source (volume and mute by UPnP events): it
    /// becomes the snapshot later art events amend, and gets the last known art mode merged in,
    /// so neither push undoes the other's fields.
    func amend(_ snapshot: TVSnapshot) -> TVSnapshot {
        lastPoll.withLock { last in
            guard var current = last else { return snapshot }
            current.snapshot = snapshot
            last = current
            return SamsungArt.merge(snapshot, artMode: current.artMode, frameTV: current.frameTV)
        }
    }

    /// Lets the channel's callback reach its owner without a reference cycle.
    private final class Box: @unchecked Sendable {
        weak var art: SamsungArt?
    }

    func remember(_ snapshot: TVSnapshot, frameTV: Bool, artMode: Bool?) {
        lastPoll.withLock { $0 = (snapshot, frameTV, artMode) }
    }

    /// What the state says for a Frame (Samsung/README.md › Art mode (The Frame)): off, or in
    /// standby with no art on the art channel, no art (`art_mode` OFF); showing art, `power` OFF
    /// with `power_mode` "art" — also when REST says `standby` while the art channel says art, as
    /// 2025 Frames do (samsung-tv-ws-api issues 33/185: `25_PTM_FTV`); on with the art mode unknown
    /// (the art channel not open yet), `art_mode` left out and `power` as read.
    static func merge(_ snapshot: TVSnapshot, artMode: Bool?, frameTV: Bool) -> TVSnapshot {
        guard frameTV else { return snapshot }
        var merged = snapshot
        let artInStandby = artMode == true && readsStandby(snapshot)
        guard snapshot.power == true || artInStandby else {
            merged.artMode = false
            return merged
        }
        guard let artMode else { return merged }
        merged.artMode = artMode
        if artMode {
            merged.power = false
            merged.powerMode = "art"
        }
        return merged
    }

    /// The TV answers REST and says `standby` (not unreachable, not our power-off grace).
    static func readsStandby(_ snapshot: TVSnapshot) -> Bool {
        snapshot.reachable && snapshot.power == false
            && snapshot.powerMode == SamsungDeviceInfo.PowerState.standby.rawValue
    }
}

extension SamsungDriver {
    /// How long a command waits for the art channel to open and the TV to confirm a switch.
    var artTimeout: Duration { settings.requestTimeout * 2 }

    /// Whether the TV is a Frame: the last REST reading, else the capabilities remembered.
    var isFrameTV: Bool {
        state.withLock { $0.info?.frameTV ?? $0.description.capabilities.artMode }
    }

    /// The poll's last step: keeps the art channel open while a Frame answers (closed when it
    /// does not), and merges the art mode into the snapshot.
    func mergeArt(into snapshot: TVSnapshot) async -> TVSnapshot {
        let frameTV = isFrameTV
        guard frameTV, snapshot.reachable, let credentials = await channel.artCredentials else {
            art.remember(snapshot, frameTV: frameTV, artMode: nil)
            await art.channel.stop()
            return SamsungArt.merge(snapshot, artMode: nil, frameTV: frameTV)
        }
        await art.channel.keepConnected(credentials, model: modelDescription)
        await art.channel.refresh()
        let artMode = await art.channel.artMode
        art.remember(snapshot, frameTV: frameTV, artMode: artMode)
        return SamsungArt.merge(snapshot, artMode: artMode, frameTV: frameTV)
    }

    /// `art_mode` ON/OFF. OFF on a TV that is off does nothing (it is not showing art, and
    /// an OFF never turns a TV on); ON on a TV that is off turns it on first, then shows art.
    func setArtMode(_ on: Bool) async throws(DriverError) {
        if await !isShowingPicture() {
            guard on else {
                logger.debug("art mode OFF: the TV is off; nothing sent")
                return
            }
            try await power(.on)
            guard await waitUntilShowingPicture() else {
                throw DriverError(.timeout, "the TV did not turn on, so art mode could not be switched on")
            }
        }
        try await pairIfNeeded()
        try await art.channel.set(on, timeout: artTimeout)
    }

    /// The art channel uses the remote channel's pin and token: a TV never reached yet is
    /// reached (and paired, with its prompt) on the remote channel first, as any command does.
    private func pairIfNeeded() async throws(DriverError) {
        guard await channel.artCredentials == nil else { return }
        try await channel.send([])
        guard let credentials = await channel.artCredentials else {
            throw DriverError(
                .unauthorized, "the TV's certificate is not pinned, so the art channel cannot be opened")
        }
        await art.channel.keepConnected(credentials, now: true)
    }

    /// Power, with the Frame's art mode in mind: ON (and TOGGLE, since `power` reads OFF in
    /// art mode) on a TV showing art switches art mode off, which shows TV; everything else
    /// is the ordinary power logic (OFF is the 3 s KEY_POWER hold: standby, from TV or art).
    func powerConsideringArt(_ action: PowerAction) async throws(DriverError) {
        if action != .off, isFrameTV, await isShowingPicture(), await currentArtMode() == true {
            try await art.channel.set(false, timeout: artTimeout)
            return
        }
        try await power(action)
    }

    /// The art mode now, opening the art channel when needed; nil when it cannot be known.
    func currentArtMode() async -> Bool? {
        guard let credentials = await channel.artCredentials else { return nil }
        await art.channel.keepConnected(credentials, now: true)
        return await art.channel.current(timeout: artTimeout)
    }

    /// The screen is on (art or TV: REST says `on`, or `standby` while the art channel says
    /// art) and we are not powering it off; opens the art channel for a command that will need it.
    private func isShowingPicture() async -> Bool {
        guard let info = try? await http.deviceInfo() else { return false }
        let on =
            await readsOn(info) && !state.withLock { $0.grace.isActive(now: LoopClock.current.now) }
        if on, let credentials = await channel.artCredentials {
            await art.channel.keepConnected(credentials, now: true)
        }
        return on
    }

    /// REST says `on`, or says `standby` on a Frame whose open art channel says art shows.
    func readsOn(_ info: SamsungDeviceInfo) async -> Bool {
        switch info.powerState {
        case .on: true
        case .standby: info.frameTV ? await art.channel.showsArt : false
        default: false
        }
    }

    /// "QE55LS03TAUXXU (20_MUSEL_UHD_FRAME)": the model, as the art channel's log names it.
    var modelDescription: String {
        state.withLock { state in
            let identity = state.description.identity
            let name = state.info?.modelName ?? identity.model ?? "unknown model"
            let code = state.info?.modelCode ?? identity.modelID
            return code.map { "\(name) (\($0))" } ?? name
        }
    }

    /// After a power ON: waits for REST to say `on` (the TV boots in a few seconds).
    private func waitUntilShowingPicture() async -> Bool {
        let deadline = LoopClock.current.now + settings.wakeWait + .seconds(15)
        while LoopClock.current.now < deadline {
            if await isShowingPicture() { return true }
            do {
                try await EventLoop.sleep(for: .milliseconds(250))  // paced: asks the TV (silent on booting)
            } catch {
                return false
            }
        }
        return false
    }
}

extension SamsungChannel {
    /// Where and as whom the art channel connects: the remote channel's host, TLS port,
    /// client name and token, and its pin. nil while nothing is pinned (the art channel never
    /// pins a certificate by itself, and never goes in clear) or the certificate changed.
    var artCredentials: SamsungArtChannel.Credentials? {
        if case .certificateChanged = session.state { return nil }
        guard let pin = pinnedCertificate else { return nil }
        let configuration = session.configuration
        return SamsungArtChannel.Credentials(
            host: configuration.host, port: configuration.securePort,
            clientName: configuration.clientName,
            token: configuration.token, pin: pin)
    }
}
