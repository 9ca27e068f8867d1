extension StatusPageAssets {
    /// Light and dark by the system's preference, the system's own fonts, one column at phone
    /// width.
    public static let css = #"""
        :root {
          --bg: #f6f7f9; --fg: #1c1e21; --muted: #5f6670; --card: #fff; --line: #d8dce2;
          --accent: #0b61c4; --ok: #1a7f37; --bad: #b42318; --warn: #9a6700; --focus: #0b61c4;
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
          color-scheme: light dark;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #16181c; --fg: #e6e8eb; --muted: #9aa3ad; --card: #1f2227; --line: #343941;
            --accent: #6cb0ff; --ok: #4cc26a; --bad: #ff7b72; --warn: #e3b341; --focus: #6cb0ff;
          }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        main:focus { outline: none; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 8px; top: 8px; background: var(--card); padding: 4px 8px; z-index: 2; }
        header {
          display: flex; flex-wrap: wrap; align-items: center; gap: 4px 16px; padding: 8px 16px;
          background: var(--card); border-bottom: 1px solid var(--line);
        }
        header h1 { font-size: 1.2rem; margin: 0; }
        nav { display: flex; gap: 4px; flex: 1; }
        nav a { padding: 6px 10px; border-radius: 6px; text-decoration: none; color: var(--fg); }
        nav a[aria-current="page"] { background: var(--accent); color: var(--card); }
        main { padding: 12px 16px 32px; max-width: 1200px; margin: 0 auto; }
        h2 { margin: 8px 0 12px; font-size: 1.3rem; }
        h3 { margin: 0 0 8px; font-size: 1.05rem; }
        h4 { margin: 12px 0 4px; font-size: .95rem; color: var(--muted); }
        small { color: var(--muted); font-weight: normal; }
        .badge { font-size: .85rem; padding: 2px 8px; border-radius: 10px; border: 1px solid var(--line); }
        .badge.on { color: var(--ok); border-color: var(--ok); }
        .badge.off { color: var(--bad); border-color: var(--bad); }
        #notice { margin: 0; padding: 8px 16px; background: var(--card); border-bottom: 1px solid var(--line); }
        #notice.error { color: var(--bad); }
        .panel, .cards > li {
          background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 12px; margin: 0 0 12px;
        }
        .cards { list-style: none; padding: 0; margin: 0 0 12px; display: grid; gap: 12px;
          grid-template-columns: repeat(auto-fill, minmax(290px, 1fr)); }
        .cards > li { margin: 0; }
        .cards h3 a { text-decoration: none; }
        .cards h3 a:hover { text-decoration: underline; }
        .columns { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); align-items: start; }
        .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; overflow-wrap: anywhere; }
        .yes { color: var(--ok); } .no { color: var(--bad); } .warn { color: var(--warn); }
        label { display: inline-flex; flex-direction: column; gap: 2px; color: var(--muted); font-size: .9rem; }
        .choose label, #volume-panel label { display: flex; flex-direction: row; gap: 8px; }
        input, select, button {
          font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line);
          border-radius: 6px; padding: 6px 10px; min-height: 36px;
        }
        select { min-width: 12em; max-width: 100%; }
        button { cursor: pointer; background: var(--card); }
        button:hover { border-color: var(--accent); }
        button:disabled { opacity: .5; cursor: default; }
        button.danger { color: var(--bad); }
        input[type="range"] { width: 100%; padding: 0; }
        .remote { display: grid; grid-template-columns: repeat(3, 64px); gap: 8px; }
        .remote button { height: 48px; font-size: 1.1rem; line-height: 1.1; }
        .remote button.small { font-size: .85rem; }
        .remote .ok { font-weight: bold; }
        .lines { list-style: none; margin: 0; padding: 0; font: .85rem/1.4 ui-monospace, Menlo, Consolas, monospace; }
        .lines li { padding: 2px 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
        .lines time { color: var(--muted); margin-right: 6px; }
        .level-error, .level-warning { color: var(--bad); }
        .lines li.none { color: var(--muted); }
        #config { max-height: 30em; }
        pre { margin: 0; overflow: auto; font: .85rem/1.4 ui-monospace, Menlo, Consolas, monospace; }
        [hidden] { display: none !important; }
        @media (max-width: 480px) {
          main { padding: 8px; }
          .columns { grid-template-columns: 1fr; }
        }
        """#
}
