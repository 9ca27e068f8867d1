/// The status page's files, embedded in the binary so the page works offline and behind any
/// proxy: no CDN, no web font, and every URL in them relative to the page.
///
/// Each is a real file beside this one, embedded by the package manager
/// (`resources: [.embedInCode(…)]` in Package.swift), so it can be read and checked as what it
/// is: `html` is `GET /` (`index.html`), `css` is `GET app.css`, `js` is `GET app.js`.
public enum StatusPageAssets {
    /// The page's skeleton: a header with the views, one `<section>` per view that app.js fills.
    /// The views are chosen by the URL's fragment (`#tv/ID`, `#bridge`, `#log`), so they need no
    /// server route and a link to one works behind a proxy.
    public static let html = String(decoding: PackageResources.index_html, as: UTF8.self)
    /// Light and dark by the system's preference, the system's own fonts, one column at phone
    /// width.
    public static let css = String(decoding: PackageResources.app_css, as: UTF8.self)
    /// The page's behaviour, plain JavaScript: reads `api/state`, follows `api/events`
    /// (server-sent events, reconnecting after a bridge restart), renders with `textContent`
    /// only (a TV's name can never become markup) and sends commands to `api/tv/ID/…`; a TV's
    /// own switches and selects are drawn from the `controls` its driver declares.
    public static let js = String(decoding: PackageResources.app_js, as: UTF8.self)

    /// The most the three files may weigh together (issue: under 100 KB in all).
    public static let maxTotalBytes = 100 * 1024

    /// The three files' size in bytes, as served.
    public static var totalBytes: Int { html.utf8.count + css.utf8.count + js.utf8.count }
}
