import Testing

@testable import Bridge

/// The `limited_mode` event of a TV says the same words at most once an hour.
@Suite struct LimitedNoticeTests {
    @Test("the same words once an hour, also when other words came between; other words at once")
    func onceAnHour() {
        var notice = LimitedNotice()
        let start = ContinuousClock.now
        let first = notice.shouldSay("choose Permissive", at: start)
        let other = notice.shouldSay("choose Enabled", at: start + .seconds(60))
        let again = notice.shouldSay("choose Permissive", at: start + .seconds(120))
        let stillQuiet = notice.shouldSay("choose Permissive", at: start + .seconds(3599))
        let hourLater = notice.shouldSay("choose Permissive", at: start + .seconds(3600))
        #expect(first && other && !again && !stillQuiet && hourLater)
    }
}
