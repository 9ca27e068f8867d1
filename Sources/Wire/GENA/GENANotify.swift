/// Why an event message is refused, with the status to answer (UDA 1.1 §4.3.2).
public struct GENANotifyRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// 400 Bad Request (a missing `NT`/`NTS`/`SEQ`, a body that is not a property set) or
    /// 412 Precondition Failed (a wrong `NT`/`NTS`, a missing or unknown `SID`).
    public let status: Int
    public let reason: String

    public init(status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public static func badRequest(_ reason: String) -> GENANotifyRefusal { .init(status: 400, reason) }
    public static func preconditionFailed(_ reason: String) -> GENANotifyRefusal { .init(status: 412, reason) }

    public var description: String { "\(status): \(reason)" }
}

/// One evented variable of a property set: `<e:property><LastChange>…</LastChange></e:property>`.
public struct GENAProperty: Equatable, Sendable {
    public var name: String
    /// The element's text, XML entities decoded (a `LastChange` value is itself an XML document).
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A GENA event message (`NOTIFY`, UDA 1.1 §4.3.2), checked and decoded:
///
/// ```
/// NOTIFY /path HTTP/1.1
/// NT: upnp:event
/// NTS: upnp:propchange
/// SID: uuid:…
/// SEQ: 0
///
/// <e:propertyset xmlns:e="urn:schemas-upnp-org:event-1-0"><e:property><LastChange>…
/// ```
public struct GENANotify: Equatable, Sendable {
    public var sid: String
    /// 0 for the initial event after a subscription, then one more per message.
    public var seq: UInt32
    public var properties: [GENAProperty]

    /// Bodies are a few hundred bytes to a few KB (a Samsung LastChange lists about ten
    /// variables); these bound a hostile sender.
    public static let maxBodyBytes = 64 * 1024
    public static let maxHeaderBytes = 8 * 1024
    static let limits = XMLLimits(
        maxInputBytes: maxBodyBytes, maxDepth: 8, maxElements: 256, maxAttributes: 256, maxAttributesPerElement: 16)

    public init(sid: String, seq: UInt32, properties: [GENAProperty]) {
        self.sid = sid
        self.seq = seq
        self.properties = properties
    }

    /// The value of the first property with this name.
    public func value(of name: String) -> String? {
        properties.first { $0.name == name }?.value
    }

    /// Checks the method and header fields of an event message, then decodes its body.
    ///
    /// - Throws: `GENANotifyRefusal`: 400 for another method, a missing `NT` or `NTS`, a
    ///   missing or malformed `SEQ`, a body that is not a well-formed `propertyset` within
    ///   `maxBodyBytes`; 412 for an `NT`/`NTS` other than `upnp:event`/`upnp:propchange`, or a
    ///   missing, empty or invalid `SID`. Whether the SID is one we hold is the listener's check.
    public static func parse(_ request: HTTPRequest) throws(GENANotifyRefusal) -> GENANotify {
        guard request.method == "NOTIFY" else { throw .badRequest("not a NOTIFY") }
        let headers = request.headers
        guard let nt = single(headers, "NT"), let nts = single(headers, "NTS") else {
            throw .badRequest("NT or NTS is missing or repeated")
        }
        guard nt == GENA.notificationType, nts == GENA.notificationSubtype else {
            throw .preconditionFailed("NT/NTS is not upnp:event/upnp:propchange")
        }
        guard let sid = single(headers, "SID"), GENA.isValidSID(sid) else {
            throw .preconditionFailed("SID is missing or invalid")
        }
        guard let seqText = single(headers, "SEQ"), !seqText.isEmpty, seqText.count <= 10,
            seqText.allSatisfy(\.isASCIIDigit), let seq = UInt32(seqText)
        else { throw .badRequest("SEQ is missing or not a 32-bit number") }
        return GENANotify(sid: sid, seq: seq, properties: try properties(request.body))
    }

    /// The properties of an `e:propertyset` body, in order.
    ///
    /// - Throws: `GENANotifyRefusal` 400 for a body that is not XML within the limits, whose
    ///   root is not a `propertyset`, or that holds anything but `property` elements.
    public static func properties(_ body: some Collection<UInt8>) throws(GENANotifyRefusal) -> [GENAProperty] {
        let root: XMLElement
        do {
            root = try XMLReader.parse(body, limits: limits)
        } catch {
            throw .badRequest("the body is not XML (\(error))")
        }
        guard root.localName == "propertyset" else { throw .badRequest("the body is not an e:propertyset") }
        var properties: [GENAProperty] = []
        for property in root.children {
            guard property.localName == "property" else {
                throw .badRequest("the property set holds a <\(property.name.prefix(64))>")
            }
            for variable in property.children {
                properties.append(GENAProperty(name: String(variable.localName), value: variable.text))
            }
        }
        return properties
    }

    private static func single(_ headers: HTTPHeaders, _ name: String) -> String? {
        let values = headers.values(for: name)
        guard values.count == 1, let value = values.first else { return nil }
        return value.trimmingSpaces
    }

    /// The message as a publisher sends it (the simulated TV, tests): `NOTIFY` to `path` with
    /// the header fields above and a property set holding `properties`.
    public static func request(
        path: String, host: String, sid: String, seq: UInt32, properties: [GENAProperty]
    ) -> HTTPRequest {
        var body = "<?xml version=\"1.0\"?>\n<e:propertyset xmlns:e=\"\(GENA.eventNamespace)\">"
        for property in properties {
            body +=
                "<e:property><\(property.name)>\(XMLEscaping.escapeText(property.value))</\(property.name)></e:property>"
        }
        body += "</e:propertyset>"
        return HTTPRequest(
            method: "NOTIFY", target: path,
            headers: HTTPHeaders([
                ("HOST", host), ("CONTENT-TYPE", "text/xml; charset=\"utf-8\""), ("NT", GENA.notificationType),
                ("NTS", GENA.notificationSubtype), ("SID", sid), ("SEQ", String(seq)),
            ]),
            body: Array(body.utf8))
    }
}
