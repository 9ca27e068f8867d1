import TVModel
import Testing

@testable import Bridge

@Suite("Turn-on watch (issue 17)")
struct TurnOnWatchTests {
    let start = ContinuousClock.now

    @Test("ON, TOGGLE and the power_on key are requests only while the TV is not on")
    func requests() {
        var watch = TurnOnWatch(timeout: .seconds(20))
        let r1 = watch.commandsAccepted([.power(.on)], powerIsOn: false, now: start)
        #expect(r1)
        let r2 = watch.commandsAccepted([.power(.toggle)], powerIsOn: false, now: start)
        #expect(r2)
        let r3 = watch.commandsAccepted([.key(.shared(.powerOn), repeat: 1)], powerIsOn: false, now: start)
        #expect(r3)
        let r4 = watch.commandsAccepted([.power(.on)], powerIsOn: true, now: start)
        #expect(!r4)
        let r5 = watch.commandsAccepted([.power(.off)], powerIsOn: false, now: start)
        #expect(!r5)
        let r6 = watch.commandsAccepted([.key(.shared(.home), repeat: 1)], powerIsOn: false, now: start)
        #expect(!r6)
        let r7 = watch.commandsAccepted([.app("Netflix"), .power(.on)], powerIsOn: false, now: start)
        #expect(r7)
    }

    @Test("the watch fails once at the deadline, and a TV that came on ends it")
    func deadline() {
        var watch = TurnOnWatch(timeout: .seconds(20))
        _ = watch.commandsAccepted([.power(.on)], powerIsOn: false, now: start)
        let r8 = watch.expired(now: start + .seconds(19))
        #expect(!r8)
        let r9 = watch.expired(now: start + .seconds(20))
        #expect(r9)
        let r10 = watch.expired(now: start + .seconds(40))
        #expect(!r10)

        _ = watch.commandsAccepted([.power(.on)], powerIsOn: false, now: start)
        watch.observed(powerIsOn: false)
        #expect(watch.deadline != nil)
        watch.observed(powerIsOn: true)
        let r11 = watch.expired(now: start + .seconds(60))
        #expect(!r11)
    }

    @Test("a second ON moves the deadline; wake_timeout 0 fires requests but never fails")
    func movedAndOff() {
        var watch = TurnOnWatch(timeout: .seconds(20))
        _ = watch.commandsAccepted([.power(.on)], powerIsOn: false, now: start)
        _ = watch.commandsAccepted([.power(.on)], powerIsOn: false, now: start + .seconds(10))
        let r12 = watch.expired(now: start + .seconds(25))
        #expect(!r12)
        let r13 = watch.expired(now: start + .seconds(30))
        #expect(r13)

        var off = TurnOnWatch(timeout: nil)
        let r14 = off.commandsAccepted([.power(.on)], powerIsOn: false, now: start)
        #expect(r14)
        #expect(off.deadline == nil)
        let r15 = off.expired(now: start + .seconds(3600))
        #expect(!r15)
    }

    @Test("the failure names Wake-on-LAN and what to check")
    func failureMessage() {
        let unknown = TVAgent.wakeFailure(name: "Den", seconds: 20, macs: [], reachable: false)
        #expect(unknown.contains("no MAC address is known"))
        let known = TVAgent.wakeFailure(name: "Den", seconds: 20, macs: ["02:00:00:00:00:01"], reachable: false)
        for part in ["Wake-on-LAN went to 02:00:00:00:00:01", "wired Ethernet", "Power on by network", "20 s"] {
            #expect(known.contains(part), "\(part)")
        }
    }
}
