import Bridge
import ConfigurationLoading
import Drivers
import TestSupport
import Testing
import Wire

@Suite("samsung.events, samsung.event_port, samsung.event_callback_host")
struct SamsungEventsConfigurationTests {
    @Test("defaults: events on, port 8058, the callback address found per TV")
    func defaults() throws {
        let config = try loadConfig()
        #expect(config.vendorSettings[SamsungSettings.self].events)
        #expect(config.vendorSettings[SamsungSettings.self].eventPort == 8058)
        #expect(config.vendorSettings[SamsungSettings.self].eventCallbackHost == nil)
        let effective = config.effectiveJSON(vendors: .shipped)["samsung"]
        #expect(effective?["event_port"]?.intValue == 8058)
        #expect(effective?["events"]?.boolValue == true)
    }

    @Test("set in the file; 0 is any free port")
    func fromFile() throws {
        let config = try loadConfig(
            file: #"{"samsung": {"events": false, "event_port": 0, "event_callback_host": "198.51.100.5"}}"#)
        #expect(!config.vendorSettings[SamsungSettings.self].events)
        #expect(config.vendorSettings[SamsungSettings.self].eventPort == 0)
        #expect(config.vendorSettings[SamsungSettings.self].eventCallbackHost == "198.51.100.5")
    }

    @Test("a port out of range, a fraction, or a callback host that is no address is refused, naming the key")
    func refused() {
        let cases = [
            (#"{"samsung": {"event_port": 70000}}"#, "samsung.event_port"),
            (#"{"samsung": {"event_port": 80.5}}"#, "samsung.event_port"),
            (#"{"samsung": {"event_callback_host": "not an address!"}}"#, "samsung.event_callback_host"),
            (#"{"samsung": {"events": [true]}}"#, "samsung.events"),
        ]
        for (file, key) in cases {
            var message = ""
            do {
                _ = try loadConfig(file: file)
            } catch {
                message = "\(error)"
            }
            #expect(message.contains(key), "\(file): \(message)")
        }
    }
}
