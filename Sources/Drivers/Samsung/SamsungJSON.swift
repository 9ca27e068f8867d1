import Wire

/// JSON reading shared by the Samsung decoders: the limits every document from a TV is
/// held to, and lenient accessors for the TV's habit of writing every value as a string.
enum SamsungJSON {
    /// Samsung messages are small (an app list of 100 apps is about 20 KB; the REST answer
    /// about 2 KB) and shallow (the deepest path, `data.clients[].attributes.token`, is 5
    /// levels), so 256 KiB and 16 levels leave ample room while bounding a hostile peer.
    static let limits = JSONLimits(maxDepth: 16, maxBytes: 256 * 1024)

    /// Parses a document, turning a `WireError` into the driver's error with `what` named.
    static func parse(_ bytes: some Collection<UInt8>, what: String) throws(DriverError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw DriverError(.badResponse, "Samsung \(what) is not usable JSON (\(error))")
        }
    }

    /// A string member, also accepting a number or boolean written bare (TVs differ), and
    /// treating "" as absent.
    static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text): return text.isEmpty ? nil : text
        case .integer(let number): return String(number)
        case .number(let number):
            // A whole number beyond Int64 (2e69 fits a Double) is written as a Double;
            // `Int64(_:)` would trap on it.
            return Int64(exactly: number).map { String($0) } ?? String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }

    /// `"true"`/`"false"` (how the REST API writes booleans), a real boolean, or 0/1.
    static func bool(_ value: JSONValue?) -> Bool? {
        switch value {
        case .bool(let flag): return flag
        case .integer(let number): return number == 0 ? false : number == 1 ? true : nil
        case .string(let text):
            switch text.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: return nil
            }
        default: return nil
        }
    }
}
