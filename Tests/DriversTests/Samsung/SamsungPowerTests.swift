import Drivers
import TVModel
import TestSupport
import Testing

typealias SamsungTestPowerState = SamsungDeviceInfo.PowerState

/// Every combination of command × PowerState × reachability × Frame × grace window, with the
/// expected steps and report. `nil` PowerState with reachable: a TV without PowerState.
@Suite("Samsung power decisions", .cpuBound)
struct SamsungPowerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var action: PowerAction
        var state: SamsungTestPowerState?
        var reachable: Bool
        var frame: Bool
        var grace: Bool
        var testDescription: String {
            "\(action.rawValue) state=\(state?.rawValue ?? "none") reachable=\(reachable) frame=\(frame) grace=\(grace)"
        }
    }

    static let all: [Case] = {
        var cases: [Case] = []
        for action in [PowerAction.on, .off, .toggle] {
            for state in [SamsungTestPowerState?.none, .on, .standby, .other("Suspend")] {
                for reachable in [true, false] where reachable || state == nil {
                    for frame in [false, true] {
                        for grace in [false, true] {
                            cases.append(
                                Case(action: action, state: state, reachable: reachable, frame: frame, grace: grace)
                            )
                        }
                    }
                }
            }
        }
        return cases
    }()

    /// The rules, written out independently of the planner.
    static func expected(_ c: Case) -> (steps: [SamsungPowerStep], report: Bool?) {
        let confirmedOn = c.reachable && !c.grace && (c.state == .on || c.state == nil)
        let confirmedStandby = c.reachable && c.state == .standby
        let off = c.action == .off || (c.action == .toggle && confirmedOn)
        if off {
            if c.grace { return ([], false) }
            if !confirmedOn { return ([], c.reachable ? nil : false) }
            return ([c.frame ? .holdPower(.milliseconds(3500)) : .clickPower, .startGraceWindow], false)
        }
        if !c.reachable { return ([.wakeOnLAN, .endGraceWindow], nil) }
        if confirmedStandby { return ([.wakeOnLAN, .clickPower, .endGraceWindow], nil) }
        if c.grace { return ([.wakeOnLAN, .endGraceWindow], nil) }
        if confirmedOn { return ([.wakeOnLAN], true) }
        return ([.wakeOnLAN], nil)
    }

    @Test("every combination", arguments: all)
    func combination(c: Case) {
        let plan = SamsungPowerPlanner.plan(
            c.action,
            context: SamsungPowerContext(
                powerState: c.state, reachable: c.reachable, frameTV: c.frame, recentlyPoweredOff: c.grace))
        let want = Self.expected(c)
        #expect(plan.steps == want.steps)
        #expect(plan.reportedPower == want.report)
        #expect(!plan.reason.isEmpty)
    }

    @Test(
        "the power invariants: OFF never turns on, ON never turns off, no unconfirmed toggle",
        arguments: all)
    func invariants(c: Case) {
        let context = SamsungPowerContext(
            powerState: c.state, reachable: c.reachable, frameTV: c.frame, recentlyPoweredOff: c.grace)
        let plan = SamsungPowerPlanner.plan(c.action, context: context)
        let toggles =
            plan.steps.contains(.clickPower)
            || plan.steps.contains { if case .holdPower = $0 { true } else { false } }
        if toggles { #expect(context.confirmedOn || context.confirmedStandby) }
        if c.action == .off { #expect(!plan.steps.contains(.wakeOnLAN)) }
        if c.action == .off && toggles { #expect(context.confirmedOn) }
        if c.action == .on && toggles { #expect(context.confirmedStandby) }
    }

    @Test("KEY_POWER steps on the remote channel")
    func remoteSteps() {
        #expect(
            SamsungPowerPlanner.remoteSteps(for: .clickPower) == [.message(.key("KEY_POWER", .click))])
        #expect(SamsungPowerPlanner.remoteSteps(for: .wakeOnLAN) == nil)
        #expect(SamsungPowerPlanner.frameHold == .milliseconds(3500))
    }

    @Test("the grace window reports OFF while REST still says on, and ends when the truth catches up")
    func grace() throws {
        let t0 = ContinuousClock.now
        let on = SamsungDeviceInfo(powerState: .on)
        let standby = SamsungDeviceInfo(powerState: .standby)
        var grace = SamsungPowerGrace()
        #expect(grace.window == .seconds(15))
        #expect(grace.reading(for: on, now: t0) == SamsungPowerReading(power: true, powerMode: "on"))
        grace.start(now: t0)
        #expect(grace.isActive(now: t0 + .seconds(14)))
        #expect(
            grace.reading(for: on, now: t0 + .seconds(5))
                == SamsungPowerReading(power: false, powerMode: "on"))
        #expect(
            grace.reading(for: on, now: t0 + .seconds(15))
                == SamsungPowerReading(power: true, powerMode: "on"), "window over")
        #expect(!grace.isActive(now: t0 + .seconds(1)))

        grace.start(now: t0)
        #expect(grace.reading(for: standby, now: t0 + .seconds(2)).power == false)
        #expect(grace.until == nil, "standby ends the window early")
        grace.start(now: t0)
        #expect(
            grace.reading(for: nil, now: t0 + .seconds(2))
                == SamsungPowerReading(power: false, powerMode: "unreachable"))
        #expect(grace.until == nil)
        grace.start(now: t0)
        grace.end()
        #expect(grace.reading(for: on, now: t0 + .seconds(1)).power)
        let old = SamsungDeviceInfo()
        grace.start(now: t0)
        #expect(
            grace.reading(for: old, now: t0 + .seconds(1))
                == SamsungPowerReading(power: false, powerMode: nil),
            "no PowerState: reachable still reads OFF in the window")
    }
}
