#!/usr/bin/env python3
"""An independent WebSocket peer for tv2mqtt's interop tests, built on Python's `websockets`.

  ws_peer.py server          echo server on 127.0.0.1 (port printed as "port N"), subprotocol ecp-2;
                             a text "close <code> <reason>" makes it close with that code instead.
  ws_peer.py client PORT     connects to ws://127.0.0.1:PORT/ecp-session with subprotocol ecp-2,
                             checks echoes of text, 1 MiB binary and 100 ordered messages, then
                             closes with 1000; prints "ok" and exits 0 on success.
"""
import asyncio
import sys

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve


async def echo(ws):
    async for message in ws:
        if isinstance(message, str) and message.startswith("close "):
            _, code, *reason = message.split(" ", 2)
            await ws.close(int(code), reason[0] if reason else "")
            return
        await ws.send(message)


async def run_server():
    async with serve(echo, "127.0.0.1", 0, subprotocols=["ecp-2"], max_size=1 << 20, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"port {port}", flush=True)
        # Runs until the test kills it, or for a minute at most.
        await asyncio.sleep(60)


async def run_client(port):
    uri = f"ws://127.0.0.1:{port}/ecp-session"
    async with connect(uri, subprotocols=["ecp-2"], max_size=1 << 20, ping_interval=None) as ws:
        assert ws.subprotocol == "ecp-2", f"subprotocol {ws.subprotocol!r}"
        await ws.send("héllo")
        assert await ws.recv() == "héllo"
        big = bytes(i * 31 % 256 for i in range(1 << 20))
        await ws.send(big)
        assert await ws.recv() == big, "1 MiB echo differs"
        for i in range(100):
            await ws.send(f"message {i}")
        for i in range(100):
            got = await ws.recv()
            assert got == f"message {i}", f"message {i}: got {got!r}"
        await ws.close(1000, "python done")
        assert ws.close_code == 1000, f"close code {ws.close_code}"
    print("ok", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["server"]:
        asyncio.run(run_server())
    elif sys.argv[1:2] == ["client"] and len(sys.argv) == 3:
        asyncio.run(run_client(int(sys.argv[2])))
    else:
        sys.exit(__doc__)
