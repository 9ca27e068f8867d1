import Drivers
import TVModel
import TestSupport
import Testing

@Suite("Roku power decisions", .cpuBound)
struct RokuPowerDecisionTests {
    @Test(
        "ON, OFF and TOGGLE against every power mode",
        arguments: [
            (
                PowerAction.on, "PowerOn",
                RokuPowerDecision.turnOn(waitForAnswer: false, sendPowerOn: false)
            ),
            (.on, "Ready", .turnOn(waitForAnswer: false, sendPowerOn: true)),
            (.on, "DisplayOff", .turnOn(waitForAnswer: false, sendPowerOn: true)),
            (.on, nil, .turnOn(waitForAnswer: true, sendPowerOn: true)),
            (.off, "PowerOn", .turnOff),
            (.off, "Ready", .nothing),
            (.off, "DisplayOff", .nothing),
            (.off, "Suspend", .nothing),
            (.off, nil, .nothing),
            (.toggle, "PowerOn", .turnOff),
            (.toggle, "Ready", .turnOn(waitForAnswer: false, sendPowerOn: true)),
            (.toggle, "Headless", .turnOn(waitForAnswer: false, sendPowerOn: true)),
            (.toggle, nil, .turnOn(waitForAnswer: true, sendPowerOn: true)),
        ] as [(PowerAction, String?, RokuPowerDecision)])
    func decide(action: PowerAction, mode: String?, expected: RokuPowerDecision) {
        #expect(RokuPowerDecision.decide(action, powerMode: mode) == expected)
    }
}
