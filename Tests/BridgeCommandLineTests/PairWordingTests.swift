import Testing

@testable import BridgeCommandLine

/// The help names the TVs that pair with the article their names take ("an LG TV").
@Suite("pair: the TVs' names in the help")
struct PairWordingTests {
    @Test(
        "the article follows the sound of the first word",
        arguments: [
            ("Samsung TV", "a Samsung TV"), ("LG TV", "an LG TV"), ("LG or Samsung TV", "an LG or Samsung TV"),
            ("TCL TV", "a TCL TV"), ("Hisense TV", "a Hisense TV"), ("Onkyo TV", "an Onkyo TV"),
        ])
    func article(phrase: String, expected: String) {
        #expect(PairCommand.withArticle(phrase) == expected)
    }
}
