import Drivers
import TVModel
import TVSimulators
import TestSupport
import Testing

/// `AppIcon.decode`: what a TV's icon answer must be before it is published.
@Suite("App icon decoding", .cpuBound)
struct AppIconDecodeTests {
    let png = RokuSimulator.icon(for: "837", kind: .tv)?.bytes ?? []
    let jpeg = RokuSimulator.icon(for: "12", kind: .tv)?.bytes ?? []

    @Test("PNG and JPEG from the simulator (real 16×16 pictures) decode with their types")
    func real() {
        #expect(AppIcon.decode(png, declaredType: "image/png")?.contentType == "image/png")
        #expect(AppIcon.decode(jpeg, declaredType: "image/jpeg")?.contentType == "image/jpeg")
        // The type comes from the bytes: a header that says JPEG for a PNG does not change it.
        #expect(AppIcon.decode(png, declaredType: "image/jpeg")?.contentType == "image/png")
        #expect(AppIcon.decode(png, declaredType: nil)?.bytes == png)
    }

    @Test("truncated: every prefix shorter than a signature is refused; byte at a time never crashes")
    func truncated() {
        for length in 0..<8 {
            #expect(AppIcon.decode(Array(png.prefix(length)), declaredType: "image/png") == nil, "\(length)")
        }
        var accepted = 0
        for length in 0...jpeg.count where AppIcon.decode(Array(jpeg.prefix(length)), declaredType: nil) != nil {
            accepted += 1
        }
        // From 3 bytes on a JPEG's start is recognised: the bridge passes it on as the TV sent it.
        #expect(accepted == jpeg.count - 2)
    }

    @Test("malformed: not a picture, or a non-image content type, is refused")
    func malformed() {
        #expect(AppIcon.decode(Array("<html>Not Found</html>".utf8), declaredType: "text/html") == nil)
        #expect(AppIcon.decode(Array("<svg/>".utf8), declaredType: "image/svg+xml") == nil)
        #expect(AppIcon.decode(png, declaredType: "text/xml; charset=utf-8") == nil)
        #expect(AppIcon.decode(Array("RIFF\0\0\0\0WAVE".utf8), declaredType: nil) == nil)
    }

    @Test("GIF and WebP are not published under the entity's PNG type: only PNG and JPEG are icons")
    func onlyPNGAndJPEG() {
        #expect(AppIcon.imageType(of: Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == "image/webp")
        #expect(AppIcon.decode(Array("RIFF\0\0\0\0WEBPVP8 ".utf8), declaredType: nil) == nil)
        #expect(AppIcon.decode(Array("GIF89a\u{1}\0".utf8), declaredType: "image/gif") == nil)
        #expect(AppIcon.decode(Array("GIF87a\u{1}\0".utf8), declaredType: "image/png") == nil)
    }

    @Test("oversized: one byte over AppIcon.maxBytes is refused, at the limit it is kept")
    func oversized() {
        let atLimit = png + [UInt8](repeating: 0, count: AppIcon.maxBytes - png.count)
        #expect(AppIcon.decode(atLimit, declaredType: "image/png")?.bytes.count == AppIcon.maxBytes)
        #expect(AppIcon.decode(atLimit + [0], declaredType: "image/png") == nil)
    }
}
