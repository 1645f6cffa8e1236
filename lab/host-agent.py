#!/usr/bin/env python3
"""The lab's host side while a guest runs.

- Plays a GPS receiver on the guest's second serial port (/dev/ttyS1, a QEMU socket chardev):
  a GGA, RMC, GSA and GSV burst once a second at a fixed place, with the time of day moving.
  Every burst written is logged (one JSON object a line) so the judge knows what was fed.
- Answers the guest's requests, which it leaves as files in the shared control folder
  (NAME.req holding one command line; the answer is NAME.ack):
    unplug-gps SECONDS   close the serial socket (the receiver's cable pulled), wait, reconnect
    screendump PATH      save the VGA screen (the guest's /dev/fb0) as a PPM, PATH relative to
                         the results folder

Runs until the guest powers off (QEMU then closes the sockets) or it is sent SIGTERM.
"""
import argparse
import datetime
import fcntl
import json
import os
import signal
import socket
import struct
import sys
import termios
import time

# Where the fed receiver is: 47 deg 23.4567' N, 8 deg 32.5432' E, 52.3 m MSL. Low enough that the
# barometer image (1006.53 hPa) reduces to an ordinary sea-level pressure: no weather alert
# sounds the buzzer in the middle of the GPIO check.
LAT_NMEA, LAT_HEMI = "4723.4567", "N"
LON_NMEA, LON_HEMI = "00832.5432", "E"
LATITUDE = 47 + 23.4567 / 60
LONGITUDE = 8 + 32.5432 / 60
ALTITUDE_MSL = 52.3
GEOID_SEPARATION = 47.5
# Satellites in view: PRN, elevation, azimuth, SNR; the first eight are used in the fix.
SATELLITES = [(2, 45, 60, 40), (5, 62, 120, 44), (7, 30, 200, 38), (9, 15, 280, 33),
              (13, 75, 10, 46), (15, 22, 330, 35), (20, 50, 150, 42), (24, 35, 240, 39),
              (29, 8, 95, 25), (30, 12, 170, 28)]


def with_checksum(body):
    """A sentence with its NMEA checksum: the XOR of every byte between '$' and '*'."""
    checksum = 0
    for byte in body.encode("ascii"):
        checksum ^= byte
    return "$%s*%02X\r\n" % (body, checksum)


def burst(now):
    """One second's sentences for the UTC time `now`."""
    hms = now.strftime("%H%M%S") + ".00"
    date = now.strftime("%d%m%y")
    used = SATELLITES[:8]
    sentences = [
        "GPGGA,%s,%s,%s,%s,%s,1,%02d,0.9,%.1f,M,%.1f,M,," % (hms, LAT_NMEA, LAT_HEMI, LON_NMEA, LON_HEMI,
                                                          len(used), ALTITUDE_MSL, GEOID_SEPARATION),
        "GPGSA,A,3,%s,1.6,0.9,1.3" % ",".join(["%02d" % s[0] for s in used] + [""] * (12 - len(used))),
    ]
    pages = [SATELLITES[i:i + 4] for i in range(0, len(SATELLITES), 4)]
    for number, page in enumerate(pages, 1):
        fields = ",".join("%02d,%02d,%03d,%02d" % s for s in page)
        sentences.append("GPGSV,%d,%d,%02d,%s" % (len(pages), number, len(SATELLITES), fields))
    sentences.append("GPRMC,%s,A,%s,%s,%s,%s,0.00,0.0,%s,,,A" % (hms, LAT_NMEA, LAT_HEMI, LON_NMEA, LON_HEMI, date))
    return "".join(with_checksum(s) for s in sentences).encode("ascii")


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class Agent:
    def __init__(self, args):
        self.args = args
        self.gps = None
        self.unplugged_until = None
        self.unplug_request = None
        self.log = open(args.log, "a", buffering=1)
        self.done = set()

    def record(self, **entry):
        self.log.write(json.dumps(entry) + "\n")

    # --- the receiver ---

    def connect_gps(self):
        try:
            gps = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            gps.connect(self.args.gps)
            gps.setblocking(False)
            self.gps = gps
            return True
        except OSError:
            return False

    def unsent(self):
        """Bytes written that QEMU has not taken yet (the guest's UART is not being read)."""
        return struct.unpack("i", fcntl.ioctl(self.gps.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0]

    def feed(self, now):
        """Writes this second's burst, unless the last one is still queued: a receiver's bytes
        that nobody reads are lost, not delivered late with an old time in them."""
        if self.gps is None:
            return
        if self.unsent() > 0:
            self.record(event="dropped", time=iso(now))
            return
        try:
            self.gps.send(burst(now))
            self.record(event="fed", time=iso(now), lat=LATITUDE, lon=LONGITUDE, altMSL=ALTITUDE_MSL)
        except OSError as error:
            self.record(event="error", time=iso(now), error=str(error))

    # --- requests ---

    def requests(self):
        try:
            names = sorted(n for n in os.listdir(self.args.control) if n.endswith(".req"))
        except FileNotFoundError:
            return
        for name in names:
            if name in self.done:
                continue
            self.done.add(name)
            with open(os.path.join(self.args.control, name)) as request:
                command = request.read().split()
            self.handle(name[:-4], command)

    def handle(self, request_id, command):
        if command[:1] == ["unplug-gps"]:
            seconds = float(command[1]) if len(command) > 1 else 5
            if self.gps is not None:
                self.gps.close()
                self.gps = None
            self.unplugged_until = time.monotonic() + seconds
            self.unplug_request = request_id
            self.record(event="unplug", time=iso(datetime.datetime.now(datetime.timezone.utc)), seconds=seconds)
        elif command[:1] == ["screendump"] and len(command) == 2:
            path = os.path.join(os.path.dirname(self.args.control), command[1])
            self.ack(request_id, self.screendump(path))
        else:
            self.ack(request_id, "unknown request: " + " ".join(command))

    def ack(self, request_id, text):
        part = os.path.join(self.args.control, request_id + ".ack.part")
        with open(part, "w") as answer:
            answer.write(text + "\n")
        os.rename(part, os.path.join(self.args.control, request_id + ".ack"))

    def screendump(self, path):
        """The monitor's screendump, which writes the emulated VGA's current picture."""
        try:
            monitor = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            monitor.settimeout(10)
            monitor.connect(self.args.monitor)
            self.read_prompt(monitor)
            monitor.sendall(("screendump %s\n" % path).encode())
            self.read_prompt(monitor)
            monitor.close()
        except OSError as error:
            return "screendump failed: %s" % error
        return "saved %s (%d bytes)" % (os.path.basename(path), os.path.getsize(path)) if os.path.exists(path) \
            else "screendump wrote nothing"

    @staticmethod
    def read_prompt(monitor):
        seen = b""
        while not seen.endswith(b"(qemu) "):
            chunk = monitor.recv(4096)
            if not chunk:
                raise OSError("monitor closed")
            seen += chunk

    # --- the loop ---

    def run(self):
        deadline = time.monotonic() + 60
        while not self.connect_gps():
            if time.monotonic() > deadline:
                print("no GPS socket at %s" % self.args.gps, file=sys.stderr)
                return 1
            time.sleep(0.1)
        last_second = None
        while True:
            now = datetime.datetime.now(datetime.timezone.utc)
            if self.unplugged_until is not None and time.monotonic() >= self.unplugged_until:
                if self.connect_gps():
                    self.unplugged_until = None
                    self.record(event="replug", time=iso(now))
                    self.ack(self.unplug_request, "replugged at " + iso(now))
            second = now.replace(microsecond=0)
            if second != last_second:
                last_second = second
                self.feed(second)
            self.requests()
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gps", required=True, help="the QEMU socket of the guest's ttyS1")
    parser.add_argument("--monitor", required=True, help="the QEMU monitor's socket")
    parser.add_argument("--control", required=True, help="the shared folder of requests")
    parser.add_argument("--log", required=True, help="where every fed burst is logged")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sys.exit(Agent(args).run())


if __name__ == "__main__":
    main()
