"""Prints a loopback port for a test server: free now, and below the
kernel's ephemeral range (32768 on), where the many outgoing connections of
a test run would otherwise hold it."""
import random
import socket

while True:
    port = random.randint(20000, 32000)
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            continue
    print(port)
    break
