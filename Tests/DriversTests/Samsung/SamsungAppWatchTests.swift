import Drivers
import TestSupport
import Testing

@Suite("Samsung current app: the watch and the REST status", .cpuBound)
struct SamsungAppWatchTests {
    static let known = ["a", "b", "c", "d", "e"]

    @Test("with nothing in front the scan covers every known app in ⌈N/2⌉ polls of 2 requests")
    func scanCoversAll() {
        var watch = SamsungAppWatch()
        var asked: [String] = []
        let polls = (Self.known.count + 1) / 2
        for _ in 0..<polls {
            var thisPoll: Set<String> = []
            for _ in 0..<SamsungAppWatch.requestsPerPoll {
                guard let next = watch.nextScan(known: Self.known, asked: thisPoll) else { break }
                thisPoll.insert(next)
                asked.append(next)
            }
        }
        #expect(Set(asked) == Set(Self.known))
    }

    @Test("an app of the scan that is not in front leaves the scan where it was")
    func scanAdvances() {
        var watch = SamsungAppWatch()
        let first = watch.nextScan(known: Self.known, asked: [])
        watch.notInFront(first ?? "")
        let second = watch.nextScan(known: Self.known, asked: [])
        #expect(first == "a" && second == "b")
    }

    @Test("recently seen apps are scanned first once the candidate leaves")
    func recentFirst() {
        var watch = SamsungAppWatch()
        watch.seen("d")
        watch.seen("b")
        #expect(watch.candidate == "b")
        #expect(watch.recent == ["b", "d"])
        watch.notInFront("b")
        #expect(watch.candidate == nil)
        let first = watch.nextScan(known: Self.known, asked: ["b"])
        #expect(first == "d")
        #expect(watch.scanOrder(known: Self.known) == ["b", "d", "a", "c", "e"])
    }

    @Test("a launch makes the candidate; power off drops it but keeps it first in the scan")
    func launchAndPowerOff() {
        var watch = SamsungAppWatch()
        watch.launched("c")
        #expect(watch.candidate == "c")
        watch.poweredOff()
        #expect(watch.candidate == nil)
        let first = watch.nextScan(known: Self.known, asked: [])
        #expect(first == "c")
    }

    @Test("an app answering 404 is never asked again, until the bridge launches it")
    func unanswerable() {
        var watch = SamsungAppWatch()
        watch.unanswerable("a")
        #expect(!watch.scanOrder(known: Self.known).contains("a"))
        watch.launched("a")
        #expect(watch.scanOrder(known: Self.known).first == "a")
    }

    @Test("the recent list is bounded; nothing known means nothing to scan")
    func bounded() {
        var watch = SamsungAppWatch()
        for id in Self.known { watch.seen(id) }
        #expect(watch.recent.count == SamsungAppWatch.recentLimit)
        let none = watch.nextScan(known: [], asked: [])
        #expect(none == nil)
        let onlyAsked = watch.nextScan(known: ["a"], asked: ["a"])
        #expect(onlyAsked == nil)
    }

    @Test("the REST status: real and string booleans; missing ones are false")
    func status() throws {
        let real = try SamsungAppStatus.parse(
            Array(#"{"id":"11","name":"Netflix","running":true,"version":"1","visible":true}"#.utf8))
        #expect(real == SamsungAppStatus(id: "11", name: "Netflix", running: true, visible: true))
        #expect(real.inFront)
        let strings = try SamsungAppStatus.parse(Array(#"{"id":"11","running":"true","visible":"false"}"#.utf8))
        #expect(strings.running && !strings.visible && !strings.inFront)
        let bare = try SamsungAppStatus.parse(Array(#"{"id":"11"}"#.utf8))
        #expect(!bare.inFront)
        #expect(throws: DriverError.self) { try SamsungAppStatus.parse(Array("[1]".utf8)) }
        #expect(throws: DriverError.self) { try SamsungAppStatus.parse(Array("nope".utf8)) }
    }
}
