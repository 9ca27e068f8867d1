import Net
import TVModel

/// "Control by mobile apps" beyond the Limited-mode body: Roku OS 15.2.4 refuses plain-HTTP
/// keypresses with a bare 403 under Enabled (device-info and launch keep working) until the
/// setting is Permissive. Such a command goes once more over ECP-2 (the official app's path,
/// which the setting does not restrict); when that cannot be, the failure says which setting
/// to change, and the state says remote control is limited, until the setting changes or a
/// key goes through.
extension RokuDriver {
    /// How long a refused command waits for an ECP-2 session that is being opened.
    static let sessionWaitForRetry = Duration.seconds(5)

    /// `execute`'s answer to a `.forbidden` refusal of `action`.
    func recover(_ action: RokuAction, refused: DriverError) async throws(DriverError) {
        if let session = await sessionForRetry() {
            do {
                try await run(action, session: session)
                logger.debug("HTTP ECP refused it (\(refused.message)); sent over ECP-2")
                return
            } catch {
                logger.debug("ECP-2 refused it too: \(error.message)")
            }
        }
        let mode = await currentECPSettingMode()
        guard RokuECPRefusal.explains403(mode), let mode else { throw refused }
        state.withLock { $0.keysRefusedUnder = mode }
        throw DriverError(.limitedMode, RokuECPRefusal.permissiveMessage(mode: mode))
    }

    /// The session, when `roku.ecp2` allows one: the one up, or one being opened within
    /// `sessionWaitForRetry`; nil at once where the Roku refused ECP-2 (until its retry).
    private func sessionForRetry() async -> RokuECP2Session? {
        guard roku.ecp2 == .auto else { return nil }
        startECP2IfNeeded()
        let deadline = LoopClock.current.now + Self.sessionWaitForRetry
        while true {
            let (session, opening) = state.withLock { ($0.link.session, $0.link.task != nil) }
            if let session { return session }
            let left = deadline - LoopClock.current.now
            guard opening, left > .zero, !Task.isCancelled else { return nil }
            // Woken when the link comes up or gives up: the wait ends at the deadline, not at
            // the first 50 ms tick after it.
            _ = await linkChanged.wait(timeout: left)
        }
    }

    /// Read now (the user may have just changed it), else as last read.
    private func currentECPSettingMode() async -> String? {
        if let info = try? RokuDeviceInfo.parse(try await ecp.query("/query/device-info")) {
            noteSettings(info)
            return info.ecpSettingMode
        }
        return state.withLock { $0.ecpSettingMode }
    }

    /// device-info answered: the setting as it says now. Limited mode as it implies it, and
    /// a refusal of keys forgotten once the setting is another than the one that refused.
    func noteSettings(_ info: RokuDeviceInfo) {
        state.withLock { state in
            state.answered = true
            state.ecpSettingMode = info.ecpSettingMode
            if let limited = RokuECPSettingMode.impliesLimited(info.ecpSettingMode) {
                state.limitedMode = limited
            }
            if let refused = state.keysRefusedUnder, refused != info.ecpSettingMode {
                state.keysRefusedUnder = nil
            }
        }
    }

    /// A key went through over HTTP: whatever refused keys before does not now.
    func noteKeysWork(_ action: RokuAction, session: RokuECP2Session?) {
        guard session == nil else { return }
        switch action {
        case .keypress, .text, .hold: state.withLock { $0.keysRefusedUnder = nil }
        default: return
        }
    }
}

extension RokuDriver.State {
    /// `limited_mode` and its reason: Limited mode proper, else keys refused under a setting.
    func limit(_ snapshot: inout TVSnapshot) {
        snapshot.limitedMode = limitedMode
        snapshot.limitedReason = nil
        if limitedMode == true {
            snapshot.limitedReason = RokuECP.limitedModeMessage
        } else if let keysRefusedUnder {
            snapshot.limitedMode = true
            snapshot.limitedReason = RokuECPRefusal.permissiveMessage(mode: keysRefusedUnder)
        }
    }
}
