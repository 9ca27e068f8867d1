/// The page itself: HTML, CSS and JavaScript served at `GET /`, `GET app.css` and `GET app.js`.
/// A placeholder until the page is written; every URL in it is relative.
public enum StatusPageAssets {
    public static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>tv2mqtt</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="stylesheet" href="app.css"></head>
        <body><h1>tv2mqtt</h1><pre id="state">loading…</pre><script src="app.js"></script></body></html>
        """
    public static let css = """
        body { font-family: system-ui, sans-serif; margin: 1rem; }
        @media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } }
        """
    public static let js = """
        fetch("api/state").then(r => r.json()).then(s => {
          document.getElementById("state").textContent = JSON.stringify(s, null, 2);
        });
        """
}
