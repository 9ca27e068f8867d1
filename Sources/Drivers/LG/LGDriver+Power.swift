import Net
import TVModel

extension LGDriver {
    /// Idempotent power from the power state last read or pushed: Screen Off is on
    /// with the screen off (ON turns the screen back on); Active Standby, Suspend and an
    /// unreachable TV are off (ON sends Wake-on-LAN to every MAC the TV reported; the bridge's
    /// turn-on watch reports a TV that does not come).
    func power(_ action: PowerAction) async throws(DriverError) {
        let (power, mode) = state.withLock { ($0.snapshot.power, $0.snapshot.powerMode) }
        let connected = await connection.isConnected
        let isOn = power == true && connected
        let wanted = action == .toggle ? !isOn : action == .on
        if wanted {
            if isOn, mode == "Screen Off" {
                _ = try await connection.request(LGURI.turnOnScreen)
            } else if !isOn {
                await wake()
            }
        } else if isOn {
            _ = try await connection.request(LGURI.turnOff)
            state.withLock {
                $0.snapshot.power = false
                $0.snapshot.powerMode = "Power Off"
            }
        }
    }

    func wake() async {
        let macs = state.withLock { $0.description.identity.macs }
        await DriverWake.send(to: macs, settings: settings, logger: logger)
        await connection.retrySoon()
    }
}
