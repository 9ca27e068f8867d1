#!/usr/bin/env python3
"""Checks the golden discovery payloads with Home Assistant's own MQTT code.

Not run by `swift test`. To rerun after changing the payloads:

    python3.13 -m venv /tmp/ha-venv && /tmp/ha-venv/bin/pip install homeassistant==2025.4.4
    /tmp/ha-venv/bin/python Tests/HomeAssistantTests/Golden/validate.py

What it checks, for every *.json file next to it (written by GoldenDiscoveryTests):
- the discovery topic matches Home Assistant's topic pattern;
- device configs pass DEVICE_DISCOVERY_SCHEMA; every component (merged with the device and
  origin blocks the way discovery.py merges them) and every single-entity config passes its
  platform's DISCOVERY_SCHEMA; keys the schema would silently drop are listed (only
  `default_entity_id` is expected, which this version does not know yet);
- `default_entity_id` is a valid entity id of the component's platform, `object_id` a slug;
- every value_template, rendered by Home Assistant's template engine against state documents
  with fields present, missing, null, of the wrong type, and against non-JSON payloads, logs
  nothing and yields a state the platform accepts (ON/OFF/None, an option or None, a number
  in range or None, a sensor value of at most 255 characters, None for a sensor only where the
  release takes it as unknown).

With Home Assistant 2024.3.3 (Python 3.11; before 2024.11 there is no device discovery) it
checks the *-entity.json files, which must suit every release from 2024.3 on:

    python3.11 -m venv /tmp/ha-old && /tmp/ha-old/bin/pip install homeassistant==2024.3.3
    /tmp/ha-old/bin/python Tests/HomeAssistantTests/Golden/validate.py
Exit status 0 when everything passes.
"""

import asyncio
import glob
import inspect
import json
import logging
import os
import sys
import tempfile

import voluptuous as vol

from homeassistant.core import HomeAssistant
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.template import Template
from homeassistant.util import slugify
from homeassistant.components.mqtt import discovery as mqtt_discovery
try:
    from homeassistant.components.mqtt.const import SUPPORTED_COMPONENTS
except ImportError:  # before 2024.11 it lived in discovery.py
    SUPPORTED_COMPONENTS = mqtt_discovery.SUPPORTED_COMPONENTS
from homeassistant.const import __version__ as HA_VERSION

try:
    from homeassistant.components.mqtt.schemas import DEVICE_DISCOVERY_SCHEMA
except ImportError:  # before 2024.11: no device discovery, only the *-entity.json files apply
    DEVICE_DISCOVERY_SCHEMA = None
from homeassistant.components.mqtt import (
    binary_sensor,
    button,
    device_trigger,
    event,
    image,
    number,
    select,
    sensor,
    switch,
    text,
)

PLATFORMS = {
    "binary_sensor": binary_sensor,
    "button": button,
    "image": image,
    "number": number,
    "select": select,
    "sensor": sensor,
    "switch": switch,
    "text": text,
    "event": event,
}
try:  # MQTT notify entities came in 2024.5: the entity files carry none
    from homeassistant.components.mqtt import notify

    PLATFORMS["notify"] = notify
except ImportError:
    pass

# The per-TV event topic's payloads (issue 17): what a device trigger's value_template sees.
EVENT_PAYLOADS = [
    '{"event_type":"turn_on_requested","type":"turn_on_requested","tv":"den","message":"m"}',
    '{"event_type":"turn_on_failed","type":"turn_on_failed","tv":"den","message":"m","wake_timeout":20}',
    '{"type":"command_failed"}', '[]', 'not json', '',
]


def check_trigger(hass, where, config):
    """A device trigger: its schema drops nothing but device/origin, and its template logs nothing."""
    try:
        validated = device_trigger.TRIGGER_DISCOVERY_SCHEMA(dict(config))
    except vol.Invalid as err:
        fail(where, f"trigger schema: {err}")
        return
    dropped = set(config) - set(validated) - {"device", "origin"}
    if dropped:
        fail(where, f"keys dropped by the trigger schema: {sorted(dropped)}")
    template = Template(config["value_template"], hass)
    for payload in EVENT_PAYLOADS:
        del log_records[:]
        try:
            rendered = str(template.async_render_with_possible_json_value(payload, ""))
        except Exception as err:  # noqa: BLE001
            fail(where, f"template error on {payload!r}: {err}")
            continue
        for record in log_records:
            fail(where, f"logged on {payload!r}: {record.getMessage()}")
        expected = json.loads(payload).get("event_type", "") if payload.startswith("{") else ""
        if rendered != expected:
            fail(where, f"{payload!r} renders {rendered!r}")

FULL_STATE = {
    "power": "ON", "power_mode": "PowerOn", "app": "Netflix", "app_id": "12", "input": None,
    "media_state": "playing", "position": 73.3, "duration": 5400.0, "volume": 18, "muted": False,
    "limited_mode": False, "host": "203.0.113.50", "last_seen": "2026-11-22T10:00:00Z",
}


def state_payloads(options_seen):
    """State documents to render every TV template against."""
    docs = [FULL_STATE, {}, {key: None for key in FULL_STATE}]
    for key in FULL_STATE:
        docs.append({k: v for k, v in FULL_STATE.items() if k != key})
    docs += [
        {"power": "OFF", "power_mode": "DisplayOff", "muted": True, "limited_mode": True, "volume": 0},
        {"volume": 100, "media_state": "idle", "input": "HDMI1", "app": "Roku"},
        {"power": True, "volume": "18", "muted": "yes", "limited_mode": 1, "app": 12, "media_state": "play"},
        {"volume": True, "app": "x" * 300, "power_mode": ["PowerOn"], "input": {"name": "HDMI1"}},
    ]
    for option in sorted(options_seen):
        docs.append({"app": option, "input": option, "power": option, "media_state": option})
    payloads = [json.dumps(doc, ensure_ascii=False) for doc in docs]
    return payloads + ["", "garbage", "[]", "null", '"ON"', "42"]


BRIDGE_INFO = [
    json.dumps({"version": "1.0.0", "log_level": "debug", "tvs": 3}),
    json.dumps({}), json.dumps({"version": None, "log_level": "verbose"}), "", "garbage",
]

# Whether the installed MqttSensor takes a rendered None as unknown for every sensor (core PR
# #127032, 2024.10); before, only a numeric sensor does: a text sensor shows "None" and an enum
# sensor refuses it. Entity-style sensors render "unknown" (the unknown state) instead.
SENSOR_NONE_IS_UNKNOWN = "if payload == PAYLOAD_NONE" in inspect.getsource(sensor.MqttSensor)

failures = []
log_records = []


class Collector(logging.Handler):
    def emit(self, record):
        if record.levelno >= logging.INFO:
            log_records.append(record)


def fail(where, message):
    failures.append(f"{where}: {message}")


def accepted(platform, config, rendered):
    """Whether the platform would take `rendered` as a state without logging."""
    if rendered == "None":
        return platform != "sensor" or SENSOR_NONE_IS_UNKNOWN
    if rendered == "unknown" and platform == "sensor" and config.get("device_class") != "enum":
        return True  # the text sensor's state string for a value it does not know
    if platform == "switch":
        return rendered in ("ON", "OFF")
    if platform == "binary_sensor":
        return rendered in (config.get("payload_on", "ON"), config.get("payload_off", "OFF"))
    if platform == "select":
        return rendered in config["options"]
    if platform == "number":
        try:
            value = float(rendered)
        except ValueError:
            return False
        return config.get("min", 1) <= value <= config.get("max", 100)
    if platform == "sensor":
        if config.get("device_class") == "enum":
            return rendered in config.get("options", [])
        return len(rendered) <= 255
    if platform == "text":
        # mqtt/text.py takes any text of at most 255 characters; TextEntity.state then
        # refuses one shorter than `min` or longer than `max`.
        return config.get("min", 0) <= len(rendered) <= min(255, config.get("max", 255))
    return False


def check_component(hass, where, platform, config, options_seen):
    if platform == "device_automation":
        check_trigger(hass, where, config)
        return
    module = PLATFORMS.get(platform)
    if module is None:
        fail(where, f"unexpected platform {platform}")
        return
    try:
        validated = module.DISCOVERY_SCHEMA(dict(config))
    except vol.Invalid as err:
        fail(where, f"schema: {err}")
        return
    dropped = set(config) - set(validated) - {"device", "origin"}
    if dropped - {"default_entity_id"}:
        fail(where, f"keys dropped by the schema: {sorted(dropped)}")
    entity_id = config.get("default_entity_id")
    try:
        cv.entity_id(entity_id)
        if entity_id.split(".")[0] != platform:
            fail(where, f"default_entity_id {entity_id} is not a {platform}")
    except vol.Invalid as err:
        fail(where, f"default_entity_id {entity_id}: {err}")
    if slugify(config.get("object_id", "")) != config.get("object_id"):
        fail(where, f"object_id {config.get('object_id')} is not a slug")
    for option in config.get("options", []):
        options_seen.add(option)
    if "value_template" not in config:
        return
    state_topic = config.get("state_topic", "")
    payloads = BRIDGE_INFO if state_topic.endswith("/bridge/info") else state_payloads(options_seen)
    template = Template(config["value_template"], hass)
    for payload in payloads:
        del log_records[:]
        try:
            rendered = str(template.async_render_with_possible_json_value(payload, None))
        except Exception as err:  # noqa: BLE001
            fail(where, f"template error on {payload[:80]!r}: {err}")
            continue
        for record in log_records:
            fail(where, f"logged on {payload[:80]!r}: {record.getMessage()}")
        if not accepted(platform, validated, rendered):
            fail(where, f"{payload[:80]!r} renders {rendered[:80]!r}, which {platform} refuses")
        # The rendered option must equal the state document's value exactly.
        if platform == "select" and rendered != "None":
            field = "app" if "/set/app" in config.get("command_topic", "") else None
            if field and json.loads(payload).get(field) != rendered:
                fail(where, f"{payload[:80]!r} renders {rendered!r}")


def check_file(hass, path):
    name = os.path.basename(path)
    entries = json.load(open(path, encoding="utf-8"))
    options_seen = {"MLB.TV®", "it's", "a\\b", "{{ x }}", "100%", "é"}
    for entry in entries:
        topic, payload = entry["topic"], entry["payload"]
        trimmed = topic.replace("homeassistant/", "", 1)
        match = mqtt_discovery.TOPIC_MATCHER.match(trimmed)
        if not match or match.end() != len(trimmed):
            fail(name, f"illegal discovery topic {topic}")
            continue
        component = match.group("component")
        if payload == "":
            continue
        # Home Assistant receives the compact form; parse it back as it would.
        payload = json.loads(json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
        if component == "device":
            try:
                DEVICE_DISCOVERY_SCHEMA(json.loads(json.dumps(payload)))
            except vol.Invalid as err:
                fail(f"{name} {topic}", f"device schema: {err}")
                continue
            for key, config in payload["components"].items():
                config = dict(config)
                platform = config.pop("platform")
                if platform not in SUPPORTED_COMPONENTS:
                    fail(f"{name} {key}", f"unsupported platform {platform}")
                if not config:
                    continue  # a removal stub
                config["device"] = payload["device"]
                config["origin"] = payload["origin"]
                check_component(hass, f"{name} {key}", platform, config, options_seen)
        else:
            if hasattr(mqtt_discovery, "_valid_origin_info"):
                if not mqtt_discovery._valid_origin_info(payload):
                    fail(f"{name} {topic}", "origin")
            else:  # before 2024.11 discovery.py checks the origin with MQTT_ORIGIN_INFO_SCHEMA itself
                try:
                    mqtt_discovery.MQTT_ORIGIN_INFO_SCHEMA(dict(payload["origin"]))
                except vol.Invalid as err:
                    fail(f"{name} {topic}", f"origin: {err}")
            check_component(hass, f"{name} {topic}", component, payload, options_seen)
    return len(entries)


async def main():
    logging.getLogger().addHandler(Collector())
    logging.getLogger().setLevel(logging.INFO)
    with tempfile.TemporaryDirectory() as config_dir:
        hass = HomeAssistant(config_dir)
        files = sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "*.json")))
        if DEVICE_DISCOVERY_SCHEMA is None:
            print(f"Home Assistant {HA_VERSION} has no device discovery: checking the entity-style files only")
            files = [path for path in files if path.endswith("-entity.json")]
        for path in files:
            count = check_file(hass, path)
            print(f"checked {os.path.basename(path)} ({count} messages)")
        await hass.async_stop(force=True)
    for failure in failures:
        print("FAIL", failure)
    print("all passed" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
