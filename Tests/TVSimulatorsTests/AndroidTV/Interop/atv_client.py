#!/usr/bin/env python3
"""androidtvremote2 (the library Home Assistant's androidtv_remote integration uses) against a
simulated Android TV: pairs (reading the code the TV shows from its /sim/state), connects,
presses a key, opens an app link, sends text, changes the volume by key and on the TV, and
prints one JSON line for each thing it saw, then "done".

    atv_client.py HOST REMOTE_PORT PAIR_PORT SIM_PORT CERT_DIRECTORY
"""
import asyncio
import json
import os
import sys
import urllib.request

from androidtvremote2 import AndroidTVRemote


def say(**fields):
    print(json.dumps(fields), flush=True)


def sim(host, port, change=None):
    data = None if change is None else json.dumps(change).encode()
    with urllib.request.urlopen(f"http://{host}:{port}/sim/state", data=data, timeout=30) as answer:
        return json.loads(answer.read())


async def until(predicate, what):
    for _ in range(300):
        if predicate():
            return
        await asyncio.sleep(0.1)
    raise SystemExit(f"timed out waiting for {what}")


async def main():
    host, remote_port, pair_port, sim_port, directory = sys.argv[1:6]
    remote = AndroidTVRemote(
        "tv2mqtt interop", os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem"), host,
        api_port=int(remote_port), pair_port=int(pair_port))
    await remote.async_generate_cert_if_missing()
    name, mac = await remote.async_get_name_and_mac()
    say(event="identity", name=name, mac=mac)

    try:
        await remote.async_connect()
        say(event="connected_unpaired")
    except Exception as error:  # InvalidAuth: the TV refuses an unpaired certificate
        say(event="unpaired_refused", error=type(error).__name__)

    await remote.async_start_pairing()
    code = sim(host, sim_port)["code"]
    say(event="code_shown", length=len(code))
    await remote.async_finish_pairing(code)
    say(event="paired")

    seen = {"volume": [], "apps": [], "power": []}
    remote.add_volume_info_updated_callback(lambda info: seen["volume"].append(dict(info)))
    remote.add_current_app_updated_callback(lambda app: seen["apps"].append(app))
    remote.add_is_on_updated_callback(lambda on: seen["power"].append(on))
    await remote.async_connect()
    await until(lambda: remote.volume_info is not None and remote.current_app, "the pushed state")
    say(event="state", is_on=remote.is_on, app=remote.current_app, volume=dict(remote.volume_info),
        device=dict(remote.device_info or {}))

    remote.send_key_command("HOME")
    remote.send_launch_app_command("https://www.netflix.com/title/80057281")
    await until(lambda: "com.netflix.ninja" in seen["apps"], "the app the link opened")
    say(event="app", app=remote.current_app)
    remote.send_text("hello")
    level = remote.volume_info["level"]
    remote.send_key_command("VOLUME_UP")
    await until(lambda: remote.volume_info["level"] == level + 1, "the volume after VOLUME_UP")
    say(event="volume_key", level=remote.volume_info["level"])
    sim(host, sim_port, {"volume": 30, "muted": True})
    await until(lambda: remote.volume_info["level"] == 30 and remote.volume_info["muted"], "the pushed volume")
    say(event="volume_pushed", level=30, muted=True)
    sim(host, sim_port, {"power": "standby"})
    await until(lambda: remote.is_on is False, "standby")
    say(event="standby")
    remote.disconnect()
    say(event="done")


asyncio.run(main())
