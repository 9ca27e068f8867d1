import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// The status page in a real browser (headless Chromium) against `tv2mqtt run` with simulated
/// TVs and a real mosquitto. Without chromium these tests are skipped, saying why, except in CI
/// (`CI=true`), where they fail. One at a time: each starts a bridge, a broker and two TVs,
/// and Chromium; they print how long the page took (the goal is 1 s) and assert what it showed.
@Suite(
    "status page in a browser", .serialized, .takesTurns,
    .enabled(
        if: HeadlessChromium.missing == nil || HeadlessChromium.isCI,
        "\(HeadlessChromium.missing ?? ""): the browser tests are skipped (CI=true fails them instead)"))
struct StatusPageBrowserTests {

    static func card(_ id: String) -> String { "#tv-list [data-tv=\"\(id)\"]" }

    @Test("the page lists the TVs: name, vendor, address, availability and power")
    func listsTheTVs() async throws {
        try await StatusPageBridge.with { bridge in
            let page = bridge.page
            let roku = Self.card(bridge.rokuID)
            let samsung = Self.card(bridge.samsungID)
            let listed = try await page.waitFor(
                "document.querySelector('\(roku) [data-field=power]')?.textContent.startsWith('ON')"
                    + " && document.querySelector('\(samsung) [data-field=available]')?.textContent === 'online'",
                timeout: .seconds(20))
            let listText = try await page.text("document.getElementById('tv-list').innerText")
            #expect(listed, "page: \(listText)")
            let rokuCard = try await page.text("document.querySelector('\(roku)').innerText")
            #expect(rokuCard.contains(bridge.roku.name) && rokuCard.contains(bridge.roku.host), "\(rokuCard)")
            #expect(rokuCard.lowercased().contains("roku") && rokuCard.contains("online"), "\(rokuCard)")
            let samsungCard = try await page.text("document.querySelector('\(samsung)').innerText")
            #expect(
                samsungCard.contains(bridge.samsung.host) && samsungCard.lowercased().contains("samsung"),
                "\(samsungCard)")
        }
    }

    @Test("pressing Home on the page reaches the simulated TV")
    func homeKey() async throws {
        try await StatusPageBridge.with { bridge in
            let page = bridge.page
            try await page.navigate(bridge.url + "#tv/\(bridge.rokuID)")
            let shown = try await page.waitFor(
                "document.querySelector('#tv-facts [data-field=power]')?.textContent.startsWith('ON')",
                timeout: .seconds(20))
            try #require(shown, "the TV view never showed the Roku on")
            let clock = ContinuousClock()
            let pressedAt = clock.now
            try await page.click("#remote button[data-key=home]")
            let reached = await bridge.log.waitFor(timeout: .seconds(30)) {
                $0["kind"] == "keypress" && $0["key"] == "Home"
            }
            let took = clock.now - pressedAt
            print("status page: Home reached the simulated Roku \(took) after the click")
            let said = try await page.text("document.getElementById('notice').textContent")
            #expect(reached != nil, "no Home keypress; the page said: \(said)")
        }
    }

    @Test("through ingress (X-Ingress-Path from the allow_from gateway) the page lists the TVs, streams and drives them")
    func throughIngress() async throws {
        try await StatusPageBridge.with(ingress: true) { bridge in
            let page = bridge.page
            let path = try #require(bridge.ingress?.path)
            let base = try await page.text("document.querySelector('base')?.getAttribute('href') ?? ''")
            #expect(base == path + "/", "the page's base: \(base)")
            let roku = Self.card(bridge.rokuID)
            let listed = try await page.waitFor(
                "document.querySelector('\(roku) [data-field=power]')?.textContent.startsWith('ON')",
                timeout: .seconds(20))
            let listText = try await page.text("document.getElementById('tv-list').innerText")
            #expect(listed, "page: \(listText)")
            // The live feed comes through the gateway too.
            try bridge.roku.apply(["power": "standby"])
            let off = try await page.waitFor(
                "document.querySelector('\(roku) [data-field=power]')?.textContent.startsWith('OFF')",
                timeout: .seconds(30))
            #expect(off, "the power change never showed through ingress")
            try bridge.roku.apply(["power": "on"])
            try await page.navigate(bridge.url + "#tv/\(bridge.rokuID)")
            let shown = try await page.waitFor(
                "document.querySelector('#tv-facts [data-field=power]')?.textContent.startsWith('ON')",
                timeout: .seconds(30))
            try #require(shown, "the TV view never showed the Roku on")
            try await page.click("#remote button[data-key=home]")
            let reached = await bridge.log.waitFor(timeout: .seconds(30)) {
                $0["kind"] == "keypress" && $0["key"] == "Home"
            }
            let said = try await page.text("document.getElementById('notice').textContent")
            #expect(reached != nil, "no Home keypress through ingress; the page said: \(said)")
        }
    }

    @Test("a power change on the simulated TV shows on the page once the bridge publishes it")
    func powerChangeIsLive() async throws {
        try await StatusPageBridge.with { bridge in
            let page = bridge.page
            let power = "document.querySelector('\(Self.card(bridge.rokuID)) [data-field=power]')?.textContent"
            let on = try await page.waitFor("\(power)?.startsWith('ON')", timeout: .seconds(30))
            try #require(on)
            let topic = "tv2mqtt/\(bridge.rokuID)/state"
            let subscriber = try await MosquittoClients.startSubscriber(to: bridge.broker.endpoint(), topics: [topic])
            defer { Task { await subscriber.stop() } }
            try await subscriber.waitUntilSubscribed(on: bridge.broker)
            try bridge.roku.apply(["power": "standby"])
            let clock = ContinuousClock()
            let published = await waitUntil(timeout: .seconds(30)) {
                subscriber.lines().contains { $0.hasPrefix(topic) && $0.contains(#""power":"OFF""#) }
            }
            try #require(published, "the bridge never published power OFF: \(subscriber.lines())")
            let publishedAt = clock.now
            let shown = try await page.waitFor("\(power)?.startsWith('OFF')", timeout: .seconds(30))
            let took = clock.now - publishedAt
            print("status page: power OFF shown \(took) after the bridge published it")
            let showing = try await page.text(power)
            #expect(shown, "the page shows: \(showing)")
        }
    }

    @Test("a Samsung is paired from the page, and its token is never sent to the browser")
    func pairSamsung() async throws {
        try await StatusPageBridge.with { bridge in
            let page = bridge.page
            try await page.navigate(bridge.url + "#tv/\(bridge.samsungID)")
            let pairShown = try await page.waitFor("!document.getElementById('pair').hidden", timeout: .seconds(30))
            try #require(pairShown)
            #expect(bridge.samsung.issuedTokens.isEmpty)
            try await page.click("#pair")
            let accepted = await bridge.log.waitFor(timeout: .seconds(30)) {
                $0["kind"] == "pairing" && $0["result"] == "accepted"
            }
            let said = try await page.text("document.getElementById('notice').textContent")
            #expect(accepted != nil, "the page said: \(said)")
            let token = try #require(bridge.samsung.issuedTokens.first)
            // What the browser can see: the API's answer and every view of the page.
            let state = try await page.text("fetch('api/state').then((r) => r.text())")
            #expect(state.contains(bridge.samsungID) && !state.contains(token))
            for view in ["#tv/\(bridge.samsungID)", "#bridge", "#log", "#"] {
                try await page.navigate(bridge.url + view)
                try await Task.sleep(for: .milliseconds(200))
                let html = try await page.text("document.documentElement.outerHTML")
                #expect(!html.contains(token), "the token shows in \(view)")
            }
        }
    }

    @Test("with a token: the API refuses a request without it, the page asks for it and then works")
    func tokenRequired() async throws {
        let token = "correct-horse-battery-staple"
        try await StatusPageBridge.with(token: token) { bridge in
            let without = try await bridge.request("GET", "/api/state")
            #expect(without.status == 401)
            let wrong = try await bridge.request("GET", "/api/state", headers: ["Authorization": "Bearer nope"])
            #expect(wrong.status == 401)
            // From the page's own origin, so only the missing token refuses it.
            let command = try await bridge.request(
                "POST", "/api/tv/\(bridge.rokuID)/set",
                headers: ["Origin": String(bridge.url.dropLast()), "Content-Type": "application/json"],
                body: #"{"key":"home"}"#)
            #expect(command.status == 401)

            let page = bridge.page
            let asks = try await page.waitFor("!document.getElementById('login').hidden")
            #expect(asks, "no login form")
            _ = try await page.evaluate(
                "document.getElementById('login-token').value = '\(token)';"
                    + " document.getElementById('login-form').requestSubmit(); true")
            let listed = try await page.waitFor(
                "document.querySelector('\(Self.card(bridge.rokuID))') !== null", timeout: .seconds(15))
            #expect(listed, "signing in did not show the TVs")
            let html = try await page.text("document.documentElement.outerHTML")
            #expect(!html.contains(token))
            let pressed = bridge.log.entries.contains { $0["kind"] == "keypress" }
            #expect(!pressed, "a refused command reached the TV")
        }
    }

    @Test("a command from another origin is refused; the same from the page's own origin is taken")
    func otherOriginRefused() async throws {
        try await StatusPageBridge.with { bridge in
            let target = "/api/tv/\(bridge.rokuID)/set"
            let foreign = try await bridge.request(
                "POST", target, headers: ["Origin": "http://evil.example", "Content-Type": "application/json"],
                body: #"{"key":"home"}"#)
            #expect(foreign.status == 403, "\(foreign.status) \(String(decoding: foreign.body, as: UTF8.self))")
            let crossSite = try await bridge.request(
                "POST", target, headers: ["Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"],
                body: #"{"key":"home"}"#)
            #expect(crossSite.status == 403)
            // A page of another origin (localhost is not 127.0.0.1 to a browser) posting the form
            // a CSRF attack would: the browser sends its Origin, the bridge refuses.
            let other = try await HeadlessChromium.shared().openPage("http://localhost:\(bridge.port)/")
            _ = try await other.evaluate(
                "fetch('http://127.0.0.1:\(bridge.port)\(target)', {method: 'POST', mode: 'no-cors',"
                    + " body: '{\"key\":\"home\"}'}).then(() => true, () => true)")
            await other.close()
            try await Task.sleep(for: .seconds(1))
            let before = bridge.log.entries.contains { $0["kind"] == "keypress" }
            #expect(!before, "a command from another origin reached the TV")

            let own = try await bridge.request(
                "POST", target, headers: ["Origin": String(bridge.url.dropLast()), "Content-Type": "application/json"],
                body: #"{"key":"home"}"#)
            #expect(own.status == 202, "\(own.status) \(String(decoding: own.body, as: UTF8.self))")
            let reached = await bridge.log.waitFor(timeout: .seconds(30)) { $0["kind"] == "keypress" }
            #expect(reached != nil)
        }
    }

    @Test("a page left open through a bridge restart reconnects, catches up and stays live")
    func survivesBridgeRestart() async throws {
        try await StatusPageBridge.with { bridge in
            let page = bridge.page
            let power = "document.querySelector('\(Self.card(bridge.rokuID)) [data-field=power]')?.textContent"
            let live = "document.getElementById('live').textContent === 'live'"
            let ready = try await page.waitFor("\(power)?.startsWith('ON') && \(live)", timeout: .seconds(30))
            try #require(ready)
            await bridge.bridge.terminate(grace: .seconds(5))
            let noticed = try await page.waitFor("!(\(live))", timeout: .seconds(30))
            #expect(noticed, "the page still says live with the bridge gone")
            // Missed while the bridge was down: the page must read it after reconnecting.
            try bridge.roku.apply(["power": "standby"])
            let again = try await bridge.startBridgeAgain()
            defer { Task { await again.terminate(grace: .seconds(5)) } }
            let caughtUp = try await page.waitFor("\(power)?.startsWith('OFF') && \(live)", timeout: .seconds(30))
            let shown = try await page.text(power)
            #expect(caughtUp, "after the restart the page shows power \(shown)")
            // And the new stream carries live changes.
            try bridge.roku.apply(["power": "on"])
            let followed = try await page.waitFor("\(power)?.startsWith('ON')", timeout: .seconds(30))
            #expect(followed, "the page did not follow a change after the restart")
            #expect(again.isRunning, "stderr: \(again.capturedError())")
        }
    }

    @Test("a TV added by address on the page appears in the list; a refusal shows the bridge's reason")
    func addByAddress() async throws {
        try await StatusPageBridge.with { bridge in
            var options = RokuSimulatorOptions()
            // An address of its own, so the standard ECP port (the one tv/add probes) is free.
            options.host = "127.0.29.2"
            options.port = 8060
            options.name = "Kitchen TV"
            let kitchen = try await RokuSimulator.start(options, log: bridge.log)
            let page = bridge.page
            let two = try await page.waitFor("document.querySelectorAll('#tv-list [data-tv]').length === 2")
            #expect(two)
            func add(_ address: String) async throws {
                _ = try await page.evaluate(
                    "document.getElementById('add-address').value = '\(address)';"
                        + " document.getElementById('add-kind').value = 'roku';"
                        + " document.getElementById('add-form').requestSubmit(); true")
            }
            // A port no TV answers on: refused, and the page says why.
            try await add("\(kitchen.host):9")
            let refused = try await page.waitFor(
                "document.getElementById('notice').textContent.includes('not one a TV answers on')")
            #expect(refused, "no refusal shown")
            try await add(kitchen.host)
            let card = Self.card("roku_" + kitchen.serial.lowercased())
            let added = try await page.waitFor(
                "document.querySelector('\(card)')?.textContent.includes('Kitchen TV')", timeout: .seconds(20))
            let said = try await page.text("document.getElementById('notice').textContent")
            await kitchen.stop()
            #expect(added, "the page said: \(said)")
        }
    }
}
