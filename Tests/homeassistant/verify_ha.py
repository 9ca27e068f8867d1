#!/usr/bin/env python3
"""Drives the Home Assistant verification of tv2mqtt (see README.md; run through verify.sh).

Runs inside the loopback-only network namespace verify.sh made. Starts mosquitto, simulated
Roku, Samsung, LG and Android TVs (tvsim), the bridge (tv2mqtt) and Home Assistant, onboards Home Assistant and adds
the MQTT integration through its REST API, then checks what Home Assistant made of the
bridge's discovery: devices, entities, states, service calls reaching the simulators, and
Home Assistant's log. Prints PASS/FAIL per check and `N passed, N failed`; exit status 0 only
when nothing failed. Every process it starts is ended before it returns (verify.sh also ends
whatever is left in the namespace).
"""

import argparse
import asyncio
import json
import os
import re
import signal
import sys
import time

import aiohttp

from verify_issue17 import HA_EXTRA_CONFIG, Issue17Checks, prepare_automations
from stack import (
    ANDROID_NAME, ANDROID_TV, BASE, FRAME_TV, HOST, LG_NAME, LG_TV, POLL_INTERVAL, PREFIX, ROKU_STICK, ROKU_TV,
    SAMSUNG_LEGACY_TV, SAMSUNG_NAME, SAMSUNG_TV, Stack, mqtt_client, note, read_retained, sim_get, sim_set, sim_url,
)

# What `tvsim samsung --name Bedroom` reports (its REST /api/v2/ and app catalogue).
SAMSUNG_MODEL = "QE55Q60TAUXXU"
SAMSUNG_NETFLIX = "3201907018807"

# The entities that must exist whatever the discovery says: key -> platform.
BRIDGE_MINIMUM = {
    "connection_state": "binary_sensor",
    "version": "sensor",
    "discover": "button",
    "log_level": "select",
}
TV_MINIMUM = {
    "power": "switch",
    "app": "select",
    "keyboard": "text",
    "home": "button",
    "back": "button",
    "up": "button",
    "down": "button",
    "left": "button",
    "right": "button",
    "select": "button",
    "play_pause": "button",
    "volume_up": "button",
    "volume_down": "button",
    "mute_toggle": "button",
    "media_state": "sensor",
    "current_app": "sensor",
    "power_mode": "sensor",
    "connected": "binary_sensor",
    "limited_mode": "binary_sensor",
}
# The current app's icon, an MQTT image entity. A Samsung gets it only once its
# installed list was read over a paired channel (not within this check), so only the Rokus.
ROKU_TV_MINIMUM = {**TV_MINIMUM, "input": "select", "app_icon": "image"}
# A Roku stick cannot be switched off and its remote sets the TV's volume, not the stick's:
# the Roku driver gives it no power switch and no volume buttons (RokuDescriptionBuilder).
ROKU_STICK_MINIMUM = {
    key: platform for key, platform in TV_MINIMUM.items()
    if key not in ("power", "volume_up", "volume_down", "mute_toggle")
} | {"app_icon": "image"}
# A Samsung (README › Supported TVs): volume (number) and mute (switch) through UPnP, the input select
# (KEY_ source keys); no limited_mode (a Roku setting) and media_state only "where known" (the
# remote channel reports no playback, so the Samsung driver has none).
SAMSUNG_MINIMUM = {
    **{key: platform for key, platform in TV_MINIMUM.items() if key not in ("limited_mode", "media_state")},
    "input": "select",
    "volume": "number",
    "mute": "switch",
}
# The Frame: a Samsung with the art_mode switch.
FRAME_MINIMUM = {**SAMSUNG_MINIMUM, "art_mode": "switch"}
# Entities a Samsung TV must not have.
SAMSUNG_FORBIDDEN = ("limited_mode",)
# A pre-2016 Samsung (Sources/Drivers/SamsungLegacy/README.md): keys and power off only.
SAMSUNG_LEGACY_MINIMUM = {
    key: platform for key, platform in TV_MINIMUM.items()
    if key not in ("app", "keyboard", "limited_mode", "media_state", "current_app")
}
SAMSUNG_LEGACY_FORBIDDEN = ("limited_mode", "volume", "mute", "app", "input", "keyboard")
# An LG webOS TV (Sources/Drivers/LG/README.md): the TV entities, plus the screen switch and the
# sound_output select its capabilities bring (the toast notify only where Home Assistant has it).
# Its app and input selects come once it is paired (the lists are read then: check_lg_behaviour).
LG_MINIMUM = {
    **{key: platform for key, platform in TV_MINIMUM.items() if key not in ("limited_mode", "media_state", "app")},
    "volume": "number", "mute": "switch", "screen": "switch", "sound_output": "select", "pair": "button",
}
# An Android TV (Sources/Drivers/AndroidTV/README.md): power, the app select (its default app
# links), volume and mute from what it pushes, the HDMI inputs as keys, the keyboard, and the
# Pair button with the Pairing code text; no media state or limited mode.
ANDROID_MINIMUM = {
    **{key: platform for key, platform in TV_MINIMUM.items() if key not in ("limited_mode", "media_state")},
    "volume": "number", "mute": "switch", "input": "select", "pair": "button", "pairing_code": "text",
}

# Home Assistant log records that concern us: MQTT, the platforms we use, templates,
# registries, or anything naming our topics.
RELEVANT_LOGGER = re.compile(
    r"homeassistant\.(components\.(mqtt|switch|select|button|text|sensor|binary_sensor|number|image|event|automation)\b"
    r"|helpers\.(template|entity|entity_platform|entity_registry|device_registry)\b)"
)
RELEVANT_TEXT = re.compile(r"mqtt|tv2mqtt|discover|template|homeassistant/", re.IGNORECASE)
LOG_RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ (\w+) \(([^)]*)\) \[([^\]]+)\] ?(.*)$")


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.failures = []

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"PASS {name}" + (f" ({detail})" if detail else ""), flush=True)
        else:
            self.failed += 1
            self.failures.append(name)
            print(f"FAIL {name}" + (f": {detail}" if detail else ""), flush=True)
        return ok


def first(mapping, *keys, default=None):
    """The value of the first key present (full names and discovery abbreviations)."""
    for key in keys:
        if key in mapping:
            return mapping[key]
    return default


def expected_from_discovery(retained):
    """Devices and entities the retained tv2mqtt discovery configs describe.

    Returns {device identifier: {"device": block, "entities": {unique_id: entity}}}, each entity
    a dict with key, platform, unique_id, enabled, name.
    """
    devices = {}
    for topic, text in sorted(retained.items()):
        if not (topic.startswith(PREFIX + "/") and topic.endswith("/config")) or not text:
            continue
        try:
            payload = json.loads(text)
        except ValueError:
            continue
        origin = first(payload, "origin", "o", default={})
        if first(origin, "name", default=None) != "tv2mqtt":
            continue
        device = first(payload, "device", "dev", default={})
        identifiers = first(device, "identifiers", "ids", default=[])
        if isinstance(identifiers, str):
            identifiers = [identifiers]
        parts = topic.split("/")
        if parts[1] == "device":
            components = first(payload, "components", "cmps", default={})
        else:
            components = {parts[-2]: dict(payload, platform=parts[1])}
        for identifier in identifiers:
            slot = devices.setdefault(identifier, {"device": device, "entities": {}, "topics": set()})
            slot["topics"].add(topic)
            for key, component in components.items():
                unique_id = first(component, "unique_id", "uniq_id")
                if unique_id is None or len(component) <= 1:
                    continue
                slot["entities"][unique_id] = {
                    "key": key,
                    "platform": first(component, "platform", "p"),
                    "unique_id": unique_id,
                    "enabled": first(component, "enabled_by_default", "en", default=True),
                    "name": first(component, "name", default=None),
                    "options": component.get("options") or component.get("ops"),
                }
    return devices


def kinds(events):
    def what(event):
        for field in ("key", "app", "text", "mac", "result", "volume", "muted", "mute"):
            if field in event:
                return event[field]
        return None

    return [(event.get("kind"), what(event)) for event in events]


def object_id_of(tv_id):
    """The object id the bridge gives a TV's entities (DiscoveryBuilder.entityObjectID)."""
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9]", "_", tv_id.lower())).strip("_")


def number_is(value, wanted):
    """Whether a number entity's state (a text like "25" or "25.0") is the integer `wanted`."""
    try:
        return wanted is not None and float(value) == float(wanted)
    except (TypeError, ValueError):
        return False


def log_records(path):
    """Home Assistant's log as (level, logger, first line, full text) records."""
    records = []
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except FileNotFoundError:
        return records
    for line in lines:
        match = LOG_RECORD.match(line)
        if match:
            records.append([match.group(1), match.group(3), match.group(4), line])
        elif records:
            records[-1][3] += "\n" + line
    return records


class Verification(Issue17Checks, Stack):
    def __init__(self, args):
        super().__init__(args.work, args.bin, bridge_only=args.bridge_only, discovery=args.discovery,
                         ha_extra_config=HA_EXTRA_CONFIG)
        prepare_automations(self.config_dir)
        self.args = args
        self.checks = Checks()

    def check(self, *args, **kwargs):
        return self.checks.check(*args, **kwargs)
    async def converge(self, ha, timeout=60):
        """Waits until Home Assistant has every entity of the retained discovery configs."""
        deadline = time.monotonic() + timeout
        while True:
            retained = await asyncio.to_thread(read_retained, self.mqtt_port, [f"{PREFIX}/#", f"{BASE}/#"], 1.5)
            expected = expected_from_discovery(retained)
            registry = {e["unique_id"] for e in await ha.entities() if e["platform"] == "mqtt"}
            wanted = {uid for device in expected.values() for uid in device["entities"]}
            if (wanted and wanted <= registry) or time.monotonic() >= deadline:
                return retained, expected
            await asyncio.sleep(1)

    async def check_registry(self, ha, retained, expected):
        topics = sorted(topic for slot in expected.values() for topic in slot["topics"])
        device_style = [topic for topic in topics if topic.startswith(f"{PREFIX}/device/")]
        wanted = len(topics) if self.discovery == "device" else 0
        self.check(f"retained discovery is {self.discovery} style", topics and len(device_style) == wanted,
                   f"{len(device_style)} of {len(topics)} configs on {PREFIX}/device/")
        bridge_ids = [i for i in expected if i.startswith("tv2mqtt_bridge")]
        self.check(
            "retained discovery: a bridge device and one device per TV",
            len(bridge_ids) == 1 and len(expected) == 1 + len(self.sims),
            f"devices {sorted(expected)}, {sum(len(d['entities']) for d in expected.values())} entities",
        )
        for host, tv_id in self.tvs.items():
            self.check(f"retained discovery has device tv2mqtt_{tv_id} ({host})", f"tv2mqtt_{tv_id}" in expected)

        devices = await ha.devices()
        entities = await ha.entities()
        by_identifier = {}
        for device in devices:
            for domain, identifier in device["identifiers"]:
                if domain == "mqtt":
                    by_identifier.setdefault(identifier, []).append(device)
        bridge_device = None
        if bridge_ids:
            found = by_identifier.get(bridge_ids[0], [])
            bridge_device = found[0] if len(found) == 1 else None
        self.entity_ids = {}  # (device identifier, key) -> entity_id
        for identifier, slot in sorted(expected.items()):
            found = by_identifier.get(identifier, [])
            if not self.check(f"device {identifier}: exactly one in Home Assistant", len(found) == 1, f"{len(found)}"):
                continue
            device = found[0]
            block = slot["device"]
            mismatches = []
            for ours, theirs in (("name", "name"), ("manufacturer", "manufacturer"), ("model", "model"),
                                 ("model_id", "model_id"), ("serial_number", "serial_number"),
                                 ("sw_version", "sw_version")):
                if ours in block and block[ours] != device.get(theirs):
                    mismatches.append(f"{theirs} {device.get(theirs)!r} != {block[ours]!r}")
            if identifier not in bridge_ids:
                if bridge_device is None or device.get("via_device_id") != bridge_device["id"]:
                    mismatches.append("via_device is not the bridge device")
            self.check(f"device {identifier}: name, model, versions, via_device", not mismatches,
                       "; ".join(mismatches) or f"{device.get('name')!r}, {device.get('model')!r}")

            mine = {e["unique_id"]: e for e in entities if e["platform"] == "mqtt" and e["device_id"] == device["id"]}
            missing = sorted(uid for uid in slot["entities"] if uid not in mine)
            misplaced = []
            for uid in missing:
                elsewhere = [e for e in entities if e["unique_id"] == uid]
                if elsewhere:
                    misplaced.append(f"{uid} on device {elsewhere[0]['device_id']}")
            self.check(f"device {identifier}: all {len(slot['entities'])} discovered entities exist under it",
                       not missing, f"missing {missing}; {misplaced}")
            extra = sorted(uid for uid in mine if uid not in slot["entities"])
            self.check(f"device {identifier}: no entities beyond the discovery", not extra, f"extra {extra}")
            wrong_platform, wrong_enabled = [], []
            for uid, entity in slot["entities"].items():
                entry = mine.get(uid)
                if entry is None:
                    continue
                self.entity_ids[(identifier, entity["key"])] = entry["entity_id"]
                if entry["entity_id"].split(".")[0] != entity["platform"]:
                    wrong_platform.append(f"{entry['entity_id']} for {entity['platform']} {entity['key']}")
                disabled = entry.get("disabled_by") is not None
                if disabled == bool(entity["enabled"]):
                    wrong_enabled.append(f"{entry['entity_id']} disabled_by={entry.get('disabled_by')}")
            self.check(f"device {identifier}: entity platforms and enabled-by-default flags", not (wrong_platform or wrong_enabled),
                       "; ".join(wrong_platform + wrong_enabled))

            # The hard-coded minimum.
            if identifier in bridge_ids:
                minimum = BRIDGE_MINIMUM
            else:
                host = next((h for h, t in self.tvs.items() if f"tv2mqtt_{t}" == identifier), None)
                minimum = {
                    ROKU_TV: ROKU_TV_MINIMUM, SAMSUNG_TV: SAMSUNG_MINIMUM, SAMSUNG_LEGACY_TV: SAMSUNG_LEGACY_MINIMUM,
                    FRAME_TV: FRAME_MINIMUM, LG_TV: LG_MINIMUM, ANDROID_TV: ANDROID_MINIMUM,
                }.get(host, ROKU_STICK_MINIMUM)
                if host == SAMSUNG_LEGACY_TV:
                    # The TV reports no name: the bridge names it after its address (README).
                    legacy_name = f"Samsung TV {SAMSUNG_LEGACY_TV}"
                    wrong = [] if device.get("name") == legacy_name and device.get("manufacturer") == "Samsung" \
                        else [f"{device.get('name')!r}, {device.get('manufacturer')!r}"]
                    present = sorted(f"{e['platform']}.{e['key']}" for e in slot["entities"].values()
                                     if e["key"] in SAMSUNG_LEGACY_FORBIDDEN)
                    self.check(f"device {identifier}: a pre-2016 Samsung, keys and power only", not (wrong or present),
                               "; ".join(wrong) + f" forbidden entities: {present}")
                if host == SAMSUNG_TV:
                    wanted = {"name": SAMSUNG_NAME, "manufacturer": "Samsung", "model": SAMSUNG_MODEL}
                    wrong = [f"{field} {device.get(field)!r} != {value!r}" for field, value in wanted.items()
                             if device.get(field) != value]
                    self.check(f"device {identifier}: Samsung device as the simulator describes it", not wrong,
                               "; ".join(wrong) or f"{device.get('name')!r}, {device.get('manufacturer')!r}, "
                               f"{device.get('model')!r}, model_id {device.get('model_id')!r}, "
                               f"sw {device.get('sw_version')!r}")
                    present = sorted(f"{e['platform']}.{e['key']}" for e in slot["entities"].values()
                                     if e["key"] in SAMSUNG_FORBIDDEN)
                    present += sorted(e["entity_id"] for e in mine.values()
                                      if e["entity_id"].split(".", 1)[1].endswith("_limited_mode"))
                    self.check(f"device {identifier}: no limited_mode entity (Roku only)", not present, f"{present}")
            have = {(e["key"], e["platform"]) for uid, e in slot["entities"].items() if uid in mine}
            lacking = sorted(f"{platform}.{key}" for key, platform in minimum.items() if (key, platform) not in have)
            self.check(f"device {identifier}: has the required entities", not lacking,
                       f"missing {lacking}" if lacking else f"{len(minimum)} required")

        ours = set(expected)
        strays = sorted(i for i in by_identifier if i.startswith("tv2mqtt_") and i not in ours)
        self.check("no other tv2mqtt devices in Home Assistant", not strays, f"{strays}")

    def entity(self, identifier, key):
        return self.entity_ids.get((identifier, key))

    async def check_states(self, ha, retained, expected, timeout=20):
        # The entities exist; their retained states and availability follow within seconds
        # (Home Assistant subscribes to new entities' topics in batches).
        deadline = time.monotonic() + timeout
        while True:
            states = await ha.states()
            unavailable, absent = [], []
            for identifier, slot in expected.items():
                for uid, entity in slot["entities"].items():
                    entity_id = self.entity(identifier, entity["key"])
                    if entity_id is None or not entity["enabled"]:
                        continue
                    state = states.get(entity_id)
                    if state is None:
                        absent.append(entity_id)
                    elif state["state"] == "unavailable":
                        unavailable.append(entity_id)
            if not (absent or unavailable) or time.monotonic() >= deadline:
                break
            await asyncio.sleep(1)
        self.check("every enabled entity has a state and is available", not (absent or unavailable),
                   f"no state: {absent}; unavailable: {unavailable}")
        # A value the bridge does not know reads unknown on every release, never the text "None"
        # (Home Assistant before 2024.10 shows a sensor's rendered None as text).
        none_text = sorted(entity_id for entity_id in self.entity_ids.values()
                           if states.get(entity_id, {}).get("state") == "None")
        self.check("no entity reads the text 'None'", not none_text, f"{none_text}")

        info = json.loads(retained.get(f"{BASE}/bridge/info") or "{}")
        bridge = next((i for i in expected if i.startswith("tv2mqtt_bridge")), None)
        wanted = {
            "connection_state": "on",
            "version": info.get("version"),
            "log_level": info.get("log_level", "debug"),
        }
        for key, value in wanted.items():
            entity_id = self.entity(bridge, key)
            actual = states.get(entity_id, {}).get("state")
            self.check(f"bridge {key} state is {value!r}", actual == value, f"{entity_id} = {actual!r}")

    async def check_tv_states(self, ha, session):
        for host, tv_id in sorted(self.tvs.items()):
            identifier = f"tv2mqtt_{tv_id}"
            if host == SAMSUNG_LEGACY_TV:
                await self.check_legacy_states(ha, tv_id)
                continue
            if host in (LG_TV, ANDROID_TV):
                continue  # not paired yet: check_lg_behaviour and check_androidtv_behaviour pair them
            sim_state = await sim_get(session, host)
            power = "on" if sim_state.get("power", "on") == "on" else "off"
            entity_id = self.entity(identifier, "power")
            if entity_id is None and host == ROKU_STICK:
                note(f"{tv_id}: no power switch (a stick)")
            else:
                actual = await ha.wait_state(entity_id, power, 10) if entity_id else None
                self.check(f"{tv_id}: power switch is {power!r} like the simulator", actual == power,
                           f"{entity_id} = {actual!r}, simulator {sim_state.get('power')!r}")
            entity_id = self.entity(identifier, "connected")
            actual = await ha.wait_state(entity_id, "on", 10) if entity_id else None
            self.check(f"{tv_id}: connected is 'on'", actual == "on", f"{entity_id} = {actual!r}")
            # power_mode is the raw vendor value: Roku power-mode, Samsung PowerState.
            mode = "on" if host in (SAMSUNG_TV, FRAME_TV) else "PowerOn"
            entity_id = self.entity(identifier, "power_mode")
            actual = await ha.wait_state(entity_id, mode, 10) if entity_id else None
            self.check(f"{tv_id}: power_mode is {mode!r}", actual == mode, f"{entity_id} = {actual!r}")
            if host == SAMSUNG_TV:
                await self.check_samsung_states(ha, tv_id, sim_state)
                continue
            if host == FRAME_TV:
                continue  # its art_mode switch: check_frame_behaviour
            entity_id = self.entity(identifier, "limited_mode")
            actual = await ha.wait_state(entity_id, "off", 10) if entity_id else None
            self.check(f"{tv_id}: limited_mode is 'off'", actual == "off", f"{entity_id} = {actual!r}")
            entity_id = self.entity(identifier, "media_state")
            actual = (await ha.state(entity_id) or {}).get("state") if entity_id else None
            self.check(f"{tv_id}: media_state has a value", actual not in (None, "unavailable"),
                       f"{entity_id} = {actual!r}")

    async def check_legacy_states(self, ha, tv_id):
        """The pre-2016 Samsung: on while its port answers (state is reachability)."""
        identifier = f"tv2mqtt_{tv_id}"
        for key, wanted in (("power", "on"), ("connected", "on"), ("power_mode", "on")):
            entity_id = self.entity(identifier, key)
            actual = await ha.wait_state(entity_id, wanted, 10) if entity_id else None
            self.check(f"{tv_id}: {key} is {wanted!r}", actual == wanted, f"{entity_id} = {actual!r}")

    async def check_legacy_behaviour(self, ha):
        """The pre-2016 Samsung: a button press reaches it as a legacy key, after one allow prompt."""
        tv_id = self.tvs.get(SAMSUNG_LEGACY_TV)
        if not self.check("the bridge knows the pre-2016 Samsung TV", tv_id is not None, f"TVs {self.tvs}"):
            return
        identifier = f"tv2mqtt_{tv_id}"
        log = self.sims[SAMSUNG_LEGACY_TV]["log"]
        await self.service_check(
            ha, log, f"{tv_id}: button.press home -> legacy KEY_HOME", "button", "press",
            self.entity(identifier, "home"), {},
            lambda ev: any(e.get("kind") == "legacy_key" and e.get("key") == "KEY_HOME" for e in ev))
        await self.service_check(
            ha, log, f"{tv_id}: button.press volume_up -> legacy KEY_VOLUP", "button", "press",
            self.entity(identifier, "volume_up"), {},
            lambda ev: any(e.get("kind") == "legacy_key" and e.get("key") == "KEY_VOLUP" for e in ev))

    async def check_samsung_states(self, ha, tv_id, sim_state):
        """The Samsung TV's entity ids, volume and mute as the simulator has them."""
        identifier = f"tv2mqtt_{tv_id}"
        object_id = object_id_of(tv_id)
        named = {"power": "switch", "volume": "number", "mute": "switch", "input": "select", "app": "select",
                 "keyboard": "text"}
        wrong = [f"{key}: {self.entity(identifier, key)!r} != {platform}.{object_id}_{key}"
                 for key, platform in named.items()
                 if self.entity(identifier, key) != f"{platform}.{object_id}_{key}"]
        self.check(f"{tv_id}: entity ids <platform>.{object_id}_<key>", not wrong,
                   "; ".join(wrong) or ", ".join(f"{p}.{object_id}_{k}" for k, p in named.items()))
        volume = self.entity(identifier, "volume")
        want = sim_state.get("volume")
        actual = await ha.wait_state(volume, lambda v: number_is(v, want), 10) if volume else None
        self.check(f"{tv_id}: volume number equals the simulator's volume", number_is(actual, want),
                   f"{volume} = {actual!r}, simulator {want!r}")
        mute = self.entity(identifier, "mute")
        want = "on" if sim_state.get("muted") else "off"
        actual = await ha.wait_state(mute, want, 10) if mute else None
        self.check(f"{tv_id}: mute switch is {want!r} like the simulator", actual == want,
                   f"{mute} = {actual!r}, simulator muted={sim_state.get('muted')!r}")
        entity_id = self.entity(identifier, "input")
        state = await ha.state(entity_id) if entity_id else None
        options = (state or {}).get("attributes", {}).get("options")
        self.check(f"{tv_id}: input select offers HDMI (KEY_HDMI)", bool(options) and "HDMI" in options,
                   f"{entity_id} options {options!r}, state {(state or {}).get('state')!r}")
        entity_id = self.entity(identifier, "current_app")
        actual = await ha.wait_state(entity_id, "unknown", 10) if entity_id else None
        self.check(f"{tv_id}: current_app is 'unknown' (nothing launched yet)", actual == "unknown",
                   f"{entity_id} = {actual!r}")
        entity_id = self.entity(identifier, "media_state")
        if entity_id is None:
            note(f"{tv_id}: no media_state entity (the Samsung remote channel reports no playback)")

    async def check_tv_behaviour(self, ha, session):
        host, tv_id = ROKU_TV, self.tvs.get(ROKU_TV)
        identifier = f"tv2mqtt_{tv_id}"
        sim = self.sims[host]
        log = sim["log"]
        power = self.entity(identifier, "power")
        current_app = self.entity(identifier, "current_app")
        app = self.entity(identifier, "app")
        timeout = POLL_INTERVAL * 3 + 5

        # The simulator's own remote: app 12 -> Netflix in current_app and the app select.
        initial = await sim_get(session, host)
        await sim_set(session, host, {"app": "12"})
        actual = await ha.wait_state(current_app, "Netflix", timeout)
        self.check(f"{tv_id}: current_app follows /sim/state app 12 -> 'Netflix'", actual == "Netflix",
                   f"{current_app} = {actual!r}")
        actual = await ha.wait_state(app, "Netflix", 5)
        self.check(f"{tv_id}: app select follows to 'Netflix'", actual == "Netflix", f"{app} = {actual!r}")
        icon_entity = self.entity(identifier, "app_icon")
        shown = await self.check_app_icon(ha, session, tv_id, icon_entity, host, "12", timeout)
        # media_state follows /sim/state media_state (while an app is in front)
        media = self.entity(identifier, "media_state")
        await sim_set(session, host, {"media_state": "play"})
        actual = await ha.wait_state(media, "playing", timeout)
        self.check(f"{tv_id}: media_state follows /sim/state play -> 'playing'", actual == "playing",
                   f"{media} = {actual!r}")

        if initial.get("app") not in (None, "12"):
            await sim_set(session, host, {"app": initial["app"]})
            await ha.wait_state(current_app, lambda v: v != "Netflix", timeout)

        # Standby from the TV's own remote -> the switch turns off; back on -> on.
        await sim_set(session, host, {"power": "standby"})
        actual = await ha.wait_state(power, "off", timeout)
        self.check(f"{tv_id}: power switch 'off' after /sim/state standby", actual == "off", f"{power} = {actual!r}")
        # In standby nothing is in front: no app or media state, which must read unknown.
        for key, entity_id in (("current_app", current_app), ("media_state", media)):
            actual = await ha.wait_state(entity_id, "unknown", timeout)
            self.check(f"{tv_id}: {key} 'unknown' in standby", actual == "unknown", f"{entity_id} = {actual!r}")
        await self.check_app_icon_cleared(ha, tv_id, icon_entity, shown, timeout)
        await sim_set(session, host, {"power": "on"})
        actual = await ha.wait_state(power, "on", timeout)
        self.check(f"{tv_id}: power switch 'on' after /sim/state on", actual == "on", f"{power} = {actual!r}")

        # Service calls reach the simulator.
        def keypress(key):
            return lambda ev: any(e.get("kind") == "keypress" and e.get("key") == key for e in ev)

        def letters(ev):
            return [e.get("key") for e in ev if str(e.get("key", "")).startswith("Lit_")]

        await self.service_check(
            ha, log, f"{tv_id}: select.select_option Netflix -> launch 12", "select", "select_option", app,
            {"option": "Netflix"}, lambda ev: any(e.get("kind") == "launch" and str(e.get("app")) == "12" for e in ev))
        await self.service_check(
            ha, log, f"{tv_id}: button.press home -> keypress Home", "button", "press",
            self.entity(identifier, "home"), {}, keypress("Home"))
        await self.service_check(
            ha, log, f"{tv_id}: button.press volume_up -> keypress VolumeUp", "button", "press",
            self.entity(identifier, "volume_up"), {}, keypress("VolumeUp"))
        await self.service_check(
            ha, log, f"{tv_id}: text.set_value 'hi' -> Lit_h, Lit_i", "text", "set_value",
            self.entity(identifier, "keyboard"), {"value": "hi"}, lambda ev: letters(ev)[-2:] == ["Lit_h", "Lit_i"])
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_off (TV on) -> keypress PowerOff", "switch", "turn_off", power, {},
            keypress("PowerOff"))
        actual = await ha.wait_state(power, "off", timeout)
        self.check(f"{tv_id}: power switch 'off' after turn_off", actual == "off", f"{power} = {actual!r}")
        state = await sim_get(session, host)
        if state.get("power") == "on":
            note("the simulator did not go to standby on PowerOff; putting it there through /sim/state")
            await sim_set(session, host, {"power": "standby"})
            await ha.wait_state(power, "off", timeout)
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_on (TV in standby) -> Wake-on-LAN and keypress PowerOn", "switch",
            "turn_on", power, {}, lambda ev: any(e.get("kind") == "wol" for e in ev) and keypress("PowerOn")(ev),
            timeout=15)
        actual = await ha.wait_state(power, "on", timeout)
        self.check(f"{tv_id}: power switch 'on' after turn_on", actual == "on", f"{power} = {actual!r}")

        toggles = []
        for sim in self.sims.values():
            sim["log"].poll()
            toggles += [e for e in sim["log"].events if e.get("kind") == "keypress" and e.get("key") == "Power"]
        self.check("no Power toggle keypress was ever sent", not toggles, f"{toggles}")

    async def check_live_tv(self, ha, session):
        """Issue 15 on the Roku TV and stick: channel select, channel and program sensors, live
        streams, find_remote where device-info allows it, ecp_setting_mode."""
        host, tv_id = ROKU_TV, self.tvs.get(ROKU_TV)
        identifier = f"tv2mqtt_{tv_id}"
        log = self.sims[host]["log"]
        timeout = POLL_INTERVAL * 3 + 5
        channel = self.entity(identifier, "channel")
        current = self.entity(identifier, "current_channel")
        title = self.entity(identifier, "media_title")
        self.check(f"{tv_id}: channel select, current_channel and media_title exist",
                   None not in (channel, current, title), f"{channel}, {current}, {title}")
        state = await ha.state(channel) if channel else None
        options = (state or {}).get("attributes", {}).get("options")
        self.check(f"{tv_id}: channel select offers '7.1 KQED'", bool(options) and "7.1 KQED" in options,
                   f"{channel} options {options!r}")
        await sim_set(session, host, {"app": "tvinput.dtv", "channel": "7.1"})
        actual = await ha.wait_state(current, "7.1 KQED", timeout) if current else None
        self.check(f"{tv_id}: current_channel follows /sim/state channel 7.1 -> '7.1 KQED'", actual == "7.1 KQED",
                   f"{current} = {actual!r}")
        actual = await ha.wait_state(channel, "7.1 KQED", 5) if channel else None
        self.check(f"{tv_id}: channel select shows '7.1 KQED'", actual == "7.1 KQED", f"{channel} = {actual!r}")
        actual = await ha.wait_state(title, "PBS NewsHour", 5) if title else None
        self.check(f"{tv_id}: media_title is the program 'PBS NewsHour'", actual == "PBS NewsHour",
                   f"{title} = {actual!r}")
        await self.service_check(
            ha, log, f"{tv_id}: select.select_option '14.3 getTV' -> launch tvinput.dtv?ch=14.3", "select",
            "select_option", channel, {"option": "14.3 getTV"},
            lambda ev: any(e.get("kind") == "channel" and e.get("channel") == "14.3" for e in ev))
        actual = await ha.wait_state(title, "Airwolf", timeout) if title else None
        self.check(f"{tv_id}: media_title follows the tuned channel -> 'Airwolf'", actual == "Airwolf",
                   f"{title} = {actual!r}")
        await sim_set(session, host, {"app": "74519", "media_state": "play"})
        for entity_id in (current, title):
            actual = await ha.wait_state(entity_id, "unknown", timeout) if entity_id else None
            self.check(f"{tv_id}: {entity_id} 'unknown' after leaving live TV (never stale)", actual == "unknown",
                       f"{entity_id} = {actual!r}")
        mode = self.entity(identifier, "ecp_setting_mode")
        actual = await ha.wait_state(mode, "enabled", 10) if mode else None
        self.check(f"{tv_id}: ecp_setting_mode is 'enabled'", actual == "enabled", f"{mode} = {actual!r}")
        self.check(f"{tv_id}: no find_remote (device-info supports-find-remote false)",
                   self.entity(identifier, "find_remote") is None, f"{self.entity(identifier, 'find_remote')}")
        stick_id = self.tvs.get(ROKU_STICK)
        if stick_id:
            stick = f"tv2mqtt_{stick_id}"
            find = self.entity(stick, "find_remote")
            self.check(f"{stick_id}: find_remote button (supports-find-remote true)", find is not None, f"{find}")
            self.check(f"{stick_id}: no channel select (no tuner)", self.entity(stick, "channel") is None,
                       f"{self.entity(stick, 'channel')}")
            if find:
                await self.service_check(
                    ha, self.sims[ROKU_STICK]["log"], f"{stick_id}: button.press find_remote -> keypress FindRemote",
                    "button", "press", find, {},
                    lambda ev: any(e.get("kind") == "keypress" and e.get("key") == "FindRemote" for e in ev))
        await sim_set(session, host, {"app": "562859"})

    async def icon_picture(self, ha, entity_id):
        """The image entity's state and what its entity_picture serves: (state, status, bytes, type)."""
        state = await ha.state(entity_id) or {}
        picture = (state.get("attributes") or {}).get("entity_picture")
        if not picture:
            return state.get("state"), None, b"", None
        async with ha.session.get(ha.url + picture) as response:
            return state.get("state"), response.status, await response.read(), response.headers.get("Content-Type")

    async def check_app_icon(self, ha, session, tv_id, entity_id, host, app_id, timeout):
        """app_icon shows the simulator's own icon of the app in front, served by Home Assistant."""
        if not self.check(f"{tv_id}: has an app_icon image entity", entity_id is not None, f"{self.tvs}"):
            return None
        async with session.get(sim_url(host).removesuffix("/sim/state") + f"/query/icon/{app_id}") as response:
            wanted = await response.read()
        shown = await ha.wait_state(entity_id, lambda v: v not in (None, "unknown", "unavailable"), timeout)
        state, status, body, content_type = await self.icon_picture(ha, entity_id)
        self.check(f"{tv_id}: app_icon state is a timestamp once the icon arrived", shown is not None and "T" in shown,
                   f"{entity_id} = {state!r}")
        self.check(f"{tv_id}: app_icon entity_picture serves the TV's icon of app {app_id} ({len(wanted)} bytes)",
                   status == 200 and body == wanted, f"HTTP {status}, {len(body)} bytes, {content_type}")
        return state

    async def check_app_icon_cleared(self, ha, tv_id, entity_id, shown, timeout):
        """In standby the icon topic is emptied: Home Assistant's image changes and serves no picture."""
        if entity_id is None:
            return
        changed = await ha.wait_state(entity_id, lambda v: v != shown, timeout)
        state, status, body, _ = await self.icon_picture(ha, entity_id)
        self.check(f"{tv_id}: app_icon cleared in standby (updated, no picture served)",
                   changed is not None and changed != shown and (status != 200 or not body),
                   f"{entity_id} = {state!r}, HTTP {status}, {len(body)} bytes")

    async def check_samsung_behaviour(self, ha, session):
        """The Samsung TV: state from the TV's side, pairing, service calls, idempotent power."""
        host, tv_id = SAMSUNG_TV, self.tvs.get(SAMSUNG_TV)
        if not self.check("the bridge knows the Samsung TV", tv_id is not None, f"TVs {self.tvs}"):
            return
        identifier = f"tv2mqtt_{tv_id}"
        log = self.sims[host]["log"]
        timeout = POLL_INTERVAL * 3 + 5
        power, volume, mute = (self.entity(identifier, key) for key in ("power", "volume", "mute"))

        def remote_key(key, cmd="Click"):
            return lambda ev: any(e.get("kind") == "remote_key" and e.get("key") == key and e.get("cmd") == cmd
                                  for e in ev)

        def power_keys(events):
            return [e for e in events if e.get("kind") == "remote_key" and e.get("key") == "KEY_POWER"]

        def pairings():
            log.poll()
            return [e for e in log.events if e.get("kind") == "pairing"]

        # The TV's own remote: volume and mute follow /sim/state.
        await sim_set(session, host, {"volume": 30})
        actual = await ha.wait_state(volume, lambda v: number_is(v, 30), timeout) if volume else None
        self.check(f"{tv_id}: volume number shows 30 after /sim/state volume 30", number_is(actual, 30),
                   f"{volume} = {actual!r}")
        await sim_set(session, host, {"muted": True})
        actual = await ha.wait_state(mute, "on", timeout) if mute else None
        self.check(f"{tv_id}: mute switch 'on' after /sim/state muted", actual == "on", f"{mute} = {actual!r}")
        await sim_set(session, host, {"muted": False})
        actual = await ha.wait_state(mute, "off", timeout) if mute else None
        self.check(f"{tv_id}: mute switch 'off' after /sim/state unmuted", actual == "off", f"{mute} = {actual!r}")

        # Service calls. The first remote-channel command pairs (the simulator accepts at once).
        early = pairings()
        if early:
            note(f"{tv_id}: pairing before any command: {early}")
        await self.service_check(
            ha, log, f"{tv_id}: button.press home -> KEY_HOME (pairing on the first command)", "button", "press",
            self.entity(identifier, "home"), {}, remote_key("KEY_HOME"), timeout=15)
        seen = pairings()
        self.check(f"{tv_id}: exactly one pairing, accepted", [e.get("result") for e in seen] == ["accepted"],
                   f"{[(e.get('result'), e.get('client')) for e in seen]}")
        await self.service_check(
            ha, log, f"{tv_id}: select.select_option input HDMI -> KEY_HDMI", "select", "select_option",
            self.entity(identifier, "input"), {"option": "HDMI"}, remote_key("KEY_HDMI"))
        again = pairings()[len(seen):]
        self.check(f"{tv_id}: the second command did not prompt or pair again", not again, f"{again}")
        await self.service_check(
            ha, log, f"{tv_id}: number.set_value 25 -> volume 25", "number", "set_value", volume, {"value": 25},
            lambda ev: any(e.get("kind") == "volume" and e.get("volume") == 25 for e in ev))
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_on mute -> mute", "switch", "turn_on", mute, {},
            lambda ev: any(e.get("kind") == "mute" and (e.get("muted") is True or e.get("mute") is True)
                           for e in ev))
        actual = await ha.wait_state(mute, "on", timeout) if mute else None
        self.check(f"{tv_id}: mute switch 'on' after turn_on", actual == "on", f"{mute} = {actual!r}")
        app = self.entity(identifier, "app")
        state = await ha.state(app) if app else None
        options = (state or {}).get("attributes", {}).get("options") or []
        self.check(f"{tv_id}: app select offers Netflix", "Netflix" in options, f"{app} options {options!r}")
        await self.service_check(
            ha, log, f"{tv_id}: select.select_option app Netflix -> app_launch {SAMSUNG_NETFLIX}", "select",
            "select_option", app, {"option": "Netflix"},
            lambda ev: any(e.get("kind") == "app_launch" and e.get("app") == SAMSUNG_NETFLIX and "refused" not in e
                           for e in ev))
        current = self.entity(identifier, "current_app")
        actual = await ha.wait_state(current, "Netflix", 5) if current else None
        note(f"{tv_id}: current_app after the launch: {actual!r}; simulator app {(await sim_get(session, host)).get('app')!r}")
        await self.service_check(
            ha, log, f"{tv_id}: text.set_value 'hi' -> text 'hi'", "text", "set_value",
            self.entity(identifier, "keyboard"), {"value": "hi"},
            lambda ev: any(e.get("kind") == "text" and e.get("text") == "hi" for e in ev))
        self.check(f"{tv_id}: still exactly one pairing after every command",
                   [e.get("result") for e in pairings()] == ["accepted"], f"{pairings()}")

        # Power. Standby from the TV's own remote -> off; on -> on.
        await sim_set(session, host, {"power": "standby"})
        actual = await ha.wait_state(power, "off", timeout)
        self.check(f"{tv_id}: power switch 'off' after /sim/state standby", actual == "off", f"{power} = {actual!r}")
        # switch.turn_on from (confirmed) standby: Wake-on-LAN; the packet wakes the simulator, so
        # no KEY_POWER may follow it (it would toggle the TV straight back off).
        mark = log.mark()
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_on (TV in standby) -> Wake-on-LAN", "switch", "turn_on", power, {},
            lambda ev: any(e.get("kind") == "wol" for e in ev), timeout=15)
        actual = await ha.wait_state(power, "on", timeout)
        sim_power = (await sim_get(session, host)).get("power")
        self.check(f"{tv_id}: power switch 'on' and the TV on after turn_on", actual == "on" and sim_power == "on",
                   f"{power} = {actual!r}, simulator {sim_power!r}")
        await asyncio.sleep(1)
        keys = power_keys(log.since(mark))
        self.check(f"{tv_id}: no KEY_POWER after the wake-up (TV already on)", not keys, f"{keys}")
        # Already on: turn_on sends no KEY_POWER.
        mark = log.mark()
        await ha.call("switch", "turn_on", entity_id=power)
        keys = await log.wait(mark, power_keys, 3)
        self.check(f"{tv_id}: switch.turn_on (TV on) sends no KEY_POWER", keys is None, f"{kinds(log.since(mark))}")
        # switch.turn_off (TV on): KEY_POWER once, the simulator in standby, the switch off.
        mark = log.mark()
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_off (TV on) -> KEY_POWER", "switch", "turn_off", power, {},
            remote_key("KEY_POWER"))
        actual = await ha.wait_state(power, "off", timeout)
        sim_power = (await sim_get(session, host)).get("power")
        self.check(f"{tv_id}: power switch 'off' and the TV in standby after turn_off",
                   actual == "off" and sim_power == "standby", f"{power} = {actual!r}, simulator {sim_power!r}")
        # Already off: turn_off sends nothing.
        await ha.call("switch", "turn_off", entity_id=power)
        await asyncio.sleep(3)
        keys = power_keys(log.since(mark))
        self.check(f"{tv_id}: exactly one KEY_POWER for turn_off, none for a second turn_off", len(keys) == 1,
                   f"{kinds(keys)}")
        # switch.turn_on right after (the bridge's power-off grace window): Wake-on-LAN, TV on.
        mark = log.mark()
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_on (just turned off) -> Wake-on-LAN", "switch", "turn_on", power, {},
            lambda ev: any(e.get("kind") == "wol" for e in ev), timeout=15)
        actual = await ha.wait_state(power, "on", timeout + 15)
        sim_power = (await sim_get(session, host)).get("power")
        self.check(f"{tv_id}: power switch 'on' and the TV on again", actual == "on" and sim_power == "on",
                   f"{power} = {actual!r}, simulator {sim_power!r}")
        keys = power_keys(log.since(mark))
        self.check(f"{tv_id}: no KEY_POWER for that turn_on", not keys, f"{kinds(keys)}")
        keys = power_keys(log.since(0))
        self.check(f"{tv_id}: one KEY_POWER in the whole run (the turn_off)", len(keys) == 1, f"{kinds(keys)}")

    async def check_frame_behaviour(self, ha, session):
        """The Frame: the art_mode switch turns art on (pairing first), power reads off in art,
        art changed with the TV's own remote is pushed, power off from art is standby."""
        host, tv_id = FRAME_TV, self.tvs.get(FRAME_TV)
        if not self.check("the bridge knows The Frame", tv_id is not None, f"TVs {self.tvs}"):
            return
        identifier = f"tv2mqtt_{tv_id}"
        log = self.sims[host]["log"]
        timeout = POLL_INTERVAL * 3 + 5
        art, power, mode = (self.entity(identifier, key) for key in ("art_mode", "power", "power_mode"))
        object_id = object_id_of(tv_id)
        self.check(f"{tv_id}: art_mode entity is switch.{object_id}_art_mode", art == f"switch.{object_id}_art_mode",
                   f"{art!r}")
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_on art_mode -> set_artmode_status on", "switch", "turn_on", art, {},
            lambda ev: any(e.get("kind") == "art_mode" and e.get("value") == "on" for e in ev), timeout=20)
        actual = await ha.wait_state(art, "on", timeout) if art else None
        self.check(f"{tv_id}: art_mode switch 'on'", actual == "on", f"{art} = {actual!r}")
        actual = await ha.wait_state(power, "off", timeout) if power else None
        self.check(f"{tv_id}: power switch 'off' while art shows", actual == "off", f"{power} = {actual!r}")
        actual = await ha.wait_state(mode, "art", timeout) if mode else None
        self.check(f"{tv_id}: power_mode 'art' while art shows", actual == "art", f"{mode} = {actual!r}")
        # The TV's own remote (pushed on the art channel).
        await sim_set(session, host, {"art_mode": "off"})
        actual = await ha.wait_state(art, "off", timeout) if art else None
        self.check(f"{tv_id}: art_mode switch 'off' after /sim/state art_mode off", actual == "off",
                   f"{art} = {actual!r}")
        actual = await ha.wait_state(power, "on", timeout) if power else None
        self.check(f"{tv_id}: power switch 'on' showing TV", actual == "on", f"{power} = {actual!r}")
        await sim_set(session, host, {"art_mode": "on"})
        actual = await ha.wait_state(art, "on", timeout) if art else None
        self.check(f"{tv_id}: art_mode switch 'on' after /sim/state art_mode on", actual == "on",
                   f"{art} = {actual!r}")
        # Power off from art: KEY_POWER held (Press ... Release), standby, both switches off.
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_off power (art) -> KEY_POWER held", "switch", "turn_off", power, {},
            lambda ev: any(e.get("kind") == "remote_key" and e.get("key") == "KEY_POWER" and e.get("cmd") == "Release"
                           for e in ev), timeout=20)
        actual = await ha.wait_state(art, "off", timeout) if art else None
        sim_power = (await sim_get(session, host)).get("power")
        self.check(f"{tv_id}: art_mode 'off' and the TV in standby after power off", actual == "off" and
                   sim_power == "standby", f"{art} = {actual!r}, simulator {sim_power!r}")

    async def check_lg_behaviour(self, ha, session):
        """The LG TV: the pair button, then pushed state, a key, the screen switch and the sound output."""
        host = LG_TV
        known = await self.press_pair(ha, host, "the LG TV", "the TV's prompt approved", "approved")
        if known is None:
            return
        tv_id, identifier, log = known
        power = await self.check_paired_power_and_volume(ha, session, host, tv_id)
        mode = self.entity(identifier, "power_mode")
        actual = await ha.wait_state(mode, "Active", 10) if mode else None
        self.check(f"{tv_id}: power_mode is the TV's own 'Active'", actual == "Active", f"{mode} = {actual!r}")
        await self.service_check(
            ha, log, f"{tv_id}: button.press home -> pointer button HOME", "button", "press",
            self.entity(identifier, "home"), {},
            lambda ev: any(e.get("kind") == "button" and e.get("name") == "HOME" for e in ev))
        screen = self.entity(identifier, "screen")
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_off screen -> turnOffScreen", "switch", "turn_off", screen, {},
            lambda ev: any(e.get("kind") == "ssap" and str(e.get("uri", "")).endswith("turnOffScreen") for e in ev))
        actual = await ha.wait_state(screen, "off", 10) if screen else None
        self.check(f"{tv_id}: screen switch 'off', the TV still on", actual == "off", f"{screen} = {actual!r}")
        await self.service_check(
            ha, log, f"{tv_id}: select.select_option sound_output external_arc -> changeSoundOutput", "select",
            "select_option", self.entity(identifier, "sound_output"), {"option": "external_arc"},
            lambda ev: any(e.get("kind") == "ssap" and str(e.get("uri", "")).endswith("changeSoundOutput")
                           for e in ev))
        # The lists are read after pairing and the discovery republished: new entities, named
        # like the power switch (switch.<stem>_power).
        stem = power.split(".", 1)[1].removesuffix("_power") if power else "?"
        for key, option in (("app", "Netflix"), ("input", "HDMI 1")):
            entity_id, options = f"select.{stem}_{key}", []
            for _ in range(20):
                state = await ha.state(entity_id)
                options = (state or {}).get("attributes", {}).get("options") or []
                if option in options:
                    break
                await asyncio.sleep(0.5)
            self.check(f"{tv_id}: {key} select offers {option!r} once paired", option in options,
                       f"{entity_id} options {options!r}")
        note(f"{tv_id}: {LG_NAME} checked")

    async def press_pair(self, ha, host, what, outcome, action):
        """Presses the Pair button of the TV at `host` and checks its simulator logs pairing `action`.
        Returns (tv id, device identifier, simulator log); None when the bridge does not know the TV."""
        tv_id = self.tvs.get(host)
        if not self.check(f"the bridge knows {what}", tv_id is not None, f"TVs {self.tvs}"):
            return None
        identifier = f"tv2mqtt_{tv_id}"
        log = self.sims[host]["log"]
        await self.service_check(
            ha, log, f"{tv_id}: button.press pair -> {outcome}", "button", "press", self.entity(identifier, "pair"), {},
            lambda ev: any(e.get("kind") == "pairing" and e.get("action") == action for e in ev), timeout=15)
        return tv_id, identifier, log

    async def check_paired_power_and_volume(self, ha, session, host, tv_id):
        """A TV just paired: its power switch on, and a volume set on the TV pushed to Home Assistant.
        Returns the power switch's entity id."""
        identifier = f"tv2mqtt_{tv_id}"
        power = self.entity(identifier, "power")
        actual = await ha.wait_state(power, "on", 15) if power else None
        self.check(f"{tv_id}: power switch 'on' once paired", actual == "on", f"{power} = {actual!r}")
        volume = self.entity(identifier, "volume")
        await sim_set(session, host, {"volume": 30})
        actual = await ha.wait_state(volume, lambda v: number_is(v, 30), 10) if volume else None
        self.check(f"{tv_id}: volume 30 pushed from the TV", number_is(actual, 30), f"{volume} = {actual!r}")
        return power

    async def check_androidtv_behaviour(self, ha, session):
        """The Android TV: Pair shows a code, typed into the Pairing code text it pairs; then the pushed
        power and volume, a key, an app by name, and power off into standby."""
        host = ANDROID_TV
        known = await self.press_pair(ha, host, "the Android TV", "the TV shows a code", "code_shown")
        if known is None:
            return
        tv_id, identifier, log = known
        code = (await sim_get(session, host)).get("code") or ""
        await self.service_check(
            ha, log, f"{tv_id}: text.set_value pairing_code -> paired", "text", "set_value",
            self.entity(identifier, "pairing_code"), {"value": code.lower()},
            lambda ev: any(e.get("kind") == "pairing" and e.get("action") == "paired" for e in ev), timeout=15)
        power = await self.check_paired_power_and_volume(ha, session, host, tv_id)
        await self.service_check(
            ha, log, f"{tv_id}: button.press home -> KEYCODE_HOME", "button", "press",
            self.entity(identifier, "home"), {},
            lambda ev: any(e.get("kind") == "key" and e.get("code") == 3 for e in ev))
        await self.service_check(
            ha, log, f"{tv_id}: select.select_option app YouTube -> its app link", "select", "select_option",
            self.entity(identifier, "app"), {"option": "YouTube"},
            lambda ev: any(e.get("kind") == "app_link" and e.get("link") == "https://www.youtube.com" for e in ev))
        current = self.entity(identifier, "current_app")
        actual = await ha.wait_state(current, "YouTube", 10) if current else None
        self.check(f"{tv_id}: current_app 'YouTube' as the TV pushed it", actual == "YouTube", f"{current} = {actual!r}")
        await self.service_check(
            ha, log, f"{tv_id}: switch.turn_off power -> KEYCODE_POWER", "switch", "turn_off", power, {},
            lambda ev: any(e.get("kind") == "key" and e.get("code") == 26 for e in ev))
        mode = self.entity(identifier, "power_mode")
        actual = await ha.wait_state(mode, "standby", 10) if mode else None
        self.check(f"{tv_id}: power_mode 'standby' after power off", actual == "standby", f"{mode} = {actual!r}")
        note(f"{tv_id}: {ANDROID_NAME} checked")

    async def service_check(self, ha, log, name, domain, service, entity_id, data, predicate, timeout=10):
        """Calls a service on an entity and checks the simulator's log for what it should cause."""
        if entity_id is None:
            return self.check(name, False, "no such entity in Home Assistant")
        mark = log.mark()
        try:
            await ha.call(domain, service, entity_id=entity_id, **data)
        except RuntimeError as err:
            return self.check(name, False, str(err))
        events = await log.wait(mark, predicate, timeout)
        return self.check(name, events is not None, f"{entity_id}; simulator got {kinds(log.since(mark))}")

    async def check_bridge_commands(self, ha, expected):
        """The bridge's own entities: log_level select and discover button reach the bridge."""
        bridge = next((i for i in expected if i.startswith("tv2mqtt_bridge")), None)
        log_level = self.entity(bridge, "log_level")
        if log_level:
            await ha.call("select", "select_option", entity_id=log_level, option="info")
            actual = await ha.wait_state(log_level, "info", 10)
            self.check("bridge: select.select_option log_level info -> bridge/info says info", actual == "info",
                       f"{log_level} = {actual!r}")
            await ha.call("select", "select_option", entity_id=log_level, option="debug")
            await ha.wait_state(log_level, "debug", 10)
        discover = self.entity(bridge, "discover")
        if discover:
            received = []

            def listen():
                client = mqtt_client(f"verify-discover-{os.getpid()}")
                client.on_connect = lambda c, u, f, *rest: c.subscribe(f"{BASE}/bridge/#")
                client.on_message = lambda c, u, m: received.append((m.topic, m.payload.decode("utf-8", "replace")))
                client.connect(HOST, self.mqtt_port, 30)
                end = time.monotonic() + 1.0
                while time.monotonic() < end:
                    client.loop(0.1)
                return client

            client = await asyncio.to_thread(listen)
            await ha.call("button", "press", entity_id=discover)

            def more():
                end = time.monotonic() + 5
                while time.monotonic() < end:
                    client.loop(0.1)
                client.disconnect()

            await asyncio.to_thread(more)
            requests = [t for t, p in received if t == f"{BASE}/bridge/request/discover"]
            self.check("bridge: button.press discover -> bridge/request/discover", bool(requests),
                       f"{len(requests)} request(s); responses {[p for t, p in received if '/response/' in t]}")

    async def check_bridge_stop(self, ha, expected):
        """The bridge's last will: every entity but connection_state becomes unavailable."""
        began = time.monotonic()
        code = self.processes.stop(self.bridge, timeout=10)
        self.check("the bridge exits on SIGTERM within 10 s", code == 0,
                   f"status {code} after {time.monotonic() - began:.1f} s" + (" (SIGKILLed)" if code == -9 else ""))
        bridge = next((i for i in expected if i.startswith("tv2mqtt_bridge")), None)
        connection = self.entity(bridge, "connection_state")
        actual = await ha.wait_state(connection, "off", 10)
        self.check("after the bridge stops: connection_state 'off'", actual == "off", f"{connection} = {actual!r}")
        await asyncio.sleep(1)
        states = await ha.states()
        still = []
        for (identifier, key), entity_id in self.entity_ids.items():
            if key == "connection_state" or entity_id not in states:
                continue
            if states[entity_id]["state"] != "unavailable":
                still.append(f"{entity_id}={states[entity_id]['state']}")
        self.check("after the bridge stops: every other entity unavailable", not still, f"{still}")

    def check_log(self):
        records = log_records(os.path.join(self.config_dir, "home-assistant.log"))
        problems = [r for r in records if r[0] in ("WARNING", "ERROR", "CRITICAL")]
        relevant = [
            r for r in problems
            if RELEVANT_LOGGER.search(r[1]) or RELEVANT_TEXT.search(r[2]) or "/components/mqtt/" in r[3]
        ]
        for record in relevant:
            print(f"  !! {record[3]}")
        self.check("Home Assistant logged no warning or error about MQTT, discovery, templates or our topics",
                   not relevant, f"{len(relevant)} record(s), shown above" if relevant else "")
        others = [r for r in problems if r not in relevant]
        if others:
            note(f"{len(others)} other warning/error record(s) in Home Assistant's log (not about tv2mqtt):")
            for record in others:
                note(f"{record[0]} [{record[1]}] {record[2][:200]}")

    # --- the run -----------------------------------------------------------------------------

    async def run(self):
        started = time.monotonic()
        timeout = aiohttp.ClientTimeout(total=60)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            if not self.start_mosquitto():
                return
            if not self.args.bridge_only and not self.start_simulators():
                return
            self.start_bridge()
            if not await self.wait_bridge():
                return
            ha = await self.start_home_assistant(session)
            if ha is None:
                return
            note(f"Home Assistant ready after {time.monotonic() - started:.0f} s")
            retained, expected = await self.converge(ha)
            await self.check_registry(ha, retained, expected)
            await self.check_states(ha, retained, expected)
            if not self.args.bridge_only:
                await self.check_tv_states(ha, session)
                await self.check_tv_behaviour(ha, session)
                await self.check_live_tv(ha, session)
                await self.check_samsung_behaviour(ha, session)
                await self.check_frame_behaviour(ha, session)
                await self.check_legacy_behaviour(ha)
                await self.check_lg_behaviour(ha, session)
                await self.check_androidtv_behaviour(ha, session)
                await self.check_issue17(ha, session)
            await self.check_bridge_commands(ha, expected)
            await self.check_bridge_stop(ha, expected)
            await ha.ws.close()
        self.check_log()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True, help="a fresh temporary directory")
    parser.add_argument("--bin", required=True, help="directory holding tv2mqtt and tvsim")
    parser.add_argument("--bridge-only", action="store_true", help="no simulated TVs")
    parser.add_argument("--discovery", choices=("device", "entity"), default="device",
                        help="the bridge's homeassistant.discovery")
    args = parser.parse_args()
    verification = Verification(args)

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        asyncio.run(verification.run())
    except KeyboardInterrupt:
        verification.check("run completed", False, "interrupted")
    except Exception as err:  # noqa: BLE001
        import traceback

        traceback.print_exc()
        verification.check("run completed", False, f"{type(err).__name__}: {err}")
    finally:
        verification.processes.stop_all()
    checks = verification.checks
    print(f"{checks.passed} passed, {checks.failed} failed", flush=True)
    return 0 if checks.failed == 0 and checks.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
