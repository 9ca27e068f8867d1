import Glibc
import Harness
import Support
import Testing

/// The README's pictures of the status page, taken by `examples/screenshots/take.sh`, which
/// sets `TV2MQTT_SCREENSHOTS` to the directory they go to; without it this is skipped.
/// Where `take.sh` wants the pictures (`TV2MQTT_SCREENSHOTS`), or nil.
let screenshotDirectory = ProcessEnvironment.current()["TV2MQTT_SCREENSHOTS"]

@Suite(
    "status page screenshots",
    .enabled(if: screenshotDirectory != nil, "only for examples/screenshots/take.sh"))
struct StatusPageScreenshots {

    @Test("list, one TV, bridge (1200 px wide) and one TV at phone width")
    func take() async throws {
        let directory = try #require(screenshotDirectory)
        try await StatusPageBridge.with(discovery: true) { bridge in
            let page = bridge.page
            let both = try await page.waitFor(
                "document.querySelectorAll('#tv-list [data-field=power]').length === 2"
                    + " && document.querySelector('\(StatusPageBrowserTests.card(bridge.rokuID)) [data-field=power]')"
                    + "?.textContent.startsWith('ON')", timeout: .seconds(20))
            try #require(both)
            // Something in the log and the events: a key from the page, the Samsung paired.
            try await page.navigate(bridge.url + "#tv/\(bridge.samsungID)")
            try await page.click("#pair")
            _ = await bridge.log.waitFor(timeout: .seconds(30)) { $0["kind"] == "pairing" }
            try await page.navigate(bridge.url + "#tv/\(bridge.rokuID)")
            _ = try await page.waitFor("document.querySelector('#tv-facts [data-field=app]')", timeout: .seconds(30))
            try await page.click("#remote button[data-key=home]")
            _ = await bridge.log.waitFor(timeout: .seconds(30)) { $0["kind"] == "keypress" }
            try await Task.sleep(for: .seconds(1))

            for (name, view, width) in [
                ("list", "#", 1200), ("tv", "#tv/\(bridge.rokuID)", 1200), ("bridge", "#bridge", 1200),
                ("phone", "#tv/\(bridge.rokuID)", 375),
            ] {
                try await page.resize(width: width, height: width < 600 ? 800 : 900)
                try await page.navigate(bridge.url + view)
                _ = try await page.evaluate("notice(''); true")
                try await Task.sleep(for: .milliseconds(500))
                let png = try await page.screenshot()
                try Self.write(png, to: "\(directory)/status-\(name).png")
            }
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw DevToolsConnection.Failure(description: "cannot write \(path)") }
        defer { Glibc.close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw DevToolsConnection.Failure(description: "short write to \(path)") }
    }
}
