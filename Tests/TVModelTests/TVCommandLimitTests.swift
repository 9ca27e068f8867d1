import TVModel
import Testing

/// The limits of a command's values are defined once with `TVCommand`; `limitViolation` says
/// which one a command breaks, naming the property the user wrote.
@Suite("Command limits")
struct TVCommandLimitTests {
    @Test("values at the edges of each range are within it; one past is refused and named")
    func ranges() {
        let lower = TVCommand.repeatRange.lowerBound
        let upper = TVCommand.repeatRange.upperBound
        #expect(TVCommand.key(TVKey("home"), repeat: lower).limitViolation == nil)
        #expect(TVCommand.key(TVKey("home"), repeat: upper).limitViolation == nil)
        #expect(TVCommand.key(TVKey("home"), repeat: upper + 1).limitViolation?.hasPrefix("repeat:") == true)
        #expect(TVCommand.key(TVKey("home"), repeat: lower - 1).limitViolation?.hasPrefix("repeat:") == true)

        #expect(TVCommand.volume(TVCommand.volumeRange.upperBound).limitViolation == nil)
        #expect(TVCommand.volume(TVCommand.volumeRange.upperBound + 1).limitViolation?.hasPrefix("volume:") == true)
        #expect(TVCommand.volume(-1).limitViolation?.hasPrefix("volume:") == true)

        #expect(TVCommand.holdKey(TVKey("up"), milliseconds: TVCommand.holdRange.upperBound).limitViolation == nil)
        let tooLong = TVCommand.holdKey(TVKey("up"), milliseconds: TVCommand.holdRange.upperBound + 1)
        #expect(tooLong.limitViolation?.hasPrefix("hold_ms:") == true)
        #expect(TVCommand.holdKey(TVKey("up"), milliseconds: 0).limitViolation?.hasPrefix("hold_ms:") == true)
    }

    @Test("text: empty and over the keyboard's maximum are refused, counted in characters")
    func text() {
        #expect(TVCommand.text("").limitViolation == "text: empty")
        let most = String(repeating: "é", count: TVCommand.maxTextLength)
        #expect(TVCommand.text(most).limitViolation == nil, "characters, not bytes")
        let over = TVCommand.text(most + "x").limitViolation
        #expect(
            over == "text: \(TVCommand.maxTextLength + 1) characters exceeds the limit of \(TVCommand.maxTextLength)")
    }

    @Test("a search is checked by its own rules: keyword, provider (its type is the TV's planner's)")
    func search() {
        #expect(TVCommand.search(SearchRequest(keyword: "nature", type: "movie")).limitViolation == nil)
        #expect(TVCommand.search(SearchRequest(keyword: "")).limitViolation == "search: empty")
        #expect(TVCommand.search(SearchRequest(keyword: "x", type: "song")).limitViolation == nil)
        let newline = TVCommand.search(SearchRequest(keyword: "a\nb")).limitViolation
        #expect(newline?.contains("control characters") == true)
        // The one control-character rule (Support's), line separators included, as for text.
        let separator = TVCommand.search(SearchRequest(keyword: "a\u{2028}b")).limitViolation
        #expect(separator?.contains("control characters") == true)
        #expect(TVCommand.text("a\u{2028}b").limitViolation?.contains("control characters") == true)
        let provider = String(repeating: "p", count: SearchRequest.maxProviderLength + 1)
        let longProvider = TVCommand.search(SearchRequest(keyword: "x", provider: provider)).limitViolation
        #expect(longProvider?.hasPrefix("search.provider:") == true)
    }

    @Test("commands without a range are never refused here")
    func unbounded() {
        #expect(TVCommand.power(.on).limitViolation == nil)
        #expect(TVCommand.mute(true).limitViolation == nil)
    }
}

@Suite("Keys")
struct TVKeyTests {
    @Test("a shared name is the shared key; anything else is the vendor's own name")
    func sharedFirst() {
        #expect(TVKey("home") == .shared(.home))
        #expect(TVKey("volume_up") == .shared(.volumeUp))
        #expect(TVKey("KEY_VOLUP") == .vendor("KEY_VOLUP"))
        #expect(TVKey("Home") == .vendor("Home"), "shared names are lower case; Roku's Home is its own")
        #expect(TVKey("KEY_VOLUP").description == "KEY_VOLUP")
    }
}
