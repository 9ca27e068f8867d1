import Drivers
import Testing
import Wire

/// The vendors' configuration values as the bridge holds them, without naming a vendor.
@Suite("Vendor settings bag")
struct VendorSettingsBagTests {
    @Test("a settings type never set reads as its defaults; set, it reads back and changes equality")
    func defaultsAndEquality() {
        var bag = VendorSettingsBag()
        #expect(bag[SamsungSettings.self] == SamsungSettings())
        #expect(!bag.contains(SamsungSettings.self))
        bag[SamsungSettings.self].clientName = "den"
        #expect(bag[SamsungSettings.self].clientName == "den")
        #expect(bag != VendorSettingsBag())
    }

    @Test("for one command and out, Samsung's event subscriptions are off, whether its section was read or not")
    func oneCommand() {
        let unread = VendorSettingsBag().forOneCommand(of: [.samsung])
        var read = VendorSettingsBag()
        read[SamsungSettings.self].eventPort = 0
        #expect(!unread[SamsungSettings.self].events)
        #expect(!read.forOneCommand(of: [.samsung])[SamsungSettings.self].events)
        #expect(read.forOneCommand(of: [.samsung])[SamsungSettings.self].eventPort == 0)
    }
}
