import Drivers
import Wire

/// The stand-in vendor's section of the configuration file (`"acme": {"toast_prefix": …}`):
/// what its drivers put before every toast, unless a TV's entry says otherwise.
struct StandInSettings: VendorSettings, Equatable {
    var toastPrefix = ""

    var effectiveMembers: [String: JSONValue] { ["toast_prefix": .string(toastPrefix)] }

    static let configuration = VendorConfiguration(
        key: "acme", section: StandInSettings.self,
        decode: { value, reader throws(ConfigError) in
            let members = try reader.object(value, "acme", allowed: ["toast_prefix"])
            var settings = StandInSettings()
            if let prefix = try reader.string(members["toast_prefix"], "acme.toast_prefix") {
                settings.toastPrefix = prefix
            }
            return settings
        }, tvKeys: ["acme_toast_prefix"], tvOptions: StandInTVOptions.self,
        decodeTV: { members, path, reader throws(ConfigError) in
            let prefix = try reader.string(members["acme_toast_prefix"], "\(path).acme_toast_prefix")
            return prefix.map { StandInTVOptions(toastPrefix: $0) }
        })
}

/// The key the stand-in vendor adds to a `tvs` entry: that TV's own toast prefix.
struct StandInTVOptions: VendorSettings, Equatable {
    var toastPrefix: String?

    var effectiveMembers: [String: JSONValue] { toastPrefix.map { ["acme_toast_prefix": .string($0)] } ?? [:] }
}
