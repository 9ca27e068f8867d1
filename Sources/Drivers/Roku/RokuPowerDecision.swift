import TVModel

/// What power ON, OFF and TOGGLE do given the Roku's `power-mode` (nil: it did not answer).
///
/// OFF never turns a TV on and ON never turns it off; the `Power` toggle key is never
/// sent. ON always sends Wake-on-LAN (a TV in deep sleep answers nothing else) and then
/// `PowerOn` unless the TV already says `PowerOn`; a TV that did not answer yet is waited for
/// briefly. OFF sends `PowerOff` only to a TV that says `PowerOn`: standby, display-off and
/// an unreachable TV are already off, and nothing is sent (no Wake-on-LAN, ever).
public enum RokuPowerDecision: Equatable, Sendable {
    /// Wake-on-LAN, then `PowerOn` once the TV answers and is not on (`waitForAnswer`: it
    /// did not answer yet).
    case turnOn(waitForAnswer: Bool, sendPowerOn: Bool)
    /// `PowerOff`.
    case turnOff
    /// Already in the requested state.
    case nothing

    public static func decide(_ action: PowerAction, powerMode: String?) -> RokuPowerDecision {
        let isOn = powerMode == "PowerOn"
        switch action {
        case .on:
            return .turnOn(waitForAnswer: powerMode == nil, sendPowerOn: !isOn)
        case .off:
            return isOn ? .turnOff : .nothing
        case .toggle:
            return decide(isOn ? .off : .on, powerMode: powerMode)
        }
    }
}
