import Bridge
import ConfigurationLoading
import Drivers
import Net
import Persistence
import Support
import Synchronization
import TVModel
import Wire

/// `tv2mqtt pair [HOST]`: asks a TV of a vendor that pairs (`Vendor.pairs`) to approve tv2mqtt
/// (or, for a TV that shows a PIN, takes the PIN: `--pin`, or typed when asked), waits for the answer, and saves the token in the state directory. Without HOST, the only
/// such TV (`OnlyTV`). Exit 0 when
/// approved, 1 with what to do when not.
enum PairCommand {
    static func specs(_ vendors: [Vendor]) -> [FlagSpec] {
        ConfigurationLoader.runFlags(vendors).filter {
            ["config", "state-dir", "log-level", "ssdp-address", "no-ssdp", "mdns-address", "no-mdns"].contains($0.name)
        } + [OnlyTV.timeoutFlag, pinFlag(vendors)]
    }

    static func pinFlag(_ vendors: [Vendor]) -> FlagSpec {
        FlagSpec(
            "pin", value: "PIN",
            help:
                "the PIN the TV shows, for \(withArticle(pairingTVs(vendors.filter(\.pairsByPIN)))) that pairs by PIN; without it, the command asks for the PIN when the TV shows one"
        )
    }

    static func main(
        _ arguments: [String], environment: [String: String], vendors: [Vendor], makeFactory: DriverFactoryMaker
    )
        async throws(ConfigError) -> Int32
    {
        guard
            let parsed = try CommandLineTool.parse(
                arguments, specs: specs(vendors), usage: "tv2mqtt pair [OPTIONS] [HOST]",
                summary:
                    "Pairs with \(Self.withArticle(Self.pairingTVs(vendors.filter(\.pairs)))): approve tv2mqtt on the TV when it asks, or type the PIN it shows (--pin, or when asked). The token is saved in the state directory. Without HOST, the only such TV: the one the state directory knows or, when it knows none, the one a discovery finds (3 s, --timeout); with several, it lists them."
            )
        else { return 0 }
        guard parsed.positionals.count <= 1 else {
            throw ConfigError("pair takes one TV address at most (see 'tv2mqtt pair --help')")
        }
        let givenPIN = parsed.value("pin")
        if let givenPIN, !PairingPIN.isPlausible(givenPIN) {
            throw ConfigError("--pin: \(PairingPIN.plausibleRefusal)")
        }
        let setup = try TVCommandSetup(parsed, environment: environment, vendors: vendors, makeFactory: makeFactory)
        let (configuration, logger, factory, store) = (setup.configuration, setup.logger, setup.factory, setup.store)
        let searchSeconds = setup.searchSeconds
        var state = store.load()
        let pairing = factory.vendors.filter(\.pairs)
        _ = state.ensureInstallationID()  // saved with the token
        let host: String
        var chosenKind: TVKind?
        var chosenPort: UInt16?
        if let named = parsed.positionals.first {
            host = named
        } else {
            switch await OnlyTV.choose(
                vendors: pairing, seconds: searchSeconds, known: state.tvs, configuration: configuration,
                factory: factory, logger: logger,
                usage: "tv2mqtt pair HOST")
            {
            case .failure(let refusal):
                printError(refusal.message)
                return refusal.exitCode
            case .success(let choice):
                (host, chosenPort, chosenKind) = (choice.identity.host, choice.identity.port, choice.identity.kind)
            }
        }
        let description: TVDescription
        do {
            // A TV listed in the configuration may have its port moved (`port`) and name its kind.
            let configured = configuration.tvs.first { $0.host == host && ($0.kind.flatMap(pairing.vendor) != nil) }
            let kind = configured?.kind ?? chosenKind ?? (pairing.count == 1 ? pairing[0].kind : nil)
            description = try await factory.probe(host: host, kind: kind, port: configured?.port ?? chosenPort)
        } catch {
            printError("no \(Self.pairingTVs(pairing)) answered at \(host): \(error)")
            return 1
        }
        guard pairing.vendor(description.identity.kind) != nil else {
            printError(
                "\(description.identity.name) at \(host) is a \(description.identity.kind) TV, which needs no pairing")
            return 1
        }
        let existing = state.tvs.first { $0.identity.id == description.identity.id }
        let driver = factory.makeDriver(
            for: description, secrets: TVSecrets(existing, installationID: state.installationID))
        print("Asking \(description.identity.name) for permission: choose Allow on the TV…")
        // A handler, not a task: the token is kept as the driver yields it, so it is there
        // when `pair` returns, however late a task would have run.
        let secrets = SecretCollector()
        driver.events.deliver(to: secrets.take)
        do {
            try await pair(driver, givenPIN: givenPIN)
        } catch {
            printError(error.message)
            await driver.shutdown()
            return 1
        }
        await driver.shutdown()
        var record =
            existing
            ?? PersistedTV(identity: description.identity, capabilities: description.capabilities)
        let (token, pin) = secrets.kept
        if let token { record.token = token }
        if let pin { record.certificatePin = pin }
        state.tvs.removeAll { $0.identity.id == record.identity.id }
        state.tvs.append(record)
        do {
            try store.save(state)
        } catch {
            printError("paired, but cannot save the token: \(error)")
            return 1
        }
        print(
            "paired with \(description.identity.name) (\(description.identity.id))\(token == nil ? "; this TV issues no token, so it may ask again" : "")"
        )
        return 0
    }

    /// Pairs with the PIN given, or as the TV asks: when it shows a PIN, the PIN typed on
    /// standard input (never echoed back or logged).
    static func pair(_ driver: any TVDriver, givenPIN: String?) async throws(DriverError) {
        if let givenPIN { return try await driver.pair(pin: givenPIN) }
        do {
            try await driver.pair()
        } catch  where error.kind == .pinRequired {
            print("The TV shows a PIN: type it and press Enter: ", terminator: "")
            let line = readLine() ?? ""
            let typed = String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            guard !typed.isEmpty else { throw error }
            guard PairingPIN.isPlausible(typed) else { throw DriverError(.rejected, PairingPIN.plausibleRefusal) }
            try await driver.pair(pin: typed)
        }
    }

    /// "Samsung TV", "LG or Samsung TV", "Android TV, LG or Samsung TV": the manufacturers of
    /// `vendors`, for messages.
    static func pairingTVs(_ vendors: [Vendor]) -> String {
        let names = Set(vendors.map(\.manufacturer)).sorted()
        guard let last = names.last else { return "TV" }
        let list = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
        return list.hasSuffix(" TV") ? list : list + " TV"
    }

    /// "a Samsung TV", "an LG TV": `phrase` after the article its first word's sound takes (a
    /// word in capitals, such as LG, is spelled out letter by letter).
    static func withArticle(_ phrase: String) -> String {
        let word = phrase.prefix { $0 != " " }
        guard let first = word.first?.uppercased().first else { return phrase }
        let spelled = word.count > 1 && word.allSatisfy(\.isUppercase)
        let vowelSound = (spelled ? "AEFHILMNORSX" : "AEIOU").contains(first)
        return (vowelSound ? "an " : "a ") + phrase
    }

    final class SecretCollector: Sendable {
        private let secrets = Mutex<(token: String?, pin: String?)>((nil, nil))

        var kept: (token: String?, pin: String?) { secrets.withLock { $0 } }

        @Sendable func take(_ event: DriverEvent) {
            secrets.withLock { secrets in
                switch event {
                case .token(let value): secrets.token = value
                case .certificatePinned(let value): secrets.pin = value
                default: break
                }
            }
        }
    }
}
