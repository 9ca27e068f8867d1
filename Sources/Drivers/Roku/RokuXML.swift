import Wire

/// Reading ECP answers: the XML document, its root checked, every failure a `.badResponse`.
enum RokuXML {
    /// ECP answers are a few KB; a device-info is about 3 KB, an app list of a few hundred
    /// apps about 40 KB. 512 KiB is far above any real answer and bounds a hostile one.
    static let limits = XMLLimits(maxInputBytes: 512 * 1024, maxDepth: 16, maxElements: 10_000)

    /// Parses `bytes` and returns the root, which must be named `root`.
    static func root(_ bytes: [UInt8], named root: String, what: String) throws(DriverError)
        -> XMLElement
    {
        let element: XMLElement
        do {
            element = try XMLReader.parse(bytes, limits: limits)
        } catch {
            throw DriverError(.badResponse, "the Roku's \(what) is not valid XML: \(error.reason)")
        }
        guard element.name == root else {
            throw DriverError(
                .badResponse, "the Roku's \(what) has <\(element.name)> where <\(root)> was expected")
        }
        return element
    }

    /// `true`/`false` as Roku writes them; anything else is unknown.
    static func bool(_ text: String?) -> Bool? {
        switch text?.lowercased() {
        case "true": true
        case "false": false
        default: nil
        }
    }

    /// Text that is present and not empty (`<user-device-name/>` counts as absent).
    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
