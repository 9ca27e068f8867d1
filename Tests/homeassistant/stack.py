#!/usr/bin/env python3
"""The test stack verify_ha.py and screenshot_ha.py share: starts mosquitto, simulated TVs,
the bridge and Home Assistant, and talks to Home Assistant.

Runs inside the loopback-only network namespace verify.sh or screenshot.sh made (see
README.md). Every process goes through `Processes`, which ends them (SIGTERM, then SIGKILL) and
lists their PIDs in WORK/pids.
"""

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time

import aiohttp
import paho.mqtt.client as mqtt

HOST = "127.0.0.1"
BASE = "tv2mqtt"
PREFIX = "homeassistant"
ROKU_TV = "127.0.0.2"
ROKU_STICK = "127.0.0.3"
SAMSUNG_TV = "127.0.0.4"
# A Samsung The Frame (`tvsim samsung --frame`): the art_mode switch.
FRAME_TV = "127.0.0.5"
FRAME_NAME = "Gallery"
# The name `tvsim samsung` is started with (it reports it as the TV's name).
SAMSUNG_NAME = "Bedroom"
# A pre-2016 Samsung (`tvsim samsung --legacy`): the legacy remote on 55000, no HTTP API.
SAMSUNG_LEGACY_TV = "127.0.0.6"
SAMSUNG_LEGACY_NAME = "Old TV"
# An LG webOS TV (`tvsim lg`) on LG's own ports: SSAP on 3001 (TLS) and 3000, /sim/state on 3000.
LG_TV = "127.0.0.7"
LG_NAME = "Kitchen"
# The port of each simulator's HTTP API (and /sim/state): Roku ECP, Samsung REST; the legacy
# Samsung's remote port (it has no /sim/state).
# An Android TV (`tvsim androidtv`) on its own ports: the remote protocol on 6466, pairing on
# 6467, /sim/state on 6468.
ANDROID_TV = "127.0.0.10"
ANDROID_NAME = "Den"
SIM_PORT = {"roku": 8060, "samsung": 8001, "samsung-legacy": 55000, "lg": 3001, "androidtv": 6466}
POLL_INTERVAL = 2


def note(message):
    print(f"  .. {message}", flush=True)


def free_port(kind=socket.SOCK_STREAM, host=HOST):
    with socket.socket(socket.AF_INET, kind) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class Processes:
    """Children, each with its own log file; their PIDs go to WORK/pids for verify.sh."""

    def __init__(self, work):
        self.work = work
        self.children = []

    def start(self, name, argv, **kwargs):
        log = open(os.path.join(self.work, f"{name}.out"), "ab")
        process = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True, **kwargs
        )
        log.close()
        self.children.append((name, process))
        with open(os.path.join(self.work, "pids"), "a", encoding="utf-8") as file:
            file.write(f"{process.pid} {name}\n")
        return process

    def stop(self, process, timeout=15):
        if process.poll() is not None:
            return process.returncode
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait()

    def stop_all(self):
        for name, process in reversed(self.children):
            self.stop(process)


def mqtt_client(client_id):
    """A paho client: paho 2 (Home Assistant 2025.4) wants the callback API version named; the
    paho 1.6 of 2024.3 has none. on_connect callbacks take (client, userdata, flags, *rest)."""
    if hasattr(mqtt, "CallbackAPIVersion"):
        return mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)
    return mqtt.Client(client_id=client_id)


def read_retained(port, topics, seconds=2.0):
    """Every retained message under `topics` on the broker: {topic: payload text}."""
    messages = {}
    client = mqtt_client(f"verify-{os.getpid()}-{time.time()}")

    def on_connect(client, userdata, flags, *rest):
        for topic in topics:
            client.subscribe(topic, qos=1)

    def on_message(client, userdata, message):
        if message.retain:
            messages[message.topic] = message.payload.decode("utf-8", "replace")

    client.on_connect = on_connect
    client.on_message = on_message
    client.connect(HOST, port, 30)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        client.loop(0.1)
    client.disconnect()
    return messages



class HomeAssistant:
    def __init__(self, session, port, owner="Verify"):
        self.session = session
        self.owner = owner  # the owner's display name; the user name is it in lower case
        self.port = port
        self.url = f"http://{HOST}:{port}"
        self.client_id = f"http://{HOST}:{port}/"
        self.token = None
        self.tokens = None
        self.ws = None
        self.ws_id = 0

    @property
    def headers(self):
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def request(self, method, path, expect=(200,), **kwargs):
        async with self.session.request(method, self.url + path, headers=self.headers, **kwargs) as response:
            text = await response.text()
            if response.status not in expect:
                raise RuntimeError(f"{method} {path}: HTTP {response.status}: {text[:300]}")
            try:
                return json.loads(text) if text else None
            except ValueError:
                return text

    async def wait_http(self, timeout, process):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"hass exited with status {process.returncode}")
            try:
                return await self.request("GET", "/api/onboarding")
            except (aiohttp.ClientError, RuntimeError, asyncio.TimeoutError):
                await asyncio.sleep(1)
        raise RuntimeError(f"Home Assistant's HTTP API did not answer within {timeout} s")

    async def onboard(self):
        """Onboarding as the frontend does it: the owner, then core config, analytics, integration."""
        steps = await self.request("GET", "/api/onboarding")
        done = {step["step"] for step in steps if step["done"]}
        if "user" in done:
            raise RuntimeError("already onboarded (a fresh config directory was expected)")
        answer = await self.request(
            "POST",
            "/api/onboarding/users",
            json={
                "client_id": self.client_id,
                "name": self.owner,
                "username": self.owner.lower(),
                "password": "verify-tv2mqtt-" + os.urandom(8).hex(),
                "language": "en",
            },
        )
        tokens = await self.request(
            "POST",
            "/auth/token",
            data={"grant_type": "authorization_code", "code": answer["auth_code"], "client_id": self.client_id},
        )
        self.tokens = tokens  # access_token, refresh_token, expires_in, token_type
        self.token = tokens["access_token"]
        await self.request("POST", "/api/onboarding/core_config", json={})
        await self.request("POST", "/api/onboarding/analytics", json={})
        await self.request(
            "POST",
            "/api/onboarding/integration",
            json={"client_id": self.client_id, "redirect_uri": self.client_id + "?auth_callback=1"},
        )
        steps = await self.request("GET", "/api/onboarding")
        return [step["step"] for step in steps if not step["done"]]

    async def wait_running(self, timeout):
        deadline = time.monotonic() + timeout
        state = None
        while time.monotonic() < deadline:
            state = (await self.request("GET", "/api/config")).get("state")
            if state == "RUNNING":
                return state
            await asyncio.sleep(1)
        return state

    async def add_mqtt(self, broker_port):
        flow = await self.request(
            "POST", "/api/config/config_entries/flow", json={"handler": "mqtt", "show_advanced_options": False}
        )
        if flow.get("type") != "form" or flow.get("step_id") != "broker":
            raise RuntimeError(f"unexpected first step of the mqtt flow: {flow}")
        result = await self.request(
            "POST", f"/api/config/config_entries/flow/{flow['flow_id']}", json={"broker": HOST, "port": broker_port}
        )
        if result.get("type") != "create_entry":
            raise RuntimeError(f"mqtt flow did not create an entry: {result}")
        return result["result"]

    async def mqtt_options(self, entry_id, broker_port):
        """The discovery settings, read from the defaults of the options flow's form."""
        flow = await self.request("POST", "/api/config/config_entries/options/flow", json={"handler": entry_id})
        if flow.get("step_id") == "broker":
            # Before 2024.11 the options flow opens with the broker settings; the same ones lead
            # to the discovery settings. Nothing is saved until the flow finishes.
            flow = await self.request(
                "POST", f"/api/config/config_entries/options/flow/{flow['flow_id']}",
                json={"broker": HOST, "port": broker_port})
        settings = {}
        for field in flow.get("data_schema", []):
            if field.get("name") in ("discovery", "discovery_prefix"):
                settings[field["name"]] = field.get("default")
        await self.request("DELETE", f"/api/config/config_entries/options/flow/{flow['flow_id']}")
        return settings

    async def ws_connect(self):
        self.ws = await self.session.ws_connect(f"ws://{HOST}:{self.port}/api/websocket")
        hello = await self.ws.receive_json()
        assert hello["type"] == "auth_required", hello
        await self.ws.send_json({"type": "auth", "access_token": self.token})
        answer = await self.ws.receive_json()
        if answer["type"] != "auth_ok":
            raise RuntimeError(f"websocket auth: {answer}")

    async def ws_command(self, kind, **fields):
        self.ws_id += 1
        await self.ws.send_json({"id": self.ws_id, "type": kind, **fields})
        while True:
            answer = await self.ws.receive_json(timeout=30)
            if answer.get("id") == self.ws_id and answer.get("type") == "result":
                if not answer.get("success"):
                    raise RuntimeError(f"{kind}: {answer.get('error')}")
                return answer["result"]

    async def devices(self):
        return await self.ws_command("config/device_registry/list")

    async def entities(self):
        return await self.ws_command("config/entity_registry/list")

    async def states(self):
        return {state["entity_id"]: state for state in await self.request("GET", "/api/states")}

    async def state(self, entity_id):
        answer = await self.request("GET", f"/api/states/{entity_id}", expect=(200, 404))
        return answer if isinstance(answer, dict) and "state" in answer else None  # 404: {"message": ...}

    async def call(self, domain, service, **data):
        return await self.request("POST", f"/api/services/{domain}/{service}", json=data)

    async def wait_state(self, entity_id, wanted, timeout):
        """Waits until the entity's state is `wanted` (a value or a predicate); returns the last."""
        accept = wanted if callable(wanted) else (lambda value: value == wanted)
        deadline = time.monotonic() + timeout
        value = None
        while True:
            state = await self.state(entity_id)
            value = state["state"] if state else None
            if accept(value) or time.monotonic() >= deadline:
                return value
            await asyncio.sleep(0.5)



class SimulatorLog:
    """The JSON lines a tvsim writes, read incrementally."""

    def __init__(self, path):
        self.path = path
        self.offset = 0
        self.events = []

    def poll(self):
        try:
            with open(self.path, "rb") as file:
                file.seek(self.offset)
                data = file.read()
        except FileNotFoundError:
            return
        end = data.rfind(b"\n") + 1
        self.offset += end
        for line in data[:end].splitlines():
            try:
                self.events.append(json.loads(line))
            except ValueError:
                pass

    def mark(self):
        self.poll()
        return len(self.events)

    async def wait(self, since, predicate, timeout):
        """The events after `since` once `predicate(events)` is true, or None at the timeout."""
        deadline = time.monotonic() + timeout
        while True:
            self.poll()
            events = self.events[since:]
            if predicate(events):
                return events
            if time.monotonic() >= deadline:
                return None
            await asyncio.sleep(0.2)

    def since(self, mark):
        self.poll()
        return self.events[mark:]



def write_mosquitto_config(work, port):
    path = os.path.join(work, "mosquitto.conf")
    lines = [
        f"listener {port} {HOST}",
        "allow_anonymous true",
        "persistence false",
        f"log_dest file {work}/mosquitto.log",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        "connection_messages true",
    ]
    if os.geteuid() == 0:
        lines.append("user root")  # else mosquitto switches to `mosquitto`, who cannot write the log
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    return path


def write_ha_config(config_dir, port, name="tv2mqtt verify", extra=""):
    """A minimal configuration.yaml; `extra` is appended (top-level keys)."""
    os.makedirs(config_dir, exist_ok=True)
    text = f"""# Written by Tests/homeassistant/stack.py. Deliberately no default_config: it would
# load zeroconf, ssdp, dhcp and other network scanners.
homeassistant:
  name: {name}
  unit_system: metric
  time_zone: UTC
  latitude: 0
  longitude: 0
  elevation: 0
  currency: EUR
  country: DE
  language: en
http:
  server_host: {HOST}
  server_port: {port}
api:
config:
onboarding:
logger:
  default: warning
  logs:
    homeassistant.components.mqtt: warning
""" + extra
    with open(os.path.join(config_dir, "configuration.yaml"), "w", encoding="utf-8") as file:
        file.write(text)


def wait_tcp(host, port, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, port), 0.5).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False



def sim_url(host):
    if host == LG_TV:
        return f"http://{host}:3000/sim/state"
    if host == ANDROID_TV:
        return f"http://{host}:6468/sim/state"
    return f"http://{host}:{SIM_PORT['samsung' if host in (SAMSUNG_TV, FRAME_TV) else 'roku']}/sim/state"


async def sim_get(session, host):
    async with session.get(sim_url(host)) as response:
        return await response.json(content_type=None)


async def sim_set(session, host, state):
    async with session.post(sim_url(host), json=state) as response:
        if response.status >= 300:
            raise RuntimeError(f"POST /sim/state {state} on {host}: HTTP {response.status}")



class Stack:
    """Starts the pieces in WORK; a subclass gives `check(name, ok, detail)`, which reports a step.

    `bridge_config`: the bridge's configuration file (a dict, written to WORK) with the TVs
    in its `tvs` list instead of one `--tv` per simulator.
    `discovery`: the bridge's `homeassistant.discovery` (`device`, its default, or `entity`,
    for Home Assistant before 2024.11), set in its configuration file.
    """

    def __init__(self, work, bin_dir, bridge_only=False, bridge_config=None, ha_name="tv2mqtt verify",
                 ha_owner="Verify", ha_extra_config="", discovery="device"):
        self.work = work
        self.bin = bin_dir
        self.bridge_only = bridge_only
        self.bridge_config = bridge_config
        self.discovery = discovery
        self.ha_name = ha_name
        self.ha_owner = ha_owner
        self.ha_extra_config = ha_extra_config
        self.processes = Processes(self.work)
        self.mqtt_port = free_port()
        self.ha_port = free_port()
        self.config_dir = os.path.join(self.work, "ha-config")
        self.sims = {}  # host -> {"process", "log", "kind", "vendor", "wol_port"}
        self.bridge = None
        self.tvs = {}  # host -> tv id

    def check(self, name, ok, detail=""):
        raise NotImplementedError

    # --- starting things -------------------------------------------------------------------

    def start_mosquitto(self):
        config = write_mosquitto_config(self.work, self.mqtt_port)
        process = self.processes.start("mosquitto", ["mosquitto", "-c", config])
        ok = wait_tcp(HOST, self.mqtt_port, 10)
        self.check("mosquitto listens", ok, f"{HOST}:{self.mqtt_port}")
        return ok and process.poll() is None

    def start_simulators(self):
        for host, kind in ((ROKU_TV, "tv"), (ROKU_STICK, "stick")):
            log = os.path.join(self.work, f"tvsim-{host}.jsonl")
            wol_port = free_port(socket.SOCK_DGRAM, host)
            argv = [
                os.path.join(self.bin, "tvsim"), "roku", "--host", host, "--port", "8060", "--kind", kind,
                "--ssdp-port", str(free_port(socket.SOCK_DGRAM, host)), "--wol-port", str(wol_port), "--log", log,
            ]
            process = self.processes.start(f"tvsim-{host}", argv)
            self.sims[host] = {
                "process": process, "log": SimulatorLog(log), "kind": kind, "vendor": "roku", "wol_port": wol_port,
            }
        roku = [host for host, sim in self.sims.items() if sim["vendor"] == "roku"]
        ok = all(wait_tcp(host, 8060, 20) for host in roku)
        self.check("simulated Roku TV and stick listen", ok, ", ".join(f"{h}:8060" for h in roku))

        samsung_ok = True
        samsungs = [(SAMSUNG_TV, SAMSUNG_NAME, [])]
        if self.bridge_config is None:  # the verification; the screenshots configure their own TVs
            samsungs.append((FRAME_TV, FRAME_NAME, ["--frame"]))
        for host, name, extra in samsungs:
            log = os.path.join(self.work, f"tvsim-{host}.jsonl")
            wol_port = free_port(socket.SOCK_DGRAM, host)
            argv = [
                os.path.join(self.bin, "tvsim"), "samsung", "--host", host, "--port-ws", "8001",
                "--port-wss", "8002", "--port-upnp", "9197", "--name", name, "--pairing", "accept",
                "--wol-port", str(wol_port), "--log", log, *extra,
            ]
            process = self.processes.start(f"tvsim-{host}", argv)
            self.sims[host] = {
                "process": process, "log": SimulatorLog(log), "kind": "tv", "vendor": "samsung", "wol_port": wol_port,
            }
            listens = all(wait_tcp(host, port, 20) for port in (8001, 8002, 9197))
            what = "The Frame" if extra else "Samsung TV"
            self.check(f"simulated {what} listens", listens, f"{host}:8001, 8002, 9197")
            samsung_ok = samsung_ok and listens
        legacy_ok = True
        if self.bridge_config is None:  # the verification only, as the Frame
            host = SAMSUNG_LEGACY_TV
            log = os.path.join(self.work, f"tvsim-{host}.jsonl")
            argv = [
                os.path.join(self.bin, "tvsim"), "samsung", "--legacy", "--host", host, "--name", SAMSUNG_LEGACY_NAME,
                "--pairing", "accept", "--log", log,
            ]
            process = self.processes.start(f"tvsim-{host}", argv)
            # No Wake-on-LAN listener (a legacy TV has none); the bridge's target port is unused.
            self.sims[host] = {
                "process": process, "log": SimulatorLog(log), "kind": "tv", "vendor": "samsung-legacy",
                "wol_port": free_port(socket.SOCK_DGRAM, host),
            }
            legacy_ok = wait_tcp(host, SIM_PORT["samsung-legacy"], 20)
            self.check("simulated pre-2016 Samsung TV listens", legacy_ok, f"{host}:55000")
            host = LG_TV
            log = os.path.join(self.work, f"tvsim-{host}.jsonl")
            wol_port = free_port(socket.SOCK_DGRAM, host)
            argv = [
                os.path.join(self.bin, "tvsim"), "lg", "--host", host, "--name", LG_NAME, "--wol-port", str(wol_port),
                "--log", log,
            ]
            process = self.processes.start(f"tvsim-{host}", argv)
            self.sims[host] = {
                "process": process, "log": SimulatorLog(log), "kind": "tv", "vendor": "lg", "wol_port": wol_port,
            }
            lg_ok = all(wait_tcp(host, port, 20) for port in (3000, 3001))
            self.check("simulated LG TV listens", lg_ok, f"{host}:3000, 3001")
            host = ANDROID_TV
            log = os.path.join(self.work, f"tvsim-{host}.jsonl")
            wol_port = free_port(socket.SOCK_DGRAM, host)
            argv = [
                os.path.join(self.bin, "tvsim"), "androidtv", "--host", host, "--name", ANDROID_NAME,
                "--wol-port", str(wol_port), "--log", log,
            ]
            process = self.processes.start(f"tvsim-{host}", argv)
            self.sims[host] = {
                "process": process, "log": SimulatorLog(log), "kind": "tv", "vendor": "androidtv", "wol_port": wol_port,
            }
            android_ok = all(wait_tcp(host, port, 20) for port in (6466, 6467, 6468))
            self.check("simulated Android TV listens", android_ok, f"{host}:6466, 6467, 6468")
            legacy_ok = legacy_ok and lg_ok and android_ok
        return ok and samsung_ok and legacy_ok

    def start_bridge(self):
        argv = [
            os.path.join(self.bin, "tv2mqtt"), "run", "--mqtt-server", f"mqtt://{HOST}:{self.mqtt_port}",
            "--state-dir", os.path.join(self.work, "bridge-state"), "--no-ssdp", "--no-mdns",
            "--poll-interval", str(POLL_INTERVAL), "--log-level", "debug",
            # The simulated TVs verify_issue17.py adds with tv/add are on loopback addresses.
            "--add-tv-allow-loopback",
        ]
        config = dict(self.bridge_config or {})
        if self.discovery != "device":
            config["homeassistant"] = dict(config.get("homeassistant", {}), discovery=self.discovery)
        if config:
            path = os.path.join(self.work, "tv2mqtt.json")
            with open(path, "w", encoding="utf-8") as file:
                json.dump(config, file, indent=2)
            argv += ["--config", path]
        for host, sim in self.sims.items():
            if self.bridge_config is None:
                argv += ["--tv", f"{sim['vendor']}:{host}:{SIM_PORT[sim['vendor']]}"]
            argv += ["--wol-target", f"{host}:{sim['wol_port']}"]
        self.bridge = self.processes.start("tv2mqtt", argv)

    async def wait_bridge(self):
        deadline = time.monotonic() + 60
        retained = {}
        while time.monotonic() < deadline:
            if self.bridge.poll() is not None:
                self.check("bridge runs", False, f"tv2mqtt exited with status {self.bridge.returncode}")
                return False
            retained = await asyncio.to_thread(read_retained, self.mqtt_port, [f"{BASE}/bridge/#"], 1.0)
            tvs = json.loads(retained.get(f"{BASE}/bridge/tvs") or "[]")
            online = retained.get(f"{BASE}/bridge/state") == "online"
            if online and len(tvs) >= len(self.sims):
                self.tvs = {tv.get("host"): tv["id"] for tv in tvs}
                break
            await asyncio.sleep(1)
        online = retained.get(f"{BASE}/bridge/state") == "online"
        detail = f"bridge/state={retained.get(f'{BASE}/bridge/state')!r}"
        if self.sims:
            detail += f", TVs: {self.tvs}"
            online = online and all(host in self.tvs for host in self.sims)
        return self.check("bridge online and knows every TV", online, detail)

    # --- Home Assistant ----------------------------------------------------------------------

    async def start_home_assistant(self, session):
        write_ha_config(self.config_dir, self.ha_port, self.ha_name, self.ha_extra_config)
        hass = os.path.join(os.path.dirname(sys.executable), "hass")
        started = time.monotonic()
        self.hass_process = self.processes.start("hass", [hass, "-c", self.config_dir, "--skip-pip"])
        ha = HomeAssistant(session, self.ha_port, self.ha_owner)
        try:
            await ha.wait_http(300, self.hass_process)
            note(f"Home Assistant's HTTP API answered after {time.monotonic() - started:.0f} s")
            remaining = await ha.onboard()
            self.check("Home Assistant onboarded through the REST API", not remaining, f"steps left: {remaining}")
            state = await ha.wait_running(300)
            self.check("Home Assistant is running", state == "RUNNING", f"state {state}")
            entry = await ha.add_mqtt(self.mqtt_port)
            entries = await ha.request("GET", "/api/config/config_entries/entry?domain=mqtt")
            loaded = [e for e in entries if e["entry_id"] == entry["entry_id"] and e["state"] == "loaded"]
            self.check("MQTT integration added through the config flow and loaded", bool(loaded),
                       ", ".join(f"{e['title']}: {e['state']}" for e in entries))
            settings = await ha.mqtt_options(entry["entry_id"], self.mqtt_port)
            self.check(
                "MQTT discovery on with prefix homeassistant",
                settings.get("discovery") is True and settings.get("discovery_prefix") == PREFIX,
                f"{settings}",
            )
            await ha.ws_connect()
        except Exception as err:  # noqa: BLE001
            self.check("Home Assistant set up", False, f"{type(err).__name__}: {err}")
            return None
        return ha
