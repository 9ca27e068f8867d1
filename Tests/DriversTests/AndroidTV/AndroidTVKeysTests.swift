import TVModel
import Testing

@testable import Drivers

@Suite("Android TV keys: the shared vocabulary and Android's names")
struct AndroidTVKeysTests {
    @Test("every shared key has an Android key code or the power logic")
    func everySharedKey() throws {
        for key in SharedKey.allCases {
            #expect(AndroidTVKeys.shared[key] != nil, "\(key.rawValue)")
        }
        #expect(try AndroidTVKeys.code(for: .shared(.mute)) == .code(164), "the speaker, not the microphone (91)")
        #expect(try AndroidTVKeys.code(for: .shared(.powerOff)) == .power(.off))
        #expect(try AndroidTVKeys.code(for: .shared(.inputHDMI2)) == .code(244))
    }

    @Test("Android's own names, with or without KEYCODE_, in any case; an unknown one is refused by name")
    func vendorNames() throws {
        #expect(try AndroidTVKeys.code(for: TVKey("KEYCODE_PROG_RED")) == .code(183))
        #expect(try AndroidTVKeys.code(for: TVKey("guide")) == .code(172))
        #expect(try AndroidTVKeys.code(for: TVKey("7")) == .code(14))
        #expect(throws: CommandRejection.self) { try AndroidTVKeys.code(for: TVKey("KEYCODE_TELEPORT")) }
        do {
            _ = try AndroidTVKeys.code(for: TVKey("TELEPORT"))
        } catch {
            #expect(error.message.contains("unknown Android TV key 'TELEPORT'"))
        }
    }
}
