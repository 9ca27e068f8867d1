import Glibc
import Harness
import Testing

@Suite("Harness: mosquitto broker and clients")
struct HarnessMosquittoTests {
    @Test("mosquitto starts on a free loopback port and mosquitto_pub/mosquitto_sub round-trip a message")
    func roundTrip() async throws {
        var brokerPID: pid_t?
        try await withMosquitto { broker in
            brokerPID = broker.pid
            #expect(broker.isRunning)
            #expect(broker.host == "127.0.0.1")
            #expect(broker.url == "mqtt://127.0.0.1:\(broker.port)")
            #expect(broker.tlsPort == nil)

            let subscriber = try await MosquittoClients.startSubscriber(to: broker.endpoint(), topics: ["harness/#"])
            try await subscriber.waitUntilSubscribed(on: broker)
            try await MosquittoClients.publish(to: broker.endpoint(), topic: "harness/a", message: "hello world")
            try await MosquittoClients.publish(to: broker.endpoint(), topic: "harness/b", message: "2", qos: 1)
            #expect(await subscriber.waitForLines(count: 2) == ["harness/a hello world", "harness/b 2"])
            await subscriber.stop()
            #expect(ProcessInspection.leaked([subscriber.process.pid]).isEmpty)

            #expect(broker.logText().contains("New client connected from 127.0.0.1"))
            #expect(broker.logText().contains("'harness/a'"))
        }
        let pid = try #require(brokerPID)
        #expect(ProcessInspection.leaked([pid]).isEmpty)
    }

    @Test("subscribe returns retained messages, and what arrived when the timeout passes")
    func subscribeRetainedAndTimeout() async throws {
        try await withMosquitto { broker in
            try await MosquittoClients.publish(
                to: broker.endpoint(), topic: "harness/kept", message: "on", retain: true)
            let lines = try await MosquittoClients.subscribe(
                to: broker.endpoint(), topic: "harness/#", count: 2, timeout: .seconds(2))
            #expect(lines == ["harness/kept on"])
            let payloads = try await MosquittoClients.subscribe(
                to: broker.endpoint(), topic: "harness/kept", count: 1, timeout: .seconds(5), verbose: false)
            #expect(payloads == ["on"])
        }
    }

    @Test("restart keeps the port and, with persistence off, loses retained messages")
    func restartOnSamePort() async throws {
        try await withMosquitto { broker in
            let port = broker.port
            let firstPID = try #require(broker.pid)
            try await MosquittoClients.publish(to: broker.endpoint(), topic: "harness/r", message: "x", retain: true)
            #expect(
                try await MosquittoClients.subscribe(
                    to: broker.endpoint(), topic: "harness/r", count: 1, timeout: .seconds(5)) == ["harness/r x"])

            try await broker.restart()
            #expect(broker.port == port)
            let secondPID = try #require(broker.pid)
            #expect(secondPID != firstPID)
            #expect(ProcessInspection.leaked([firstPID]).isEmpty)
            // Same port accepts clients again, and the retained message is gone: a real restart.
            #expect(
                try await MosquittoClients.subscribe(
                    to: broker.endpoint(), topic: "harness/r", count: 1, timeout: .seconds(1)) == [])
            try await MosquittoClients.publish(to: broker.endpoint(), topic: "harness/r", message: "y", retain: true)
            #expect(
                try await MosquittoClients.subscribe(
                    to: broker.endpoint(), topic: "harness/r", count: 1, timeout: .seconds(5)) == ["harness/r y"])
        }
    }

    @Test("with persistence on, a retained message survives restart")
    func persistenceOn() async throws {
        try await withMosquitto(MosquittoOptions(persistence: true)) { broker in
            try await MosquittoClients.publish(to: broker.endpoint(), topic: "harness/p", message: "kept", retain: true)
            try await broker.restart()
            #expect(
                try await MosquittoClients.subscribe(
                    to: broker.endpoint(), topic: "harness/p", count: 1, timeout: .seconds(5)) == ["harness/p kept"])
        }
    }

    @Test("kill simulates a crash: the port stops answering and restart brings the broker back")
    func killAndRestart() async throws {
        // An address of its own: while this broker is down its free port may be picked again,
        // and on 127.0.0.1 another test's broker did, answering the publish meant to fail.
        var options = MosquittoOptions()
        options.host = "127.0.0.213"
        let broker = try await MosquittoBroker.start(options)
        let pid = try #require(broker.pid)
        await broker.kill()
        #expect(!broker.isRunning)
        #expect(broker.pid == nil)
        #expect(ProcessInspection.leaked([pid]).isEmpty)
        await #expect(throws: HarnessError.self) {
            try await MosquittoClients.publish(to: broker.endpoint(), topic: "harness/k", message: "lost")
        }
        try await broker.restart()
        try await MosquittoClients.publish(to: broker.endpoint(), topic: "harness/k", message: "back")
        await broker.stop()
        #expect(!broker.isRunning)
    }

    @Test("with users configured, anonymous and wrong-password clients are refused and the right password works")
    func authentication() async throws {
        let options = MosquittoOptions(allowAnonymous: false, users: ["alice": "s3cret", "bob": "hunter2"])
        try await withMosquitto(options) { broker in
            await #expect(throws: HarnessError.self) {
                try await MosquittoClients.publish(to: broker.endpoint(), topic: "harness/auth", message: "anon")
            }
            await #expect(throws: HarnessError.self) {
                try await MosquittoClients.publish(
                    to: broker.endpoint(username: "alice", password: "wrong"), topic: "harness/auth", message: "x")
            }
            try await MosquittoClients.publish(
                to: broker.endpoint(username: "alice", password: "s3cret"), topic: "harness/auth", message: "ok")
            try await MosquittoClients.publish(
                to: broker.endpoint(username: "bob", password: "hunter2"), topic: "harness/auth", message: "ok")
            // mosquitto_pub does not wait for a QoS 0 publish to be handled: poll the log.
            let authChecked = await waitUntil(timeout: .seconds(30)) {
                let log = broker.logText().split(separator: "\n")
                return log.filter { $0.hasSuffix("disconnected, not authorised.") }.count == 2
                    && log.filter { $0.contains("Received PUBLISH") && $0.contains("'harness/auth'") }.count == 2
            }
            #expect(authChecked)
        }
    }

    @Test("the TLS listener accepts clients trusting the generated CA and refuses clients trusting another")
    func tlsListener() async throws {
        let authority = try await TestCertificates.makeAuthority(commonName: "Harness CA")
        let server = try await TestCertificates.makeServerCertificate(signedBy: authority)
        let stranger = try await TestCertificates.makeAuthority(commonName: "Stranger CA")
        let options = MosquittoOptions(tls: MosquittoTLS(authority: authority, server: server))
        try await withMosquitto(options) { broker in
            let tlsPort = try #require(broker.tlsPort)
            #expect(tlsPort != broker.port)
            #expect(broker.tlsURL == "mqtts://127.0.0.1:\(tlsPort)")

            let trusted = try broker.tlsEndpoint(caFile: authority.certPath)
            let subscriber = try await MosquittoClients.startSubscriber(to: trusted, topics: ["harness/tls"])
            try await subscriber.waitUntilSubscribed(on: broker)
            try await MosquittoClients.publish(to: trusted, topic: "harness/tls", message: "secret")
            #expect(await subscriber.waitForLines(count: 1) == ["harness/tls secret"])
            await subscriber.stop()

            let untrusted = try broker.tlsEndpoint(caFile: stranger.certPath)
            let error = await #expect(throws: HarnessError.self) {
                try await MosquittoClients.publish(to: untrusted, topic: "harness/tls", message: "no")
            }
            guard case .commandFailed(_, _, let output)? = error else {
                Issue.record("expected commandFailed, got \(String(describing: error))")
                return
            }
            #expect(output.contains("TLS"))
            #expect(await broker.waitForLog(containing: "unknown ca"))
        }
    }

    @Test("require_certificate: a client without a certificate is refused, one with a CA-signed certificate accepted")
    func tlsClientCertificates() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let server = try await TestCertificates.makeServerCertificate(signedBy: authority)
        let client = try await TestCertificates.makeClientCertificate(signedBy: authority, commonName: "bench-client")
        let options = MosquittoOptions(
            plainListener: false, tls: MosquittoTLS(authority: authority, server: server, requireCertificate: true))
        try await withMosquitto(options) { broker in
            await #expect(throws: HarnessError.self) {
                try await MosquittoClients.publish(
                    to: broker.tlsEndpoint(caFile: authority.certPath), topic: "harness/mtls", message: "no")
            }
            try await MosquittoClients.publish(
                to: broker.tlsEndpoint(caFile: authority.certPath, certFile: client.certPath, keyFile: client.keyPath),
                topic: "harness/mtls", message: "yes")
        }
    }

    @Test("generated certificates verify with openssl for their purpose and carry the requested names")
    func certificatesVerify() async throws {
        let authority = try await TestCertificates.makeAuthority()
        let server = try await TestCertificates.makeServerCertificate(
            signedBy: authority, ipAddresses: ["127.0.0.1", "::1"], dnsNames: ["localhost", "tv.test"])
        let client = try await TestCertificates.makeClientCertificate(signedBy: authority)
        try await ChildProcess.runChecked(
            "openssl", ["verify", "-CAfile", authority.certPath, "-purpose", "sslserver", server.certPath])
        try await ChildProcess.runChecked(
            "openssl", ["verify", "-CAfile", authority.certPath, "-purpose", "sslclient", client.certPath])
        let text = try await ChildProcess.runChecked("openssl", ["x509", "-in", server.certPath, "-noout", "-text"])
        #expect(text.output.contains("DNS:localhost, DNS:tv.test, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1"))
        #expect(text.output.contains("TLS Web Server Authentication"))
        let wrongPurpose = try await ChildProcess.run(
            "openssl", ["verify", "-CAfile", authority.certPath, "-purpose", "sslserver", client.certPath])
        #expect(wrongPurpose.status != .exited(0), "a client certificate is not a server certificate")
    }

    @Test("a broker that cannot start reports mosquitto's own error output")
    func startFailureIncludesLog() async throws {
        let error = await #expect(throws: HarnessError.self) {
            let broker = try await MosquittoBroker.start(MosquittoOptions(extraConfig: ["harness_bogus_option 1"]))
            await broker.stop()
        }
        guard case .brokerDidNotStart(_, let log)? = error else {
            Issue.record("expected brokerDidNotStart, got \(String(describing: error))")
            return
        }
        #expect(log.contains("harness_bogus_option"))
    }

    @Test("a fixed port that is already taken is reported with mosquitto's 'Address already in use'")
    func portTaken() async throws {
        // Port 0, read back: a port picked first and bound afterwards could be taken in between.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                guard bind(listener, pointer, length) == 0, listen(listener, 1) == 0 else { return Int32(-1) }
                return getsockname(listener, pointer, &length)
            }
        }
        try #require(bound == 0)
        let port = UInt16(bigEndian: address.sin_port)
        let error = await #expect(throws: HarnessError.self) {
            let broker = try await MosquittoBroker.start(MosquittoOptions(port: port))
            await broker.stop()
        }
        #expect(String(describing: error).contains("Address already in use"))
    }

    @Test("withMosquitto stops the broker when the body throws")
    func withMosquittoStopsOnError() async throws {
        struct Boom: Error {}
        var pid: pid_t?
        await #expect(throws: Boom.self) {
            try await withMosquitto { broker in
                pid = broker.pid
                throw Boom()
            }
        }
        let brokerPID = try #require(pid)
        #expect(ProcessInspection.leaked([brokerPID]).isEmpty)
        #expect(!ProcessInspection.isAlive(brokerPID))
    }

    @Test("a fixed port, max_keepalive and extra configuration lines are used as given")
    func fixedPortAndConfiguration() async throws {
        // A fixed port is not retried by the harness; the test retries with a new one when another
        // socket took it between FreePort and mosquitto's bind.
        var attempt = 0
        while true {
            attempt += 1
            let port = try FreePort.tcp()
            let options = MosquittoOptions(port: port, maxKeepalive: 30, extraConfig: ["max_inflight_messages 5"])
            let broker: MosquittoBroker
            do {
                broker = try await MosquittoBroker.start(options)
            } catch {
                if !"\(error)".contains("Address already in use") || attempt == 5 { throw error }
                continue
            }
            #expect(broker.port == port)
            let configuration = FileText.read(broker.configPath) ?? ""
            #expect(configuration.contains("\nmax_keepalive 30\n"))
            #expect(configuration.hasSuffix("\nmax_inflight_messages 5\n"))
            #expect(configuration.contains("\npersistence false\n"))
            do {
                try await MosquittoClients.publish(
                    to: MQTTEndpoint(port: port, protocolVersion: "mqttv311"), topic: "harness/p", message: "1")
            } catch {
                await broker.stop()
                throw error
            }
            await broker.stop()
            return
        }
    }
}
