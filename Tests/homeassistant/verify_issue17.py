"""Issue 17 checks for verify_ha.py: device triggers, the event entity, tv/add and the pair button.

Kept apart from verify_ha.py (a mixin of `Verification`) so the main driver stays readable.
Every check talks to the real bridge and Home Assistant; where a TV simulator cannot produce an
event (pairing_required, limited_mode and certificate_changed need other simulators, and the
turn-on watch needs a TV that ignores Wake-on-LAN) the event is published on the TV's event
topic as the bridge publishes it, which is what Home Assistant sees either way; the bridge's
side of those is covered by the Swift end-to-end tests (TurnOnFallbackTests and others).
"""

import asyncio
import json
import os
import socket
import time

from stack import BASE, HOST, ROKU_STICK, ROKU_TV, SAMSUNG_TV, free_port, mqtt_client, note, sim_set, wait_tcp

# Simulated Rokus the bridge does not know at start: added through tv/add.
ADDED_BY_MQTT = "127.0.0.8"
ADDED_FROM_UI = "127.0.0.9"
EVENT_TYPES = ["command_failed", "pairing_required", "limited_mode", "certificate_changed",
               "turn_on_requested", "turn_on_failed"]
AUTOMATIONS = "automations.yaml"
# configuration.yaml addition: automations made through the REST API live in automations.yaml.
HA_EXTRA_CONFIG = f"automation: !include {AUTOMATIONS}\n"


def prepare_automations(config_dir):
    """An empty automations.yaml, so Home Assistant starts with the automation integration."""
    os.makedirs(config_dir, exist_ok=True)
    with open(os.path.join(config_dir, AUTOMATIONS), "w", encoding="utf-8") as file:
        file.write("[]\n")


def publish(port, topic, payload, retain=False):
    client = mqtt_client(f"verify-issue17-{os.getpid()}-{time.monotonic_ns()}")
    client.connect(HOST, port, 30)
    client.loop_start()
    client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)
    client.loop_stop()
    client.disconnect()


class Issue17Checks:
    """Mixed into `Verification` (uses its check, entity, processes, tvs, mqtt_port…)."""

    async def device_id(self, ha, identifier):
        for device in await ha.devices():
            if ["mqtt", identifier] in device["identifiers"]:
                return device["id"]
        return None

    async def check_issue17(self, ha, session):
        roku = f"tv2mqtt_{self.tvs[ROKU_TV]}"
        samsung = f"tv2mqtt_{self.tvs[SAMSUNG_TV]}"
        stick = f"tv2mqtt_{self.tvs[ROKU_STICK]}"
        await self.check_triggers_listed(ha, roku, samsung, stick)
        await self.check_trigger_automations(ha, session, roku)
        await self.check_event_entity(ha, roku)
        await self.check_pair_button(ha, samsung)
        await self.check_tv_add(ha)

    async def check_triggers_listed(self, ha, roku, samsung, stick):
        """What the automation editor lists under When › Device (websocket device_automation/trigger/list)."""
        for identifier, wanted in ((roku, True), (samsung, True), (stick, False)):
            device_id = await self.device_id(ha, identifier)
            triggers = await ha.ws_command("device_automation/trigger/list", device_id=device_id) if device_id else []
            ours = sorted((t.get("type"), t.get("subtype")) for t in triggers if t.get("domain") == "mqtt")
            expected = [("turn_on", "failed"), ("turn_on", "requested")] if wanted else []
            self.check(f"device {identifier}: device triggers {expected or 'none (a stick)'}", ours == expected,
                       f"{ours}")

    async def automation(self, ha, key, device_id, subtype):
        """An automation on one of the TV's turn_on triggers, made as the editor makes it."""
        config = {
            "alias": f"verify {key}",
            "trigger": [{"platform": "device", "domain": "mqtt", "device_id": device_id, "type": "turn_on",
                         "subtype": subtype}],
            "action": [{"event": "tv2mqtt_verify", "event_data": {"which": key}}],
            "mode": "queued",
        }
        await ha.request("POST", f"/api/config/automation/config/{key}", json=config)
        entity_id = f"automation.verify_{key}"
        state = await ha.wait_state(entity_id, "on", 20)
        self.check(f"automation on turn_on/{subtype} created and on", state == "on", f"{entity_id} = {state!r}")
        return entity_id

    async def triggered(self, ha, entity_id, before, timeout=20):
        deadline = time.monotonic() + timeout
        while True:
            state = await ha.state(entity_id)
            last = (state or {}).get("attributes", {}).get("last_triggered")
            if (last and last != before) or time.monotonic() >= deadline:
                return last
            await asyncio.sleep(0.5)

    async def check_trigger_automations(self, ha, session, roku):
        device_id = await self.device_id(ha, roku)
        if not self.check("Roku TV device found for the trigger automations", device_id is not None):
            return
        requested = await self.automation(ha, "turn_on_requested", device_id, "requested")
        failed = await self.automation(ha, "turn_on_failed", device_id, "failed")
        power = self.entity(roku, "power")
        event = self.entity(roku, "event")
        # The real path: the TV is off, Home Assistant turns it on, the bridge fires the trigger.
        await sim_set(session, ROKU_TV, {"power": "off"})
        state = await ha.wait_state(power, "off", 20)
        self.check("Roku TV: power switch 'off' after /sim/state power off", state == "off", f"{power} = {state!r}")
        before = (await ha.state(requested) or {}).get("attributes", {}).get("last_triggered")
        await ha.call("switch", "turn_on", entity_id=power)
        last = await self.triggered(ha, requested, before)
        self.check("switch.turn_on (TV off) fires turn_on/requested: the automation ran", bool(last) and last != before,
                   f"last_triggered {last!r}")
        attributes = (await ha.state(event) or {}).get("attributes", {})
        self.check("Roku TV: event entity shows turn_on_requested", attributes.get("event_type") == "turn_on_requested",
                   f"{event}: {attributes.get('event_type')!r}, message {attributes.get('message')!r}")
        state = await ha.wait_state(power, "on", 20)
        self.check("Roku TV: on again (Wake-on-LAN)", state == "on", f"{power} = {state!r}")
        # turn_on/failed: the simulator here answers Wake-on-LAN, so the bridge's report is
        # published as the bridge publishes it.
        before = (await ha.state(failed) or {}).get("attributes", {}).get("last_triggered")
        tv = self.tvs[ROKU_TV]
        payload = {"event_type": "turn_on_failed", "type": "turn_on_failed", "tv": tv, "wake_timeout": 20,
                   "message": "verify: still not on 20 s after ON"}
        await asyncio.to_thread(publish, self.mqtt_port, f"{BASE}/{tv}/event", json.dumps(payload))
        last = await self.triggered(ha, failed, before)
        self.check("a turn_on_failed event fires turn_on/failed: the automation ran", bool(last) and last != before,
                   f"last_triggered {last!r}")

    async def check_event_entity(self, ha, roku):
        event = self.entity(roku, "event")
        if not self.check("Roku TV has an event entity", event is not None):
            return
        tv = self.tvs[ROKU_TV]
        # A real command_failed from the bridge: an unknown key.
        before = (await ha.state(event) or {}).get("state")
        await asyncio.to_thread(publish, self.mqtt_port, f"{BASE}/{tv}/set/key", "NoSuchKey")
        changed = await ha.wait_state(event, lambda value: value not in (None, before), 15)
        attributes = (await ha.state(event) or {}).get("attributes", {})
        self.check("the bridge's command_failed (unknown key) reaches the event entity",
                   attributes.get("event_type") == "command_failed" and changed != before,
                   f"{event} = {changed!r}, {attributes.get('event_type')!r}: {attributes.get('message')!r}")
        seen = []
        for event_type in EVENT_TYPES:
            before = (await ha.state(event) or {}).get("state")
            await asyncio.sleep(1.1)  # the state is the event's time, to the microsecond; keep them apart anyway
            payload = {"event_type": event_type, "type": event_type, "tv": tv, "message": f"verify {event_type}"}
            await asyncio.to_thread(publish, self.mqtt_port, f"{BASE}/{tv}/event", json.dumps(payload))
            changed = await ha.wait_state(event, lambda value: value not in (None, before), 10)
            attributes = (await ha.state(event) or {}).get("attributes", {})
            if changed != before and attributes.get("event_type") == event_type:
                seen.append(event_type)
        self.check("the event entity changes state on each of its event types", seen == EVENT_TYPES, f"{seen}")

    async def check_pair_button(self, ha, samsung):
        button = self.entity(samsung, "pair")
        log = self.sims[SAMSUNG_TV]["log"]
        if not self.check("Samsung TV has a pair button", button is not None):
            return
        mark = log.mark()
        await ha.call("button", "press", entity_id=button)
        events = await log.wait(mark, lambda ev: any(e.get("kind") == "pairing" for e in ev), 20)
        results = [e.get("result") for e in (events or []) if e.get("kind") == "pairing"]
        self.check("button.press pair -> the Samsung is asked to pair (tv/pair) and accepts", results == ["accepted"],
                   f"{results}")

    def start_extra_roku(self, host):
        log = os.path.join(self.work, f"tvsim-{host}.jsonl")
        argv = [os.path.join(self.bin, "tvsim"), "roku", "--host", host, "--port", "8060", "--kind", "tv",
                "--wol-port", str(free_port(socket.SOCK_DGRAM, host)), "--log", log]
        self.processes.start(f"tvsim-{host}", argv)
        return wait_tcp(host, 8060, 20)

    async def wait_device_at(self, ha, host, timeout=60):
        """The Home Assistant device of the TV the bridge lists at `host`."""
        from stack import read_retained

        deadline = time.monotonic() + timeout
        while True:
            retained = await asyncio.to_thread(read_retained, self.mqtt_port, [f"{BASE}/bridge/tvs"], 1.0)
            tvs = json.loads(retained.get(f"{BASE}/bridge/tvs") or "[]")
            tv_id = next((tv["id"] for tv in tvs if tv.get("host") == host), None)
            device_id = await self.device_id(ha, f"tv2mqtt_{tv_id}") if tv_id else None
            if device_id or time.monotonic() >= deadline:
                return tv_id, device_id
            await asyncio.sleep(1)

    async def check_tv_add(self, ha):
        if not self.check("two more simulated Rokus listen (not yet known)",
                          self.start_extra_roku(ADDED_BY_MQTT) and self.start_extra_roku(ADDED_FROM_UI)):
            return
        request = {"host": ADDED_BY_MQTT, "kind": "roku", "id": "added_by_mqtt", "name": "Added by MQTT"}
        await asyncio.to_thread(publish, self.mqtt_port, f"{BASE}/bridge/request/tv/add", json.dumps(request))
        tv_id, device_id = await self.wait_device_at(ha, ADDED_BY_MQTT)
        self.check("bridge/request/tv/add adds a device in Home Assistant", tv_id == "added_by_mqtt" and device_id,
                   f"tv {tv_id!r}, device {device_id!r}")

        bridge = next((identifier for (identifier, key) in self.entity_ids if identifier.startswith("tv2mqtt_bridge")),
                      None)
        text = self.entity(bridge, "add_tv_host")
        button = self.entity(bridge, "add_tv")
        if not self.check("bridge device has the TV to add text and the Add TV button", text and button,
                          f"{text}, {button}"):
            return
        await ha.call("text", "set_value", entity_id=text, value=f"roku:{ADDED_FROM_UI}")
        await asyncio.sleep(1)
        await ha.call("button", "press", entity_id=button)
        tv_id, device_id = await self.wait_device_at(ha, ADDED_FROM_UI)
        self.check("the TV to add text + Add TV button add a device in Home Assistant", bool(tv_id and device_id),
                   f"tv {tv_id!r}, device {device_id!r}")
        note(f"tv/add: {ADDED_BY_MQTT} as {self.tvs.get(ADDED_BY_MQTT, 'added_by_mqtt')}, {ADDED_FROM_UI} as {tv_id}")
