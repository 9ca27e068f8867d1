import Glibc
import Harness
import Synchronization
import Testing
import Wire

/// Debian's `chromium`, headless, driven over the Chrome DevTools Protocol through the project's
/// own WebSocket client. One browser serves every test of the process (`shared()`): each test
/// opens a tab of its own (`openPage`), so tests may run side by side.
final class HeadlessChromium: Sendable {
    let process: ChildProcess
    let profile: TemporaryDirectory
    let devTools: DevToolsConnection

    /// The executable, or nil when none is installed (`Tests/install-deps.sh` installs it).
    static let executable: String? = ["chromium", "chromium-browser"].lazy.compactMap(ExecutableLookup.resolve).first

    /// Why the browser tests cannot run here, or nil when they can. In CI (`CI=true`) a missing
    /// browser fails the tests instead of skipping them.
    static var missing: String? {
        executable == nil ? "chromium is not installed (Tests/install-deps.sh installs Debian's chromium)" : nil
    }
    static var isCI: Bool { getenv("CI").map { String(cString: $0) == "true" } ?? false }

    private init(process: ChildProcess, profile: TemporaryDirectory, devTools: DevToolsConnection) {
        self.process = process
        self.profile = profile
        self.devTools = devTools
    }

    private static let started = Task<HeadlessChromium, any Error> { try await start() }

    /// The shared browser's process group and profile, for `removeProfileAtExit`.
    private static let atExit = Mutex<(pid: pid_t, profile: TemporaryDirectory)?>(nil)

    /// At the test process's exit: end the browser, then remove its profile (a few megabytes
    /// in /tmp per run otherwise). Runs before `ChildRegistry`'s own handler, registered earlier.
    private static func removeProfileAtExit() {
        guard let (pid, profile) = atExit.withLock({ $0 }) else { return }
        Glibc.kill(-pid, SIGKILL)
        usleep(200_000)  // its processes close their files
        profile.remove()
    }

    /// The process's one browser, started on first use; it ends with the test process
    /// (`ChildRegistry` kills children still running at exit).
    static func shared() async throws -> HeadlessChromium {
        if let missing { throw DevToolsConnection.Failure(description: missing) }
        return try await started.value
    }

    static func start() async throws -> HeadlessChromium {
        let profile = try TemporaryDirectory(prefix: "chromium")
        // SIGTERM reaches it: ChildProcess starts children with an empty signal mask (see
        // ARCHITECTURE.md on Foundation.Process); `--no-sandbox` because tests may run as root.
        let process = try await ChildProcess.spawn(
            executable ?? "chromium",
            [
                "--headless=new", "--no-sandbox", "--remote-debugging-port=0", "--user-data-dir=\(profile.path)",
                "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--mute-audio", "--window-size=1200,900", "about:blank",
            ], stdout: .discard, stderr: .capture)
        // Chromium writes "PORT\n/devtools/browser/ID" once it listens.
        let portFile = profile.file("DevToolsActivePort")
        var endpoint: String?
        let ready = await waitUntil(timeout: .seconds(30), interval: .milliseconds(50)) {
            let lines = FileText.read(portFile)?.split(separator: "\n") ?? []
            guard lines.count >= 2, let port = UInt16(lines[0]) else { return !process.isRunning }
            endpoint = "ws://127.0.0.1:\(port)\(lines[1])"
            return true
        }
        guard ready, let endpoint else {
            await process.terminate(grace: .seconds(2))
            defer { profile.remove() }
            throw DevToolsConnection.Failure(
                description: "chromium did not start within 30 s; stderr: \(process.capturedError().suffix(2000))")
        }
        let devTools = try await DevToolsConnection.connect(endpoint)
        atExit.withLock { $0 = (process.pid, profile) }
        atexit { HeadlessChromium.removeProfileAtExit() }
        return HeadlessChromium(process: process, profile: profile, devTools: devTools)
    }

    /// A new tab at `url`, `width` × `height` CSS pixels, in the light colour scheme.
    func openPage(_ url: String, width: Int = 1200, height: Int = 900) async throws -> BrowserPage {
        let target = try await devTools.call("Target.createTarget", ["url": "about:blank"])
        let targetID = try #require(target["targetId"]?.stringValue, "\(target)")
        let attached = try await devTools.call(
            "Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
        let session = try #require(attached["sessionId"]?.stringValue, "\(attached)")
        let page = BrowserPage(devTools: devTools, session: session, targetID: targetID)
        try await page.resize(width: width, height: height)
        try await page.call(
            "Emulation.setEmulatedMedia",
            ["features": [["name": "prefers-color-scheme", "value": "light"]]])
        try await page.navigate(url)
        return page
    }
}
