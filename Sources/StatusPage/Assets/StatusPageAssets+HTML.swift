extension StatusPageAssets {
    /// The page's skeleton: a header with the views, one `<section>` per view that app.js fills.
    /// The views are chosen by the URL's fragment (`#tv/ID`, `#bridge`, `#log`), so they need no
    /// server route and a link to one works behind a proxy.
    public static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="referrer" content="no-referrer">
        <title>tv2mqtt</title>
        <link rel="stylesheet" href="app.css">
        <script src="app.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <h1>tv2mqtt</h1>
          <nav aria-label="Views">
            <a href="#" data-view="list">TVs</a>
            <a href="#bridge" data-view="bridge">Bridge</a>
            <a href="#log" data-view="log">Log</a>
          </nav>
          <span id="live" class="badge" role="status">connecting…</span>
        </header>
        <p id="notice" role="status" aria-live="polite" hidden></p>
        <main id="main" tabindex="-1">
          <section id="login" hidden aria-labelledby="login-title">
            <h2 id="login-title">Sign in</h2>
            <p>This bridge asks for its status page token (<code>http.token</code>).</p>
            <form id="login-form">
              <label for="login-token">Token</label>
              <input id="login-token" name="token" type="password" autocomplete="current-password" required>
              <button type="submit">Sign in</button>
            </form>
          </section>

          <section id="view-list" hidden aria-labelledby="list-title">
            <h2 id="list-title">TVs</h2>
            <p id="tv-empty" hidden>No TV yet. The bridge finds TVs on its network by itself, or add one by address.</p>
            <ul id="tv-list" class="cards"></ul>
            <form id="add-form" class="panel" aria-labelledby="add-title">
              <h3 id="add-title">Add a TV by address</h3>
              <div class="row">
                <label>Address <input id="add-address" name="address" required placeholder="192.168.1.20" title="an IP address, optionally with :port" autocomplete="off" spellcheck="false"></label>
                <label>Kind <input id="add-kind" name="kind" list="kinds" placeholder="found out" autocomplete="off" spellcheck="false"></label>
                <button type="submit">Add</button>
              </div>
              <datalist id="kinds"></datalist>
            </form>
          </section>

          <section id="view-tv" hidden aria-labelledby="tv-title">
            <p><a href="#">← All TVs</a></p>
            <h2 id="tv-title">TV</h2>
            <div class="columns">
              <dl id="tv-facts" class="facts"></dl>
              <div>
                <div class="panel">
                  <h3>Power</h3>
                  <div class="row">
                    <button type="button" data-set="power" data-value="ON">On</button>
                    <button type="button" data-set="power" data-value="OFF">Off</button>
                    <span id="declared-controls" class="row"></span>
                  </div>
                </div>
                <div class="panel">
                  <h3 id="remote-title">Remote</h3>
                  <div id="remote" class="remote" role="group" aria-labelledby="remote-title">
                    <button type="button" data-key="back" aria-label="Back">↩</button>
                    <button type="button" data-key="up" aria-label="Up">▲</button>
                    <button type="button" data-key="home" aria-label="Home">⌂</button>
                    <button type="button" data-key="left" aria-label="Left">◀</button>
                    <button type="button" data-key="select" aria-label="Select" class="ok">OK</button>
                    <button type="button" data-key="right" aria-label="Right">▶</button>
                    <button type="button" data-key="volume_down" class="small" aria-label="Volume down">Vol −</button>
                    <button type="button" data-key="down" aria-label="Down">▼</button>
                    <button type="button" data-key="volume_up" class="small" aria-label="Volume up">Vol +</button>
                    <button type="button" data-key="mute" class="small" aria-label="Mute toggle">Mute</button>
                    <button type="button" data-key="play_pause" class="small" aria-label="Play/pause">Play/<wbr>Pause</button>
                  </div>
                </div>
                <form class="panel choose" data-field="app">
                  <label for="app-select">App</label>
                  <div class="row"><select id="app-select"></select><button type="submit">Open</button></div>
                </form>
                <form class="panel choose" data-field="input">
                  <label for="input-select">Input</label>
                  <div class="row"><select id="input-select"></select><button type="submit">Switch</button></div>
                </form>
                <form class="panel choose" data-field="channel">
                  <label for="channel-select">Channel</label>
                  <div class="row"><select id="channel-select"></select><button type="submit">Tune</button></div>
                </form>
                <div class="panel" id="volume-panel">
                  <label for="volume">Volume <output id="volume-value" for="volume"></output></label>
                  <input id="volume" type="range" min="0" max="100" step="1">
                </div>
                <div class="panel row">
                  <button type="button" id="pair">Pair</button>
                  <button type="button" id="remove" class="danger">Remove…</button>
                </div>
              </div>
            </div>
            <h3>Events of this TV</h3>
            <ol id="tv-events" class="lines" reversed></ol>
          </section>

          <section id="view-bridge" hidden aria-labelledby="bridge-title">
            <h2 id="bridge-title">Bridge</h2>
            <div class="columns">
              <div class="panel">
                <h3>Broker</h3>
                <dl id="bridge-facts" class="facts"></dl>
                <h4>History</h4>
                <ol id="broker-history" class="lines" reversed></ol>
              </div>
              <div class="panel">
                <h3>Discovery</h3>
                <dl id="discovery-facts" class="facts"></dl>
                <h4>Answers</h4>
                <ul id="discovery-answers" class="lines"></ul>
                <h4>Refused</h4>
                <ul id="discovery-refusals" class="lines"></ul>
              </div>
            </div>
            <div class="panel">
              <h3>Configuration <small>(secrets masked)</small></h3>
              <pre id="config" tabindex="0" aria-label="Configuration in effect, secrets masked"></pre>
            </div>
          </section>

          <section id="view-log" hidden aria-labelledby="log-title">
            <h2 id="log-title">Log and events</h2>
            <div class="columns">
              <div>
                <h3>Events</h3>
                <ol id="events" class="lines" reversed></ol>
              </div>
              <div>
                <h3>Log <small>(the last 200 lines)</small></h3>
                <ol id="log" class="lines" reversed></ol>
              </div>
            </div>
          </section>
        </main>
        </body>
        </html>
        """#
}
