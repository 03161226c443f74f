#!/usr/bin/env python3
"""A minimal WebSocket client (RFC 6455) on the standard library, for the
operations scripts: connects over ws:// or wss:// (trusting --cafile),
says hello to a hold'em table as a spectator, prints the type of the first
message and, with --wait-close, the close code the server sends.

    wsclient.py URL [--cafile CA.pem] [--wait-close SECONDS]
"""
import argparse
import base64
import json
import os
import socket
import ssl
import struct
import sys
import urllib.parse


def frame(opcode, payload):
    mask = os.urandom(4)
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return data


def read_frame(sock):
    b0, b1 = read_exact(sock, 2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack("!H", read_exact(sock, 2))[0]
    elif n == 127:
        n = struct.unpack("!Q", read_exact(sock, 8))[0]
    return b0 & 0x0F, read_exact(sock, n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("--cafile")
    ap.add_argument("--wait-close", type=float, default=0)
    a = ap.parse_args()
    u = urllib.parse.urlsplit(a.url)
    port = u.port or (443 if u.scheme == "wss" else 80)
    sock = socket.create_connection((u.hostname, port), timeout=15)
    if u.scheme == "wss":
        ctx = ssl.create_default_context(cafile=a.cafile)
        sock = ctx.wrap_socket(sock, server_hostname=u.hostname)
    key = base64.b64encode(os.urandom(16)).decode()
    path = u.path + ("?" + u.query if u.query else "")
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {u.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += read_exact(sock, 1)
    status = head.split(b"\r\n", 1)[0].decode()
    if " 101 " not in status:
        sys.exit(f"no upgrade: {status}")
    sock.sendall(frame(1, json.dumps({"type": "hello"}).encode()))
    while True:
        op, payload = read_frame(sock)
        if op == 1:
            print("message", json.loads(payload).get("type"))
            break
        if op == 8:
            sys.exit("closed before any message")
    if a.wait_close:
        sock.settimeout(a.wait_close)
        while True:
            op, payload = read_frame(sock)
            if op == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                print("close", code)
                return


if __name__ == "__main__":
    main()
