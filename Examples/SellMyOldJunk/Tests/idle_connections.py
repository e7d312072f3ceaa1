"""Opens idle and slow connections to a junk-server and reports whether the server closes them.

    idle_connections.py PORT IDLE SLOW LIMIT_SECONDS

Opens IDLE connections that send nothing and SLOW ones that send a request head one
byte every half second (a slowloris). Prints "open" once all are connected, then
waits (at most LIMIT_SECONDS) until the server has closed them, and prints
"closed C of N" (C: connections the server closed). A test peer, not part of the app.
"""
import select
import socket
import sys
import time

port, idle, slow, limit = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
connections = []
for _ in range(idle + slow):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.setblocking(False)
    connections.append(connection)
print("open", flush=True)
head = b"GET /listings HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
open_ones = set(range(len(connections)))
closed = 0
sent = 0
deadline = time.monotonic() + limit
while open_ones and time.monotonic() < deadline:
    for index in list(open_ones):
        connection = connections[index]
        if index >= idle and sent < len(head):
            try:
                connection.send(head[sent:sent + 1])
            except OSError:
                open_ones.discard(index)
                closed += 1
                continue
    sent += 1
    readable, _, _ = select.select([connections[i] for i in open_ones], [], [], 0.5)
    for connection in readable:
        try:
            data = connection.recv(4096)
        except OSError:
            data = b""
        if not data:  # end of stream: the server closed it
            index = connections.index(connection)
            open_ones.discard(index)
            closed += 1
print(f"closed {closed} of {len(connections)}", flush=True)
