import Net
import Wire

/// `GET /query/icon/<app id>`: a channel's icon with its `Content-Type` (ECP reference,
/// "query/icon"); inputs and the home screen have none (404). Real 16×16 pictures: Netflix
/// answers a JPEG, every other channel a PNG, so a client sees both types.
extension RokuSimulator {
    static let pngIcon =
        (try? Base64.decode(
            "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAK0lEQVR42mNM053IQApgYiAR0F4DCzJn5qU8rIrS9SYNZj8MBw2MwyAtAQAvywVpxuehEwAAAABJRU5ErkJggg=="
        )) ?? []
    static let jpegIcon =
        (try? Base64.decode(
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAQABADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwCr8Lvh9/wnf9p/8TP7B9i8r/l383fv3/7S4xs9+tHxR+H3/CCf2Z/xM/t/23zf+XfytmzZ/tNnO/26UfC74g/8IJ/af/Es+3/bfK/5ePK2bN/+y2c7/bpR8UfiD/wnf9mf8Sz7B9i83/l483fv2f7K4xs9+teJ+59j/e+ff7tj9d/4VP7U/wCof/t3+X/wL4v6sf/Z"
        )) ?? []

    /// The icon a channel answers, and its content type; nil for inputs, the home screen and
    /// unknown ids.
    public static func icon(for appID: String, kind: RokuDeviceKind) -> (bytes: [UInt8], contentType: String)? {
        guard let app = RokuCatalog.app(appID, kind: kind), app.type == "appl" else { return nil }
        return appID == "12" ? (jpegIcon, "image/jpeg") : (pngIcon, "image/png")
    }

    func answerIcon(_ appID: String, method: String) -> SimHTTPReply {
        guard method == "GET" else { return SimHTTPReply(SimResponse.methodNotAllowed) }
        core.withLock { $0.iconRequests += 1 }
        guard let icon = Self.icon(for: appID, kind: kind) else { return SimHTTPReply(SimResponse.plain(404, "")) }
        var response = HTTPResponse(status: 200, body: icon.bytes)
        response.headers.set(name: "Content-Type", value: icon.contentType)
        return SimHTTPReply(response)
    }

    /// How many icons were asked for (a client should fetch each app's icon once).
    public var iconRequestCount: Int { core.withLock { $0.iconRequests } }
}
