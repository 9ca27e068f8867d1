import Clients
import Harness
import Net
import Support
import Synchronization
import TVSimulators
import TestSupport
import Wire

/// `tv2mqtt run` with its status page on, a real mosquitto, a simulated Roku and a simulated
/// Samsung (in this process, so the test sees what reached them), and a tab of the shared
/// headless Chromium open on the page.
struct StatusPageBridge {
    let broker: MosquittoBroker
    let bridge: ChildProcess
    let roku: RokuSimulator
    let samsung: SamsungSimulator
    let log: CommandLog
    let port: UInt16
    let page: BrowserPage
    let rokuID: String
    let samsungID: String
    /// How the bridge was started, to start it again (`startBridgeAgain`).
    let arguments: [String]
    let environment: [String: String]
    /// The page's address: the bridge's own, or under the ingress path through `ingress`.
    let url: String
    /// With `ingress`: the gateway the browser and `request` go through (`port` is its port).
    let ingress: IngressProxy?

    /// Each fixture's TVs get addresses of their own, so tests can run side by side.
    private static let nextHost = Mutex(10)

    /// Runs `body` with everything started, and stops it all afterwards, whether `body` fails or not.
    /// With `discovery`, the bridge also searches for the TVs with SSDP on loopback's broadcast
    /// address, on a UDP port this fixture holds so no other test shares it.
    /// With `ingress`, the bridge serves only `IngressProxy.gatewayAddress` (`http.allow_from`)
    /// and the browser opens the page through the proxy, under `/api/hassio_ingress/<token>`.
    static func with(
        token: String? = nil, discovery: Bool = false, ingress: Bool = false,
        _ body: (StatusPageBridge) async throws -> Void
    ) async throws {
        // Busy (a bridge, a broker, two TVs and a browser tab): wait out the suite's first seconds.
        await afterStartupBurst()
        let ssdp = discovery ? try UDPSocket.bind(host: "127.0.0.1", port: 0, reuse: true) : nil
        defer { ssdp?.close() }
        let ssdpPort = ssdp?.localAddress.port
        let browser = try await HeadlessChromium.shared()
        let octet = nextHost.withLock { value in
            value += 2
            return value
        }
        try await withMosquitto { broker in
            let log = CommandLog.memory()
            var rokuOptions = RokuSimulatorOptions()
            rokuOptions.host = "127.0.27.\(octet)"
            rokuOptions.port = 0
            rokuOptions.name = "Living Room TV"
            rokuOptions.ssdpPort = ssdpPort
            rokuOptions.ssdpAnswerWindow = .milliseconds(100)
            let roku = try await RokuSimulator.start(rokuOptions, log: log)
            var samsungOptions = SamsungSimulatorOptions(
                host: "127.0.27.\(octet + 1)", portWS: 0, portWSS: 0, portUPnP: 0, name: "Bedroom TV", pairing: .accept,
                ssdpPort: ssdpPort)
            samsungOptions.ssdpAnswerWindow = .milliseconds(100)
            let samsung = try await SamsungSimulator.start(samsungOptions, log: log)
            let directory = try TemporaryDirectory(prefix: "status-page")
            defer { directory.remove() }
            var bridge: ChildProcess?
            var proxy: IngressProxy?
            defer { proxy?.stop() }
            do {
                let config = directory.file("config.json")
                try FileText.write(
                    """
                    {"tvs": [{"host": "\(roku.host)", "kind": "roku", "port": \(roku.port)},
                             {"host": "\(samsung.host)", "kind": "samsung", "port": \(samsung.portWS),
                              "port_wss": \(samsung.portWSS), "port_upnp": \(samsung.portUPnP)}]}
                    """, to: config)
                let port = try FreePort.tcp()
                var environment = ProcessEnvironment.current()
                environment["TV2MQTT_HTTP_TOKEN"] = token
                if ingress { environment["TV2MQTT_HTTP_ALLOW_FROM"] = IngressProxy.gatewayAddress }
                let arguments =
                    [
                        "run", "--config", config, "--mqtt-server", broker.url, "--state-dir", directory.file("state"),
                        "--poll-interval", "1", "--wol-target", "127.0.0.1:9", "--http-listen", "127.0.0.1:\(port)",
                        "--add-tv-allow-loopback",
                    ] + (ssdpPort.map { ["--ssdp-address", "127.255.255.255:\($0)"] } ?? ["--no-ssdp"]) + ["--no-mdns"]
                let process = try await spawnBridge(arguments, environment)
                bridge = process
                if ingress { proxy = try IngressProxy.start(toBridgePort: port) }
                let pagePort = proxy?.port ?? port
                try await waitForPage(port: pagePort, bridge: process)
                // Through ingress, opened without the trailing slash: the page's <base> must carry it.
                let opened = proxy.map { "http://127.0.0.1:\($0.port)\($0.path)" } ?? "http://127.0.0.1:\(port)/"
                let page = try await browser.openPage(opened)
                let fixture = StatusPageBridge(
                    broker: broker, bridge: process, roku: roku, samsung: samsung, log: log, port: pagePort, page: page,
                    rokuID: "roku_" + roku.serial.lowercased(), samsungID: "", arguments: arguments,
                    environment: environment, url: proxy == nil ? opened : opened + "/", ingress: proxy)
                do {
                    try await body(fixture.withSamsungID(token: token))
                } catch {
                    await page.close()
                    throw error
                }
                await page.close()
            } catch {
                print("tv2mqtt stderr:\n\(bridge?.capturedError().suffix(6000) ?? "")")
                await stop(bridge, roku, samsung)
                throw error
            }
            await stop(bridge, roku, samsung)
        }
    }

    static func spawnBridge(_ arguments: [String], _ environment: [String: String]) async throws -> ChildProcess {
        try await ChildProcess.spawn(
            BuiltProducts.path("tv2mqtt"), arguments, environment: environment, stdout: .discard, stderr: .capture)
    }

    /// A second `tv2mqtt run` like the first (same port, state directory and TVs), once the first
    /// has ended: a bridge restart as an open page sees it. The caller stops it.
    func startBridgeAgain() async throws -> ChildProcess {
        let process = try await Self.spawnBridge(arguments, environment)
        try await Self.waitForPage(port: port, bridge: process)
        return process
    }

    /// Waits until the bridge answers `GET /` (any status: with a token, the page itself is open).
    static func waitForPage(port: UInt16, bridge: ChildProcess) async throws {
        let client = HTTPClient(host: "127.0.0.1", port: port, requestTimeout: .seconds(2))
        let answered = await waitUntil(timeout: .seconds(30), interval: .milliseconds(100)) {
            if !bridge.isRunning { return true }
            return (try? await client.request("GET", "/")) != nil
        }
        await client.closeIdle()
        if !answered || !bridge.isRunning {
            throw DevToolsConnection.Failure(
                description: "the status page did not answer on port \(port); stderr: \(bridge.capturedError())")
        }
    }

    /// The Samsung's id as the bridge named it, read from api/state.
    func withSamsungID(token: String?) async throws -> StatusPageBridge {
        var headers = HTTPHeaders()
        if let token { headers.set(name: "Authorization", value: "Bearer \(token)") }
        var id: String?
        let host = samsung.host
        let found = await waitUntil(timeout: .seconds(30), interval: .milliseconds(100)) {
            guard let state = try? await request("GET", "/api/state", headers: headers),
                let tvs = (try? JSONParser.parse(state.body, limits: JSONLimits(maxDepth: 64, maxBytes: 4 << 20)))?[
                    "tvs"]?.arrayValue
            else { return false }
            id = tvs.first { ($0["address"]?.stringValue ?? "").hasPrefix(host) }?["id"]?.stringValue
            return id != nil
        }
        guard found, let id else {
            throw DevToolsConnection.Failure(description: "api/state never listed the Samsung at \(host)")
        }
        return StatusPageBridge(
            broker: broker, bridge: bridge, roku: roku, samsung: samsung, log: log, port: port, page: page,
            rokuID: rokuID, samsungID: id, arguments: arguments, environment: environment, url: url, ingress: ingress)
    }

    /// One request to the bridge's page server from this process (no browser, no cookie).
    func request(_ method: String, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: String = "")
        async throws -> HTTPResponse
    {
        let client = HTTPClient(host: "127.0.0.1", port: port, requestTimeout: .seconds(5))
        defer { Task { await client.closeIdle() } }
        return try await client.request(method, target, headers: headers, body: Array(body.utf8))
    }

    static func stop(_ bridge: ChildProcess?, _ roku: RokuSimulator, _ samsung: SamsungSimulator) async {
        if let bridge { await bridge.terminate(grace: .seconds(5)) }
        await roku.stop()
        await samsung.stop()
    }
}
