import Bridge
import ConfigurationLoading
import Drivers
import Net
import Support
import TVModel

/// `tv2mqtt pair [HOST]`: asks a Samsung TV to approve tv2mqtt, waits for the answer, and saves
/// the token in the state directory. Without HOST, the only Samsung (`OnlyTV`). Exit 0 when
/// approved, 1 with what to do when not.
enum PairCommand {
    static let specs =
        ConfigurationLoader.runFlags.filter {
            ["config", "state-dir", "log-level", "ssdp-address", "no-ssdp"].contains($0.name)
        } + [OnlyTV.timeoutFlag]

    static func main(
        _ arguments: [String], environment: [String: String], makeFactory: DriverFactoryMaker
    )
        async throws(ConfigError) -> Int32
    {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: specs, usage: "tv2mqtt pair [OPTIONS] [HOST]",
                summary:
                    "Pairs with a Samsung TV: approve tv2mqtt on the TV when it asks. The token is saved in the state directory. Without HOST, the only Samsung TV: the one the state directory knows or, when it knows none, the one a discovery finds (3 s, --timeout); with several, it lists them."
            )
        else { return 0 }
        guard parsed.positionals.count <= 1 else {
            throw ConfigError("pair takes one TV address at most (see 'tv2mqtt pair --help')")
        }
        let setup = try TVCommandSetup(parsed, environment: environment, makeFactory: makeFactory)
        let (configuration, logger, factory, store) = (setup.configuration, setup.logger, setup.factory, setup.store)
        let searchSeconds = setup.searchSeconds
        var state = store.load()
        _ = state.ensureInstallationID()  // saved with the token
        let host: String
        var chosenPort: UInt16?
        if let named = parsed.positionals.first {
            host = named
        } else {
            switch await OnlyTV.choose(
                kind: .samsung, seconds: searchSeconds, known: state.tvs, configuration: configuration,
                factory: factory, logger: logger,
                usage: "tv2mqtt pair HOST")
            {
            case .failure(let refusal):
                printError(refusal.message)
                return refusal.exitCode
            case .success(let choice):
                (host, chosenPort) = (choice.identity.host, choice.identity.port)
            }
        }
        let description: TVDescription
        do {
            // A TV listed in the configuration may have its REST port moved (`port`).
            let port = configuration.tvs.first { $0.host == host && $0.kind != .roku }?.port ?? chosenPort
            description = try await factory.probe(host: host, kind: .samsung, port: port)
        } catch {
            printError("no Samsung TV answered at \(host): \(error)")
            return 1
        }
        let existing = state.tvs.first { $0.identity.id == description.identity.id }
        let driver = factory.makeDriver(
            for: description, secrets: TVSecrets(existing, installationID: state.installationID))
        print("Asking \(description.identity.name) for permission: choose Allow on the TV…")
        let secrets = SecretCollector()
        let collecting = Task {
            for await event in driver.events { await secrets.take(event) }
        }
        defer { collecting.cancel() }
        do {
            try await driver.pair()
        } catch {
            printError(error.message)
            await driver.shutdown()
            return 1
        }
        try? await EventLoop.sleep(for: .milliseconds(100))  // let the token event arrive
        await driver.shutdown()
        var record =
            existing
            ?? PersistedTV(identity: description.identity, capabilities: description.capabilities)
        if let token = await secrets.token { record.token = token }
        if let pin = await secrets.pin { record.certificatePin = pin }
        state.tvs.removeAll { $0.identity.id == record.identity.id }
        state.tvs.append(record)
        do {
            try store.save(state)
        } catch {
            printError("paired, but cannot save the token: \(error)")
            return 1
        }
        print(
            "paired with \(description.identity.name) (\(description.identity.id))\(await secrets.token == nil ? "; this TV issues no token, so it may ask again" : "")"
        )
        return 0
    }

    actor SecretCollector {
        var token: String?
        var pin: String?

        func take(_ event: DriverEvent) {
            switch event {
            case .token(let value): token = value
            case .certificatePinned(let value): pin = value
            default: break
            }
        }
    }
}
