import Harness
import Wire

/// One tab of `HeadlessChromium`: navigate, run JavaScript in the page, wait for what it shows,
/// take a screenshot.
struct BrowserPage: Sendable {
    let devTools: DevToolsConnection
    let session: String
    let targetID: String

    @discardableResult
    func call(_ method: String, _ params: JSONValue = [:]) async throws -> JSONValue {
        try await devTools.call(method, params, session: session)
    }

    func navigate(_ url: String) async throws {
        try await call("Page.navigate", ["url": .string(url)])
        let loaded = try await waitFor("document.readyState === 'complete'", timeout: .seconds(30))
        if !loaded { throw DevToolsConnection.Failure(description: "\(url) did not load within 15 s") }
    }

    func resize(width: Int, height: Int) async throws {
        try await call(
            "Emulation.setDeviceMetricsOverride",
            [
                "width": .integer(Int64(width)), "height": .integer(Int64(height)), "deviceScaleFactor": 1,
                "mobile": .bool(width < 600),
            ])
    }

    /// The value of `expression` (awaited if it is a promise), as JSON.
    func evaluate(_ expression: String) async throws -> JSONValue {
        let result = try await call(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] {
            throw DevToolsConnection.Failure(description: "\(expression): \(exception.serialized())")
        }
        return result["result"]?["value"] ?? .null
    }

    /// `expression` as text ("" when it is null or not a string).
    func text(_ expression: String) async throws -> String {
        try await evaluate(expression).stringValue ?? ""
    }

    /// Waits until `expression` is true in the page; false after `timeout`.
    func waitFor(_ expression: String, timeout: Duration = .seconds(30)) async throws -> Bool {
        try await waitUntil(timeout: timeout, interval: .milliseconds(25)) {
            try await evaluate("Boolean(\(expression))").boolValue == true
        }
    }

    /// Clicks the element `selector` names, as the user would (it must exist and be shown).
    func click(_ selector: String) async throws {
        let found = try await evaluate(
            """
            (() => { const node = document.querySelector(\(JSONValue.string(selector).serialized()));
              if (!node || node.offsetParent === null) return false; node.click(); return true; })()
            """)
        if found != true { throw DevToolsConnection.Failure(description: "no visible \(selector) to click") }
    }

    /// A PNG of the whole page (beyond the window when it is longer).
    func screenshot() async throws -> [UInt8] {
        let shot = try await call("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": true])
        guard let data = shot["data"]?.stringValue else {
            throw DevToolsConnection.Failure(description: "no screenshot data")
        }
        return try Base64.decode(data)
    }

    func close() async {
        _ = try? await devTools.call("Target.closeTarget", ["targetId": .string(targetID)])
    }
}
