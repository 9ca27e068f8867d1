import TVModel

/// The production driver factory: each vendor's probe and drivers (`VendorDrivers`), made by
/// the vendor from the settings when the factory is made. The bridge sets it up from its
/// configuration (`VendorDriverFactory+Configuration.swift` in Bridge).
public struct VendorDriverFactory: DriverFactory {
    public let vendors: [Vendor]
    public let settings: DriverSettings
    /// The configured TVs' own options, by configured id and by host. They are not part of
    /// `TVIdentity` nor persisted: the configuration is read at every start, and a TV found
    /// by discovery has none.
    public let tvOptions: [String: TVOptions]
    private let drivers: [TVKind: VendorDrivers]

    /// - Parameters:
    ///   - sections: the vendors' configuration sections (one never set reads as its defaults).
    ///   - tvOptions: each configured TV's own options, with its host and configured id; where
    ///     two entries name one host or id, the later one's options win.
    public init(
        vendors: [Vendor], settings: DriverSettings, sections: VendorSettingsBag,
        tvOptions: [(host: String, id: String?, options: TVOptions)] = []
    ) {
        self.vendors = vendors
        self.settings = settings
        var byKey: [String: TVOptions] = [:]
        for tv in tvOptions {
            for key in [tv.host] + (tv.id.map { [$0] } ?? []) {
                byKey[key] = (byKey[key] ?? TVOptions()).merging(tv.options)
            }
        }
        self.tvOptions = byKey
        drivers = Dictionary(
            vendors.map { ($0.kind, $0.makeDrivers(settings, sections)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The options the configuration gives the TV of `identity`: its entry's by configured id,
    /// over its entry's by host.
    public func options(for identity: TVIdentity) -> TVOptions {
        (tvOptions[identity.host] ?? TVOptions()).merging(tvOptions[identity.id.rawValue] ?? TVOptions())
    }

    /// The vendor `kind` says; with `kind` nil, every vendor probed for an unknown device is
    /// asked at once (at `port` when given, else each at its own default port) and the first
    /// that answers wins.
    public func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError)
        -> TVDescription
    {
        guard let kind else { return try await probeEither(host: host, port: port) }
        guard let drivers = drivers[kind] else {
            throw DriverError(.unsupported, "no driver for TVs of kind '\(kind)'")
        }
        return try await drivers.describe(host, port)
    }

    private func probeEither(host: String, port: UInt16?) async throws(DriverError) -> TVDescription {
        let probes = vendors.filter(\.probedWhenKindUnknown).compactMap { drivers[$0.kind]?.describe }
        let result = await withTaskGroup(of: Result<TVDescription, DriverError>.self) { group in
            for describe in probes {
                group.addTask {
                    do throws(DriverError) {
                        return .success(try await describe(host, port))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var failures: [DriverError] = []
            for await result in group {
                switch result {
                case .success:
                    group.cancelAll()
                    return result
                case .failure(let error): failures.append(error)
                }
            }
            // The most telling failure: a device that answered wrongly beats silence.
            let error =
                failures.first { $0.kind != .unreachable && $0.kind != .timeout } ?? failures.first
                ?? DriverError(.unreachable, "no TV answered at \(host)")
            return .failure(error)
        }
        return try result.get()
    }

    /// The driver of the description's vendor, with the TV's own options. The bridge only holds
    /// descriptions of the factory's vendors (probed by it, or loaded and checked against `vendors`).
    public func makeDriver(for description: TVDescription, secrets: TVSecrets) -> any TVDriver {
        guard let drivers = drivers[description.identity.kind] else {
            preconditionFailure("no vendor for TVs of kind '\(description.identity.kind)'")
        }
        return drivers.makeDriver(description, secrets, options(for: description.identity))
    }
}
