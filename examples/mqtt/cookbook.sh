#!/usr/bin/env bash
# A mosquitto_pub cookbook: every command tv2mqtt takes, for a TV with the id `living_room`.
# Run a line at a time (they are not meant to run all at once), or source this file and call
# the functions. BROKER and TV can be set in the environment.
BROKER=${BROKER:-localhost}
TV=${TV:-living_room}
BASE=${BASE:-tv2mqtt}
pub() { mosquitto_pub -h "$BROKER" -t "$1" -m "$2"; }

# Power: ON wakes it (Wake-on-LAN, then the TV's power-on), OFF turns it off only if it is on.
power_on() { pub "$BASE/$TV/set/power" ON; }
power_off() { pub "$BASE/$TV/set/power" OFF; }
power_toggle() { pub "$BASE/$TV/set/power" TOGGLE; }   # resolved against the TV's real state

# Keys: the shared names work on every TV; vendor names too (Roku VolumeUp, Samsung KEY_VOLUP).
home() { pub "$BASE/$TV/set/key" home; }
volume_up_three() { pub "$BASE/$TV/set" '{"key":"volume_up","repeat":3}'; }
samsung_key() { pub "$BASE/$TV/set/key" KEY_SOURCE; }

# Apps, by name or id; deep links (Roku contentId/mediaType).
netflix() { pub "$BASE/$TV/set/app" Netflix; }
deep_link() { pub "$BASE/$TV/set" '{"launch":{"app":"12","contentId":"80057281","mediaType":"movie"}}'; }

# Inputs, text, volume and mute.
hdmi1() { pub "$BASE/$TV/set/input" "HDMI 1"; }
search_text() { pub "$BASE/$TV/set/text" "harry potter"; }
volume_25() { pub "$BASE/$TV/set/volume" 25; }      # Samsung (UPnP), Roku with ECP-2
mute() { pub "$BASE/$TV/set/mute" ON; }

# Several commands in one message run in order: power, input, app, launch, volume, mute, key, text.
movie_night() { pub "$BASE/$TV/set" '{"power":"ON","app":"Netflix","volume":20,"transaction":"movie-1"}'; }

# The answer to a command that carried a transaction, and the bridge's requests.
watch_responses() { mosquitto_sub -h "$BROKER" -v -t "$BASE/$TV/response" -t "$BASE/bridge/response/#"; }
discover_now() { pub "$BASE/bridge/request/discover" '{}'; }
rename() { pub "$BASE/bridge/request/tv/rename" "{\"id\":\"$TV\",\"name\":\"Den TV\"}"; }
pair_samsung() { pub "$BASE/bridge/request/tv/pair" "{\"id\":\"$TV\"}"; }
health() { pub "$BASE/bridge/request/health_check" '{"transaction":"h1"}'; }
debug_logs() { pub "$BASE/bridge/request/log_level" debug; }
