#!/usr/bin/env python3
"""Records what a real gpsd answers to a client, for the socket's conformance test.

Serves an NMEA log (default: the first capture in ../shared/data/nmea) over TCP, starts
`gpsd -N -n` reading it, connects as a client, sends the requests in REQUESTS one by one and
keeps every line gpsd sends. Writes Tests/CLI/Sessions/gpsd-<version>.log: "> request"
for what the client sent, "< reply" for each line received. Needs gpsd (Debian's package).
Run from the repository root.
"""
import glob, os, socket, subprocess, sys, threading, time

REQUESTS = ['?VERSION;', '?DEVICES;', '?WATCH={"enable":true,"json":true};', None, '?POLL;',
            '?NOSUCHTHING;', '?WATCH={"enable":tru};', '?WATCH={"enable":false};']

log_path = sys.argv[1] if len(sys.argv) > 1 else sorted(glob.glob("../shared/data/nmea/*.log"))[0]
sentences = [l for l in open(log_path, "rb").read().splitlines() if l.startswith(b"$")]

source = socket.socket(); source.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
source.bind(("127.0.0.1", 0)); source.listen(1)
source_port = source.getsockname()[1]

def serve():
    connection, _ = source.accept()
    while True:
        for line in sentences:
            try: connection.sendall(line + b"\r\n")
            except OSError: return
            time.sleep(0.05)

threading.Thread(target=serve, daemon=True).start()
gpsd_port = source_port + 1
gpsd = subprocess.Popen(["gpsd", "-N", "-n", "-S", str(gpsd_port), "tcp://127.0.0.1:%d" % source_port],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(2)
client = socket.create_connection(("127.0.0.1", gpsd_port), 5)
client.settimeout(0.5)
transcript, pending = [], b""

def collect(seconds):
    global pending
    end = time.time() + seconds
    while time.time() < end:
        try: pending += client.recv(65536)
        except socket.timeout: continue
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            transcript.append("< " + line.decode().rstrip("\r"))

collect(1)
for request in REQUESTS:
    if request is None:
        collect(4)      # the stream while watching
        continue
    transcript.append("> " + request)
    client.sendall(request.encode() + b"\n")
    collect(1.5)
gpsd.terminate()
version = subprocess.run(["gpsd", "-V"], capture_output=True, text=True).stdout.split()[1]
os.makedirs("Tests/CLI/Sessions", exist_ok=True)
out = "Tests/CLI/Sessions/gpsd-%s.log" % version
open(out, "w").write("\n".join(transcript) + "\n")
print("wrote", out, len(transcript), "lines from", os.path.basename(log_path))
