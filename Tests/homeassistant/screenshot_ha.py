#!/usr/bin/env python3
"""Takes the README's screenshots of Home Assistant (run through screenshot.sh).

Runs inside the loopback-only network namespace screenshot.sh made. Brings up the stack
verify_ha.py uses (stack.py: mosquitto, a simulated Roku TV, Roku stick and Samsung TV, the
bridge, Home Assistant with the MQTT integration), with the TVs named in a bridge configuration
file so the Roku TV's entity ids are the `living_room` ones examples/homeassistant/ uses. It
switches the Roku TV on with Netflix playing, writes a dashboard (the example remote card and an
entities card for the Samsung TV), and renders with headless Chromium, driven over the DevTools
protocol: the access token from onboarding goes into the frontend's localStorage (`hassTokens`),
so no login page; each page is captured once its text shows our entities.
"""

import argparse
import asyncio
import base64
import json
import os
import signal
import sys
import time

import aiohttp
import yaml

from stack import HOST, ROKU_STICK, ROKU_TV, SAMSUNG_TV, Stack, note, free_port, sim_get, sim_set

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REMOTE_CARD = os.path.join(REPO, "examples", "homeassistant", "remote-card.yaml")
WIDTH, HEIGHT = 1280, 900
MAX_HEIGHT = 2000

# The TVs as a user would configure them; `living_room` is the id the examples use.
BRIDGE_CONFIG = {
    "tvs": [
        {"host": ROKU_TV, "kind": "roku", "id": "living_room", "name": "Living Room TV"},
        {"host": ROKU_STICK, "kind": "roku", "id": "office_stick", "name": "Office Roku Stick"},
        {"host": SAMSUNG_TV, "kind": "samsung", "id": "bedroom", "name": "Bedroom TV"},
    ]
}

# The Samsung TV's entities card on the dashboard.
SAMSUNG_CARD = {
    "type": "entities",
    "title": "Bedroom TV",
    "entities": [
        {"entity": "switch.bedroom_power", "name": "Power"},
        {"entity": "number.bedroom_volume", "name": "Volume"},
        {"entity": "switch.bedroom_mute", "name": "Mute"},
        {"entity": "select.bedroom_input", "name": "Input"},
        {"entity": "select.bedroom_app", "name": "App"},
        {"entity": "binary_sensor.bedroom_connected", "name": "Connected"},
    ],
}

# Every text node of the page, shadow roots included (Home Assistant's UI is web components).
PAGE_TEXT = """(() => {
  const out = [];
  const walk = (node) => {
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) out.push(child.textContent);
      else walk(child);
    }
  };
  walk(document.documentElement);
  return location.pathname + '\\n' + out.join(' ').replace(/\\s+/g, ' ');
})()"""

# Elements that mean "still loading".
SPINNERS = """(() => {
  let found = 0;
  const walk = (node) => {
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.children || []) {
      const tag = child.tagName.toLowerCase();
      if ((tag === 'ha-spinner' || tag === 'ha-circular-progress' || tag === 'hass-loading-screen')
          && child.getClientRects().length) found++;
      walk(child);
    }
  };
  walk(document.documentElement);
  return found;
})()"""

# The lowest bottom edge of any card, in page coordinates.
CARDS_BOTTOM = """(() => {
  let bottom = 0;
  const walk = (node) => {
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.children || []) {
      if (child.tagName.toLowerCase() === 'ha-card') {
        const rect = child.getBoundingClientRect();
        if (rect.height) bottom = Math.max(bottom, rect.bottom);
      }
      walk(child);
    }
  };
  walk(document.documentElement);
  return bottom;
})()"""


class DevTools:
    """A minimal Chrome DevTools protocol client for one page."""

    def __init__(self, session, port):
        self.session = session
        self.port = port
        self.ws = None
        self.next_id = 0

    async def connect(self, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                async with self.session.get(f"http://{HOST}:{self.port}/json/list") as response:
                    targets = await response.json(content_type=None)
                pages = [t for t in targets if t.get("type") == "page"]
                if pages:
                    break
            except (aiohttp.ClientError, ValueError):
                pass
            if time.monotonic() >= deadline:
                raise RuntimeError(f"Chromium's DevTools endpoint did not answer within {timeout} s")
            await asyncio.sleep(0.3)
        self.ws = await self.session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)

    async def send(self, method, **params):
        self.next_id += 1
        wanted = self.next_id
        await self.ws.send_json({"id": wanted, "method": method, "params": params})
        while True:
            message = await self.ws.receive_json(timeout=60)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    async def evaluate(self, expression):
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluate: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    async def navigate(self, url):
        await self.send("Page.navigate", url=url)

    async def wait_for_text(self, wanted, timeout):
        """Waits until the page shows every text in `wanted` and no spinner; returns the text."""
        deadline = time.monotonic() + timeout
        text = ""
        while True:
            try:
                text = await self.evaluate(PAGE_TEXT) or ""
                spinners = await self.evaluate(SPINNERS)
            except RuntimeError:
                text, spinners = "", 1  # between documents
            missing = [w for w in wanted if w not in text]
            if not missing and not spinners:
                return text
            if time.monotonic() >= deadline:
                raise RuntimeError(f"the page never showed {missing} (spinners: {spinners}); it showed: {text[:600]}")
            await asyncio.sleep(0.5)

    async def screenshot(self, path):
        result = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        with open(path, "wb") as file:
            file.write(base64.b64decode(result["data"]))


class Screenshots(Stack):
    def __init__(self, args):
        super().__init__(args.work, args.bin, bridge_config=BRIDGE_CONFIG, ha_name="Home",
                         ha_owner="Demo")
        self.args = args
        self.failed = []

    def check(self, name, ok, detail=""):
        print(("ok   " if ok else "FAIL ") + name + (f" ({detail})" if detail else ""), flush=True)
        if not ok:
            self.failed.append(name)
        return ok

    async def wait_states(self, ha, wanted, timeout=30):
        for entity_id, value in wanted.items():
            actual = await ha.wait_state(entity_id, value, timeout)
            if not self.check(f"{entity_id} is {value!r}", actual == value, f"it is {actual!r}"):
                return False
        return True

    async def dashboard(self, ha):
        """The default dashboard: the example remote card and the Samsung TV's entities."""
        with open(REMOTE_CARD, encoding="utf-8") as file:
            remote = yaml.safe_load(file)
        config = {
            "title": "Home",
            "views": [{"title": "TVs", "path": "tvs", "icon": "mdi:television", "cards": [remote, SAMSUNG_CARD]}],
        }
        await ha.ws_command("lovelace/config/save", config=config)
        saved = await ha.ws_command("lovelace/config")
        self.check("dashboard saved (remote card and the Samsung TV's entities)",
                   saved.get("views", [{}])[0].get("cards") == [remote, SAMSUNG_CARD])

    async def render(self, session, ha, device_id):
        port = free_port()
        profile = os.path.join(self.work, "chromium-profile")
        argv = [
            self.args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
            "--lang=en-US", f"--window-size={WIDTH},{HEIGHT}", "--force-device-scale-factor=1",
            f"--remote-debugging-port={port}", "--remote-debugging-address=127.0.0.1",
            f"--user-data-dir={profile}", "about:blank",
        ]
        self.processes.start("chromium", argv)
        tools = DevTools(session, port)
        await tools.connect()
        await tools.send("Page.enable")
        await tools.send("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1,
                         mobile=False)
        # Log in the way the frontend itself remembers a login: its tokens in localStorage.
        base = f"http://{HOST}:{self.ha_port}"
        await tools.navigate(base + "/manifest.json")
        await asyncio.sleep(1)
        tokens = {
            **ha.tokens,
            "hassUrl": base,
            "clientId": ha.client_id,
            "expires": int(time.time() * 1000) + ha.tokens["expires_in"] * 1000,
        }
        await tools.evaluate(f"localStorage.setItem('hassTokens', {json.dumps(json.dumps(tokens))}); true")

        shots = [
            ("roku-device.png", f"/config/devices/device/{device_id}",
             ["Living Room TV", "Netflix", "Controls", "Sensors"]),
            ("dashboard.png", "/lovelace/tvs", ["Power", "Netflix", "playing", "Bedroom TV", "Volume"]),
        ]
        for name, path, wanted in shots:
            await tools.navigate(base + path)
            try:
                text = await tools.wait_for_text(wanted, 90)
            except RuntimeError as err:
                self.check(f"{path} rendered", False, str(err))
                await tools.screenshot(os.path.join(self.args.out, "failed-" + name))
                continue
            self.check(f"{path} rendered", "Log in" not in text and "Welcome home" not in text,
                       f"shows {', '.join(wanted)}")
            await asyncio.sleep(2)  # animations, icons, the slider settle
            # As tall as the cards need (the page scrolls inside its own container, so a
            # screenshot "beyond the viewport" would not show more): 900 px or more.
            bottom = await tools.evaluate(CARDS_BOTTOM) or HEIGHT
            height = max(HEIGHT, min(MAX_HEIGHT, int(bottom) + 24))
            await tools.send("Emulation.setDeviceMetricsOverride", width=WIDTH, height=height, deviceScaleFactor=1,
                             mobile=False)
            await asyncio.sleep(2)
            await tools.screenshot(os.path.join(self.args.out, name))
            await tools.send("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1,
                             mobile=False)
            note(f"wrote {os.path.join(self.args.out, name)}")
        await tools.ws.close()

    async def run(self):
        timeout = aiohttp.ClientTimeout(total=120)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            if not self.start_mosquitto() or not self.start_simulators():
                return
            self.start_bridge()
            if not await self.wait_bridge():
                return
            # The Roku TV on, Netflix in front and playing; the Samsung TV at a sensible volume.
            await sim_set(session, ROKU_TV, {"power": "on", "app": "12", "media_state": "play"})
            await sim_set(session, SAMSUNG_TV, {"power": "on", "volume": 18, "muted": False})
            note(f"Roku TV: {await sim_get(session, ROKU_TV)}")
            ha = await self.start_home_assistant(session)
            if ha is None:
                return
            ok = await self.wait_states(ha, {
                "switch.living_room_power": "on",
                "sensor.living_room_current_app": "Netflix",
                "select.living_room_app": "Netflix",
                "sensor.living_room_media_state": "playing",
                "switch.bedroom_power": "on",
                "number.bedroom_volume": "18",
            })
            if not ok:
                return
            devices = await ha.devices()
            roku = [d for d in devices if ["mqtt", "tv2mqtt_living_room"] in d["identifiers"]]
            if not self.check("Home Assistant has the Roku TV's device", len(roku) == 1, f"{len(roku)} found"):
                return
            await self.dashboard(ha)
            await self.render(session, ha, roku[0]["id"])
            await ha.ws.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True, help="a fresh temporary directory")
    parser.add_argument("--bin", required=True, help="directory holding tv2mqtt and tvsim")
    parser.add_argument("--out", required=True, help="directory for the PNG files")
    parser.add_argument("--chromium", default="chromium", help="the Chromium executable")
    args = parser.parse_args()
    shots = Screenshots(args)

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        asyncio.run(shots.run())
    except KeyboardInterrupt:
        shots.check("run completed", False, "interrupted")
    except Exception as err:  # noqa: BLE001
        import traceback

        traceback.print_exc()
        shots.check("run completed", False, f"{type(err).__name__}: {err}")
    finally:
        shots.processes.stop_all()
    return 1 if shots.failed else 0


if __name__ == "__main__":
    sys.exit(main())
