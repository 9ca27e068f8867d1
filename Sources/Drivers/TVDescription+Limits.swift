import Support
import TVModel

/// What a TV says about itself is published (Home Assistant's device and select options),
/// logged and saved, so every text and list of it is bounded, whatever the TV sends. Names
/// from the configuration, `tv/add` and `tv/rename` have the same bound.
extension TVDescription {
    /// The longest name kept: a TV's, an app's, an input's, a model's.
    public static let maxNameLength = 128
    /// The most apps kept of a TV's list (the `app` select's options).
    public static let maxApps = 500
    /// The most inputs kept (the `input` select's options), and of sound outputs.
    public static let maxInputs = 64

    /// `text` fit to be a name: control characters dropped, cut to `maxNameLength` characters.
    public static func boundedName(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !scalar.isControlCharacter { kept.append(scalar) }
        let name = String(kept)
        return name.count <= maxNameLength ? name : String(name.prefix(maxNameLength))
    }

    /// This description with every text and list the TV supplied bounded. An app whose id is
    /// longer than a name is left out (cutting an id would launch another app); a TV name left
    /// empty becomes its id.
    public var bounded: TVDescription {
        var bounded = self
        var identity = identity
        identity.name = Self.boundedName(identity.name)
        if identity.name.isEmpty { identity.name = identity.id.rawValue }
        identity.manufacturer = Self.boundedName(identity.manufacturer)
        identity.model = identity.model.map(Self.boundedName)
        identity.modelID = identity.modelID.map(Self.boundedName)
        identity.serialNumber = identity.serialNumber.map(Self.boundedName)
        identity.softwareVersion = identity.softwareVersion.map(Self.boundedName)
        bounded.identity = identity
        bounded.apps = apps.lazy.filter { $0.id.count <= Self.maxNameLength }.prefix(Self.maxApps).map {
            TVApp(id: $0.id, name: Self.boundedName($0.name))
        }
        bounded.capabilities.apps = capabilities.apps.prefix(Self.maxApps).map(Self.boundedName)
        bounded.capabilities.inputs = capabilities.inputs.prefix(Self.maxInputs).map(Self.boundedName)
        bounded.capabilities.soundOutputs = capabilities.soundOutputs.prefix(Self.maxInputs).map(Self.boundedName)
        return bounded
    }
}
