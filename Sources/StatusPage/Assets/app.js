"use strict";
const MAX_LINES = 200;
const model = { bridge: null, tvs: [], discovery: null, config: null, log: [], events: [] };
let source = null;
let loadedAt = Date.now();
const dirty = new Set();
const $ = (id) => document.getElementById(id);

// ---- small helpers ----
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}
// A list left empty says so, rather than showing nothing.
function replace(node, children) {
  if (children.length === 0 && /^(UL|OL)$/.test(node.tagName) && node.id !== "tv-list") children = [el("li", { class: "none", text: "none" })];
  node.replaceChildren(...children);
}
function toDate(value) {
  if (value === null || value === undefined || value === "") return null;
  const date = typeof value === "number" ? new Date(value > 1e12 ? value : value * 1000) : new Date(value);
  return isNaN(date) ? null : date;
}
function ago(value) {
  const date = toDate(value);
  if (!date) return "—";
  const seconds = Math.round((Date.now() - date) / 1000);
  if (seconds < 5) return "just now";
  if (seconds < 90) return seconds + " s ago";
  if (seconds < 5400) return Math.round(seconds / 60) + " min ago";
  if (seconds < 129600) return Math.round(seconds / 3600) + " h ago";
  return date.toLocaleString();
}
function timeNode(value) {
  const date = toDate(value);
  return el("time", { datetime: date ? date.toISOString() : null, title: date ? date.toLocaleString() : null,
    text: date ? date.toLocaleTimeString() : "—" });
}
function duration(seconds) {
  if (typeof seconds !== "number") return "—";
  const d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600);
  const m = Math.floor(seconds % 3600 / 60), s = Math.floor(seconds % 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : m ? `${m} min ${s} s` : `${s} s`;
}
function show(value) {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value)) return value.map(show).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}: ${show(v)}`).join(", ");
  return String(value);
}
// Never render a secret, whatever the server sends: a value under such a key is masked.
const SECRET = /(token|password|passwd|secret|pin|client_key|psk|cookie|authorization)$/i;
function masked(value, key) {
  if (key && SECRET.test(key) && value !== null && value !== "" && typeof value !== "object") return "••••••";
  if (Array.isArray(value)) return value.map((v) => masked(v));
  if (value && typeof value === "object") {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = masked(v, k);
    return out;
  }
  return value;
}
function facts(node, rows) {
  const children = [];
  for (const [label, value, cls, field] of rows) {
    children.push(el("dt", { text: label }));
    children.push(el("dd", { class: cls, "data-field": field, text: show(value) }));
  }
  replace(node, children);
}
function names(list) {
  if (!Array.isArray(list)) return [];
  return list.map((item) => typeof item === "string" ? item : item && (item.name || item.id || item.number))
    .filter((name) => typeof name === "string" && name !== "");
}
let noticeTimer = null;
function notice(text, error) {
  const node = $("notice");
  node.textContent = text;
  node.className = error ? "error" : "";
  node.hidden = !text;
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => notice(""), error ? 30000 : 8000);
}

// ---- talking to the bridge ----
async function post(path, body) {
  const response = await fetch(path, { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
  if (response.status === 401) { showLogin(); throw new Error("sign in first"); }
  let answer = {};
  try { answer = await response.json(); } catch (_) { /* an empty answer is fine */ }
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}
async function command(path, body, done) {
  try {
    await post(path, body);
    notice(done || "Sent.");
    return true;
  } catch (error) {
    notice(error.message, true);
    return false;
  }
}
const tvPath = (id, action) => `api/tv/${encodeURIComponent(id)}/${action}`;

// The whole state, once at the start and again after every reconnection (nothing missed
// in between stays missing) and every minute (discovery has no live events).
async function load() {
  if (await refresh()) follow();
}
async function refresh() {
  let response;
  try {
    response = await fetch("api/state", { credentials: "same-origin", cache: "no-store" });
  } catch (_) {
    live(false, "bridge unreachable");
    setTimeout(load, 3000);
    return false;
  }
  if (response.status === 401) { showLogin(); return false; }
  if (!response.ok) { live(false, `HTTP ${response.status}`); setTimeout(load, 3000); return false; }
  const state = await response.json();
  Object.assign(model, { bridge: state.bridge, tvs: state.tvs || [], discovery: state.discovery,
    config: state.config, log: (state.log || []).slice(-MAX_LINES), events: (state.events || []).slice(-MAX_LINES) });
  loadedAt = Date.now();
  $("login").hidden = true;
  render();
  return true;
}

function live(on, text) {
  const badge = $("live");
  badge.textContent = text;
  badge.className = "badge " + (on ? "on" : "off");
}

// Server-sent events: the browser reconnects by itself; when it gives up (the bridge
// answered with an error while restarting), start again, and reload the whole state
// after every reconnection so nothing missed in between stays missing.
function follow() {
  if (source) source.close();
  source = new EventSource("api/events");
  let opened = false;
  source.onopen = () => {
    live(true, "live");
    if (opened) refresh(); else opened = true;
  };
  source.onerror = () => {
    live(false, "reconnecting…");
    if (source.readyState === EventSource.CLOSED) { source = null; setTimeout(load, 2000); }
  };
  const on = (type, handle) => source.addEventListener(type, (message) => {
    try { handle(JSON.parse(message.data)); } catch (error) { console.warn(type, error); }
    schedule();
  });
  on("state", (data) => {
    const tv = model.tvs.find((t) => t.id === data.tv);
    if (tv) tv.state = data.state; else refresh();
  });
  on("tv", (data) => {
    const index = model.tvs.findIndex((t) => t.id === data.id);
    if (data.removed) { if (index >= 0) model.tvs.splice(index, 1); }
    else if (index >= 0) model.tvs[index] = data; else model.tvs.push(data);
  });
  on("event", (data) => { model.events.push(data); model.events.splice(0, model.events.length - MAX_LINES); });
  on("log", (data) => { model.log.push(data); model.log.splice(0, model.log.length - MAX_LINES); });
  on("bridge", (data) => {
    const broker = ((model.bridge = model.bridge || {}).broker = model.bridge.broker || {});
    broker.connected = data.connected;
    if (data.change) (broker.history = broker.history || []).push(data.change);
  });
}

function showLogin() {
  if (source) { source.close(); source = null; }
  live(false, "signed out");
  for (const view of document.querySelectorAll("main > section")) view.hidden = view.id !== "login";
  $("login").hidden = false;
  $("login-token").focus();
}

// ---- rendering ----
let pending = false;
function schedule() {
  if (pending) return;
  pending = true;
  setTimeout(() => { pending = false; render(); }, 0);
}

function route() {
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
  if (hash.startsWith("tv/")) return { view: "tv", id: hash.slice(3) };
  if (hash === "bridge" || hash === "log") return { view: hash };
  return { view: "list" };
}

function render() {
  if (!$("login").hidden) return;
  const where = route();
  for (const name of ["list", "tv", "bridge", "log"]) $("view-" + name).hidden = name !== where.view;
  for (const link of document.querySelectorAll("nav a")) {
    const current = link.dataset.view === where.view || (where.view === "tv" && link.dataset.view === "list");
    if (current) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  if (where.view === "list") renderList();
  if (where.view === "tv") renderTV(where.id);
  if (where.view === "bridge") renderBridge();
  if (where.view === "log") renderLog();
}

function availability(tv) {
  return el("span", { class: tv.available ? "yes" : "no", "data-field": "available",
    text: tv.available ? "online" : "offline" });
}

function tvFacts(tv) {
  const s = tv.state || {};
  const power = s.power_mode && String(s.power_mode).toUpperCase() !== s.power ? `${show(s.power)} (${s.power_mode})` : show(s.power);
  const error = tv.last_error && typeof tv.last_error === "object"
    ? `${tv.last_error.message || tv.last_error.type} (${ago(tv.last_error.at)})` : tv.last_error;
  return [
    ["Vendor", tv.manufacturer || tv.kind, null, "kind"], ["Model", tv.model, null, "model"], ["Address", tv.address, null, "address"],
    ["Power", power, s.power === "ON" ? "yes" : null, "power"], ["App", s.app, null, "app"],
    ["Input", s.input, null, "input"], ["Channel", s.channel, null, "channel"],
    ["Volume", s.volume === undefined ? null : s.volume + (s.muted ? " (muted)" : ""), null, "volume"],
    ...(tv.controls || []).map((c) => [c.name, s[c.key], null, c.key]), ["Screen", s.screen, null, "screen"],
    ["Sound output", s.sound_output, null, "sound_output"], ["Pairing", tv.pairing && tv.pairing.replace(/_/g, " "), tv.pairing === "not_paired" ? "warn" : null, "pairing"],
    ["Last seen", ago(tv.last_seen), null, "last_seen"], ["Last error", error, error ? "no" : null, "last_error"],
  ].filter((row) => row[1] !== undefined || ["power", "pairing", "last_error"].includes(row[3]));
}

function renderList() {
  const list = $("tv-list");
  const focused = document.activeElement && document.activeElement.closest("#tv-list [data-tv]");
  const focusedID = focused && focused.dataset.tv;
  $("tv-empty").hidden = model.tvs.length > 0;
  replace(list, model.tvs.map((tv) => {
    const dl = el("dl", { class: "facts" });
    facts(dl, tvFacts(tv));
    return el("li", { "data-tv": tv.id },
      el("h3", null, el("a", { href: "#tv/" + encodeURIComponent(tv.id), text: tv.name || tv.id }), " ", availability(tv)),
      dl);
  }));
  if (focusedID) {
    const again = list.querySelector(`[data-tv="${CSS.escape(focusedID)}"] a`);
    if (again) again.focus();
  }
  const kinds = new Set(model.bridge.kinds || []);
  for (const tv of model.tvs) if (tv.kind) kinds.add(tv.kind);
  replace($("kinds"), [...kinds].map((kind) => el("option", { value: kind })));
}

let shownTV = null;
function fillSelect(select, field, options, current) {
  if (document.activeElement === select || dirty.has(field)) return;
  const values = [...options];
  if (current && !values.includes(current)) values.unshift(current);
  const same = select.options.length === values.length && values.every((v, i) => select.options[i].value === v);
  if (!same) replace(select, values.map((v) => el("option", { value: v, text: v })));
  if (current) select.value = current;
}

function renderTV(id) {
  const tv = model.tvs.find((t) => t.id === id);
  const view = $("view-tv");
  view.dataset.tv = id;
  if (shownTV !== id) { dirty.clear(); shownTV = id; }
  if (!tv) { $("tv-title").textContent = "No TV with the id " + id; $("tv-facts").replaceChildren(); return; }
  const s = tv.state || {}, caps = tv.capabilities || {};
  replace($("tv-title"), [tv.name || tv.id, " ", availability(tv)]);
  facts($("tv-facts"), [["Id", tv.id, null, "id"], ...tvFacts(tv)]);
  drawControls(tv.controls || []);
  for (const [field, list] of [["app", caps.apps], ["input", caps.inputs], ["channel", caps.channelList]]) {
    const form = document.querySelector(`form.choose[data-field="${field}"]`);
    const options = names(list);
    form.hidden = options.length === 0 && !s[field];
    fillSelect($(field + "-select"), field, options, s[field]);
  }
  const hasVolume = caps.volumeLevel !== false && (caps.volumeLevel || s.volume !== undefined);
  $("volume-panel").hidden = !hasVolume;
  if (document.activeElement !== $("volume") && typeof s.volume === "number") $("volume").value = s.volume;
  $("volume-value").textContent = typeof s.volume === "number" ? s.volume : "—";
  $("pair").hidden = !caps.pairing;
  for (const node of document.querySelectorAll("[data-set=power]")) node.hidden = caps.power === false;
  for (const node of document.querySelectorAll("#remote [data-key^=volume], #remote [data-key=mute]")) {
    node.hidden = caps.volumeKeys === false;
  }
  const events = model.events.filter((e) => e.tv === id).slice(-50).reverse();
  replace($("tv-events"), events.map(eventLine));
}

// The switches and selects the TV's driver declares: a button for each value, sent as
// {"<key>": value}; redrawn only when the list changes, so a focused button stays.
function drawControls(controls) {
  const box = $("declared-controls"), drawn = JSON.stringify(controls);
  if (box.dataset.drawn === drawn) return;
  box.dataset.drawn = drawn;
  replace(box, controls.flatMap((c) => c.values.map((value) =>
    el("button", { type: "button", "data-set": c.key, "data-value": value, text: `${c.name} ${value.toLowerCase()}` }))));
}

function eventLine(e) {
  const { at, tv, type, ...rest } = e;
  const extra = Object.keys(rest).length ? " " + show(masked(rest)) : "";
  return el("li", null, timeNode(at), `${tv ? tv + " " : ""}${type || "event"}${extra}`);
}

function renderBridge() {
  const b = model.bridge || {}, broker = b.broker || {};
  const rows = [
    ["Broker", broker.connected ? "connected" : "disconnected", broker.connected ? "yes" : "no", "broker"],
    ["Address", broker.url, null, "broker_url"], ["Version", b.version, null, "version"],
    ["Up for", typeof b.uptime_s === "number" ? duration(b.uptime_s + (Date.now() - loadedAt) / 1000) : null, null, "uptime"],
  ];
  for (const [key, value] of Object.entries(b.counts || {})) rows.push([key.replace(/_/g, " "), value, null, "count_" + key]);
  facts($("bridge-facts"), rows);
  replace($("broker-history"), (broker.history || []).slice().reverse().map((h) =>
    el("li", null, timeNode(h.at), show(h.event))));
  const d = model.discovery || {};
  facts($("discovery-facts"), [["Last search", ago(d.last_search_at), null, "last_search"]]);
  replace($("discovery-answers"), (d.answers || []).slice().reverse().map((a) => el("li", null, timeNode(a.at),
    el("strong", { text: show(a.address) }), ` ${a.kind || "unknown kind"}${a.via ? " via " + a.via : ""}`)));
  replace($("discovery-refusals"), (d.refusals || []).slice().reverse().map((r) =>
    el("li", null, timeNode(r.at), el("strong", { text: show(r.address) }), " — " + show(r.reason))));
  $("config").textContent = JSON.stringify(masked(model.config || {}), null, 2);
}

function renderLog() {
  replace($("events"), model.events.slice().reverse().map(eventLine));
  replace($("log"), model.log.slice().reverse().map((line) =>
    el("li", { class: "level-" + (line.level || "info") }, timeNode(line.at), `${line.level || ""} ${show(line.message)}`)));
}

// ---- controls ----
function currentTV() { return $("view-tv").dataset.tv; }
document.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button || !button.closest("#view-tv")) return;
  const id = currentTV();
  if (button.dataset.key) command(tvPath(id, "set"), { key: button.dataset.key }, `Sent ${button.getAttribute("aria-label")}.`);
  else if (button.dataset.set) command(tvPath(id, "set"), { [button.dataset.set]: button.dataset.value });
  else if (button.id === "pair") {
    // The TV's pairing state has no live event: read it again once the TV had time to answer.
    command(tvPath(id, "pair"), {}, "Pairing: approve on the TV if it asks.").then((ok) => {
      if (ok) for (const delay of [1000, 5000, 30000]) setTimeout(refresh, delay);
    });
  }
  else if (button.id === "remove" && confirm(`Forget ${id}? It comes back if discovery finds it again.`)) {
    command(tvPath(id, "remove"), {}, "Removed.").then((ok) => { if (ok) location.hash = ""; });
  }
});
for (const form of document.querySelectorAll("form.choose")) {
  const field = form.dataset.field, select = form.querySelector("select");
  select.addEventListener("change", () => dirty.add(field));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    dirty.delete(field);
    command(tvPath(currentTV(), "set"), { [field]: select.value });
  });
}
$("volume").addEventListener("input", () => { $("volume-value").textContent = $("volume").value; });
$("volume").addEventListener("change", () =>
  command(tvPath(currentTV(), "set"), { volume: Number($("volume").value) }));
$("add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const body = { host: $("add-address").value.trim() };
  if ($("add-kind").value.trim()) body.kind = $("add-kind").value.trim();
  command("api/tv/add", body, `Adding ${body.host}: it shows here once it answers.`)
    .then((ok) => { if (ok) $("add-address").value = ""; });
});
$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const token = $("login-token");
  const response = await fetch("login", { method: "POST", credentials: "same-origin",
    body: new URLSearchParams({ token: token.value }) });
  token.value = "";
  if (response.ok) { notice(""); $("login").hidden = true; load(); }
  else notice("That token was not accepted.", true);
});
window.addEventListener("hashchange", () => { render(); $("main").focus(); });
// "5 s ago" must keep counting on a page left open.
setInterval(() => { if (!document.hidden) schedule(); }, 10000);
setInterval(() => { if (!document.hidden && source) refresh(); }, 60000);
load();
