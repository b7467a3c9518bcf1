"""`npm start` on a busy port: build.py serves on the next free port and says so."""
from __future__ import annotations

import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build


def test_busy_port_moves_to_the_next_free_one(capsys):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        server = build.open_server(port)
        try:
            assert server.server_address[1] != port
            err = capsys.readouterr().err
            assert f"port {port} is busy" in err
            assert f"instead of {port}" in err and "PORT=" in err
        finally:
            server.server_close()
    finally:
        busy.close()
