/// The status page's files, embedded in the binary so the page works offline and behind any
/// proxy: no CDN, no web font, and every URL in them relative to the page.
///
/// `html` is `GET /`, `css` is `GET app.css`, `js` is `GET app.js`. Each lives in a file of its
/// own beside this one (`StatusPageAssets+HTML.swift`…), as a raw string literal.
public enum StatusPageAssets {
    /// The most the three files may weigh together (issue: under 100 KB in all).
    public static let maxTotalBytes = 100 * 1024

    /// The three files' size in bytes, as served.
    public static var totalBytes: Int { html.utf8.count + css.utf8.count + js.utf8.count }
}
