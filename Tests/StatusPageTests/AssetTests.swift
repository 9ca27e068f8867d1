import StatusPage
import Testing

/// The page's files as embedded: small, self-contained, and every URL in them relative.
@Suite("status page assets")
struct AssetTests {
    @Test("html, css and js weigh under 100 KB together")
    func size() {
        let total = StatusPageAssets.totalBytes
        print("status page assets: \(total) bytes (limit \(StatusPageAssets.maxTotalBytes))")
        #expect(total < StatusPageAssets.maxTotalBytes)
    }

    @Test("no absolute URL, CDN or web font: the page works offline and under a path prefix")
    func relativeOnly() {
        let all = [StatusPageAssets.html, StatusPageAssets.css, StatusPageAssets.js]
        for text in all {
            for outside in ["http://", "https://", "//cdn", "@import", "@font-face", "url("] {
                #expect(!text.contains(outside), "found \(outside)")
            }
            // An absolute path would leave a proxy's or Home Assistant ingress's prefix.
            for absolute in ["href=\"/", "src=\"/", "action=\"/", "fetch(\"/", "EventSource(\"/", "post(\"/"] {
                #expect(!text.contains(absolute), "found \(absolute)")
            }
        }
        #expect(StatusPageAssets.html.contains("href=\"app.css\""))
        #expect(StatusPageAssets.html.contains("src=\"app.js\""))
    }

    @Test("the page renders data with textContent only, never as markup")
    func noMarkupFromData() {
        #expect(!StatusPageAssets.js.contains("innerHTML"))
        #expect(!StatusPageAssets.js.contains("outerHTML"))
        #expect(!StatusPageAssets.js.contains("insertAdjacentHTML"))
        #expect(!StatusPageAssets.js.contains("document.write"))
    }
}
