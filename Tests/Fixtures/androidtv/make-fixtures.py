#!/usr/bin/env python3
"""Writes the Android TV fixtures with androidtvremote2's own protobuf modules (the library
Home Assistant's integration uses), so our codec is checked against bytes it did not make.

    python3 -m venv /tmp/atv && /tmp/atv/bin/pip install androidtvremote2==0.3.2
    /tmp/atv/bin/python Tests/Fixtures/androidtv/make-fixtures.py

remote.txt and pairing.txt hold `<who> <name> <hex>` lines: what a TV sends (`tv`) and what
androidtvremote2 sends (`client`). secret.txt holds two certificates, a code whose check
digits match them, and the secret, computed as pairing.py computes it."""
import hashlib
import os
import subprocess
import tempfile

from androidtvremote2 import polo_pb2, remotemessage_pb2
from cryptography import x509

here = os.path.dirname(os.path.abspath(__file__))
R = remotemessage_pb2


def remote(build):
    message = R.RemoteMessage()
    build(message)
    return message.SerializeToString().hex()


def polo(build, status=polo_pb2.OuterMessage.Status.STATUS_OK):
    message = polo_pb2.OuterMessage()
    message.protocol_version = 2
    message.status = status
    build(message)
    return message.SerializeToString().hex()


def configure_tv(m):
    m.remote_configure.code1 = 622
    m.remote_configure.device_info.model = "BRAVIA 4K UR3"
    m.remote_configure.device_info.vendor = "Sony"
    m.remote_configure.device_info.unknown1 = 1
    m.remote_configure.device_info.unknown2 = "1"
    m.remote_configure.device_info.package_name = "com.google.android.tv.remote.service"
    m.remote_configure.device_info.app_version = "5.2.473254133"


def configure_client(m):
    # remote.py's answer, with the model and vendor the bridge names itself by.
    m.remote_configure.code1 = 614
    m.remote_configure.device_info.model = "tv2mqtt"
    m.remote_configure.device_info.vendor = "tv2mqtt"
    m.remote_configure.device_info.unknown1 = 1
    m.remote_configure.device_info.unknown2 = "1"
    m.remote_configure.device_info.package_name = "atvremote"
    m.remote_configure.device_info.app_version = "1.0.0"


def volume(m):
    m.remote_set_volume_level.player_model = "BRAVIA 4K UR3"
    m.remote_set_volume_level.volume_max = 100
    m.remote_set_volume_level.volume_level = 12
    m.remote_set_volume_level.volume_muted = False


def app(m):
    m.remote_ime_key_inject.app_info.app_package = "com.netflix.ninja"
    m.remote_ime_key_inject.text_field_status.counter_field = 3


def batch_tv(m):
    m.remote_ime_batch_edit.ime_counter = 5
    m.remote_ime_batch_edit.field_counter = 3


def batch_client(m):
    edit = R.RemoteEditInfo(insert=1, text_field_status=R.RemoteImeObject(start=4, end=4, value="hello"))
    m.remote_ime_batch_edit.CopyFrom(R.RemoteImeBatchEdit(ime_counter=5, field_counter=3, edit_info=[edit]))


def error(m):
    m.remote_error.value = True
    m.remote_error.message.remote_key_inject.key_code = R.KEYCODE_HOME
    m.remote_error.message.remote_key_inject.direction = R.SHORT


def key(code, direction):
    def build(m):
        m.remote_key_inject.key_code = code
        m.remote_key_inject.direction = direction
    return build


remote_lines = [
    ("tv", "configure", remote(configure_tv)),
    ("tv", "set_active", remote(lambda m: m.remote_set_active.SetInParent())),
    ("tv", "ping_request", remote(lambda m: (setattr(m.remote_ping_request, "val1", 12), setattr(m.remote_ping_request, "val2", 0)))),
    ("tv", "start_on", remote(lambda m: setattr(m.remote_start, "started", True))),
    ("tv", "start_standby", remote(lambda m: m.remote_start.SetInParent())),
    ("tv", "volume", remote(volume)),
    ("tv", "app", remote(app)),
    ("tv", "batch_edit", remote(batch_tv)),
    ("tv", "error", remote(error)),
    ("tv", "ime_show", remote(lambda m: setattr(m.remote_ime_show_request.remote_text_field_status, "value", "x"))),
    ("client", "configure", remote(configure_client)),
    ("client", "set_active", remote(lambda m: setattr(m.remote_set_active, "active", 614))),
    ("client", "ping_response", remote(lambda m: setattr(m.remote_ping_response, "val1", 12))),
    ("client", "key_home", remote(key(R.KEYCODE_HOME, R.SHORT))),
    ("client", "key_volume_up_start", remote(key(R.KEYCODE_VOLUME_UP, R.START_LONG))),
    ("client", "key_volume_up_end", remote(key(R.KEYCODE_VOLUME_UP, R.END_LONG))),
    ("client", "app_link", remote(lambda m: setattr(m.remote_app_link_launch_request, "app_link", "https://www.netflix.com/title/80057281"))),
    ("client", "text", remote(batch_client)),
]

O = polo_pb2.Options


def options_client(m):
    m.options.preferred_role = O.RoleType.ROLE_TYPE_INPUT
    encoding = m.options.input_encodings.add()
    encoding.type = O.Encoding.ENCODING_TYPE_HEXADECIMAL
    encoding.symbol_length = 6


def options_tv(m):
    options_client(m)
    encoding = m.options.output_encodings.add()
    encoding.type = O.Encoding.ENCODING_TYPE_HEXADECIMAL
    encoding.symbol_length = 6


def configuration(m):
    m.configuration.client_role = O.RoleType.ROLE_TYPE_INPUT
    m.configuration.encoding.type = O.Encoding.ENCODING_TYPE_HEXADECIMAL
    m.configuration.encoding.symbol_length = 6


def request(m):
    m.pairing_request.client_name = "tv2mqtt"
    m.pairing_request.service_name = "atvremote"


pairing_lines = [
    ("client", "pairing_request", polo(request)),
    ("tv", "pairing_request_ack", polo(lambda m: setattr(m.pairing_request_ack, "server_name", "BRAVIA 4K UR3"))),
    ("client", "options", polo(options_client)),
    ("tv", "options", polo(options_tv)),
    ("client", "configuration", polo(configuration)),
    ("tv", "configuration_ack", polo(lambda m: m.configuration_ack.SetInParent())),
    ("client", "secret", polo(lambda m: setattr(m.secret, "secret", bytes(range(32))))),
    ("tv", "secret_ack", polo(lambda m: setattr(m.secret_ack, "secret", bytes(range(32))))),
    ("tv", "bad_secret", polo(lambda m: None, polo_pb2.OuterMessage.Status.STATUS_BAD_SECRET)),
]

for name, lines in [("remote.txt", remote_lines), ("pairing.txt", pairing_lines)]:
    with open(os.path.join(here, name), "w") as out:
        for who, what, hexed in lines:
            out.write(f"{who} {what} {hexed}\n")


def certificate(directory, name):
    path = os.path.join(directory, name + ".pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", os.devnull, "-out", path,
         "-subj", "/CN=" + name, "-days", "3650"], check=True, capture_output=True)
    with open(path) as f:
        return f.read()


with tempfile.TemporaryDirectory() as directory:
    client_pem = certificate(directory, "client")
    server_pem = certificate(directory, "atvremote")


def numbers(pem):
    public = x509.load_pem_x509_certificate(pem.encode()).public_key().public_numbers()
    return public.n, public.e


(cn, ce), (sn, se) = numbers(client_pem), numbers(server_pem)
last = "5A7E"
h = hashlib.sha256()
h.update(bytes.fromhex(f"{cn:X}"))
h.update(bytes.fromhex(f"0{ce:X}"))
h.update(bytes.fromhex(f"{sn:X}"))
h.update(bytes.fromhex(f"0{se:X}"))
h.update(bytes.fromhex(last))
secret = h.digest()
code = f"{secret[0]:02X}{last}"
with open(os.path.join(here, "secret.txt"), "w") as out:
    out.write(f"code {code}\nsecret {secret.hex()}\n{client_pem}{server_pem}")
