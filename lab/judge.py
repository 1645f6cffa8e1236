#!/usr/bin/env python3
"""Judges what the lab's guest left in the results folder.

Every check prints one line, "PASS name" or "FAIL name: expected ..., got ...", then a summary
line "N passed, N failed"; the exit status is 1 when any check failed. What a check expects
is worked out here from the register images the guest preloaded (lab/registers/*.regs) with
the chips' datasheet formulas and the drivers' documented scaling, and from what the host
agent fed the UART (nmea-fed.jsonl).
"""
import argparse
import glob
import json
import os
import re
import struct
import subprocess
import sys
import zlib

import exif

GRAVITY = 9.80665


# --- what the registers imply --------------------------------------------------------------------

def read_register_images(folder):
    """{address: {register: byte}} from the .regs files (address, first register, bytes...)."""
    chips = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.regs"))):
        for line in open(path):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            address, register = int(fields[0], 16), int(fields[1], 16)
            for offset, value in enumerate(fields[2:]):
                chips.setdefault(address, {})[register + offset] = int(value, 16)
    return chips


def s16(high, low):
    return struct.unpack(">h", bytes([high, low]))[0]


def c_div(a, b):
    """Integer division truncating toward zero, as C and Swift divide."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b >= 0) else -quotient


def bmp280_compensate(regs, press_lsb=None):
    """Temperature (degC) and pressure (Pa) from a BMP280's registers, by the datasheet's integer
    formulas (BST-BMP280-DS001 section 3.11.3, the 64-bit pressure formula)."""
    words = struct.unpack("<HhhHhhhhhhhh", bytes(regs[0x88 + i] for i in range(24)))
    t1, t2, t3, p1, p2, p3, p4, p5, p6, p7, p8, p9 = words
    lsb = regs[0xF8] if press_lsb is None else press_lsb
    adc_p = regs[0xF7] << 12 | lsb << 4 | regs[0xF9] >> 4
    adc_t = regs[0xFA] << 12 | regs[0xFB] << 4 | regs[0xFC] >> 4
    var1 = (((adc_t >> 3) - (t1 << 1)) * t2) >> 11
    var2 = (((((adc_t >> 4) - t1) * ((adc_t >> 4) - t1)) >> 12) * t3) >> 14
    fine = var1 + var2
    temperature = ((fine * 5 + 128) >> 8) / 100
    var1 = fine - 128000
    var2 = var1 * var1 * p6 + ((var1 * p5) << 17) + (p4 << 35)
    var1 = ((var1 * var1 * p3) >> 8) + ((var1 * p2) << 12)
    var1 = (((1 << 47) + var1) * p1) >> 33
    p = 1048576 - adc_p
    p = c_div(((p << 31) - var2) * 3125, var1)
    var1 = (p9 * (p >> 13) * (p >> 13)) >> 25
    var2 = (p8 * p) >> 19
    p = ((p + var1 + var2) >> 8) + (p7 << 4)
    return temperature, p / 256


def to_body(v):
    """The breakout's axes (x forward, y left, z up) in the reports' body frame (x forward,
    y right, z down), for a chip mounted flat as the lab board says."""
    return (v[0], -v[1], -v[2])


def mpu6050_expected(regs):
    """Acceleration (m/s^2), rotation (deg/s) and temperature from ACCEL_XOUT..GYRO_ZOUT at the
    driver's +-4 g (8192 LSB/g) and +-500 deg/s (65.5 LSB per deg/s)."""
    raw = [s16(regs[0x3B + 2 * i], regs[0x3C + 2 * i]) for i in range(7)]
    acc = to_body([r / 8192 * GRAVITY for r in raw[0:3]])
    gyro = to_body([r / 65.5 for r in raw[4:7]])
    return {"acc_x": acc[0], "acc_y": acc[1], "acc_z": acc[2], "gyro_x": gyro[0], "gyro_y": gyro[1],
            "gyro_z": gyro[2], "temp": raw[3] / 340 + 36.53}


def qmc5883l_expected(regs, x_low=None):
    """The field (microtesla) from X, Y, Z (little-endian) at the driver's 8 G (30 LSB/uT)."""
    low = regs[0x00] if x_low is None else x_low
    raw = [struct.unpack("<h", bytes([low, regs[0x01]]))[0],
           struct.unpack("<h", bytes([regs[0x02], regs[0x03]]))[0],
           struct.unpack("<h", bytes([regs[0x04], regs[0x05]]))[0]]
    field = to_body([r / 30 for r in raw])
    return {"mag_x": field[0], "mag_y": field[1], "mag_z": field[2]}


# --- reading the results -------------------------------------------------------------------------

class Scenario:
    """One scenario's folder of results."""

    def __init__(self, root, name):
        self.name = name
        self.folder = os.path.join(root, "guest", name)

    def exists(self):
        return os.path.isdir(self.folder)

    def path(self, name):
        return os.path.join(self.folder, name)

    def text(self, name):
        try:
            with open(self.path(name), errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def rc(self, name):
        text = self.text(name)
        return int(text.strip()) if text and text.strip().lstrip("-").isdigit() else None

    def reports(self, name):
        """The JSON reports of a stream, in order (lines that are not JSON are skipped)."""
        text = self.text(name) or ""
        out = []
        for line in text.splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
        return out

    def json(self, name):
        try:
            return json.loads(self.text(name) or "")
        except ValueError:
            return None


def of_class(reports, name):
    return [r for r in reports if r.get("class") == name]


def devices_of(reports):
    """{path suffix ("0x76", "/dev/ttyS1"): DEVICE} from the last DEVICES report."""
    found = of_class(reports, "DEVICES")
    if not found:
        return None
    out = {}
    for device in found[-1].get("devices", []):
        path = device.get("path", "")
        out[path.rsplit("@", 1)[-1] if "@" in path else path] = device
    return out


def short(value, limit=240):
    text = value if isinstance(value, str) else json.dumps(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


# --- the checks ----------------------------------------------------------------------------------

class Judge:
    def __init__(self, results, registers):
        self.results = results
        self.binary = None
        self.regs = read_register_images(registers)
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def check(self, name, ok, failure):
        if ok:
            self.passed += 1
            print("PASS %s" % name)
        else:
            self.failed += 1
            print("FAIL %s: %s" % (name, failure))
        sys.stdout.flush()
        return ok

    def scenario(self, name):
        scenario = Scenario(self.results, name)
        if not scenario.exists():
            self.check(name, False, "the guest did not run this scenario (see .lab-cache/results/console.log)")
            return None
        return scenario

    # Shared judgements.

    def imu_matches(self, report, tolerance=0.0015):
        """The fields of an IMU report that differ from the preloaded images, as text."""
        expected = dict(mpu6050_expected(self.regs[0x68]))
        expected.update(qmc5883l_expected(self.regs[0x0D]))
        wrong = []
        for key, value in expected.items():
            got = report.get(key)
            # temp is given to 0.1 degC, the rest to 0.001.
            limit = 0.051 if key == "temp" else tolerance
            if not isinstance(got, (int, float)) or abs(got - value) > limit:
                wrong.append("%s %s (expected %.3f)" % (key, got, value))
        return wrong

    def env_matches(self, report):
        temperature, pressure = bmp280_compensate(self.regs[0x76])
        got_p, got_t = report.get("pressure"), report.get("temp")
        if not isinstance(got_p, (int, float)) or not isinstance(got_t, (int, float)):
            return ["no pressure or temp in %s" % short(report)]
        wrong = []
        # ENV gives hPa to 0.01 (1 Pa): the datasheet's value is within 0.5 Pa once rounded.
        if abs(got_p * 100 - pressure) > 0.51:
            wrong.append("pressure %.2f hPa (expected %.4f hPa, within 0.5 Pa)" % (got_p, pressure / 100))
        if abs(got_t - temperature) > 0.0101:
            wrong.append("temp %s degC (expected %.2f)" % (got_t, temperature))
        return wrong

    def run_ended_cleanly(self, scenario, name):
        rc = scenario.rc("run.rc")
        self.check(name, rc == 0, "lodestone run should stop after --duration with status 0, got %s; stderr: %s"
                   % (rc, short(scenario.text("run.err") or "(none)")))

    def others_work(self, scenario, name, after_index=0):
        """The IMU, magnetometer and GPS keep reporting the right values while the barometer fails."""
        reports = scenario.reports("watch.jsonl")[after_index:]
        imu = [r for r in of_class(reports, "IMU") if "mag_x" in r]
        tpv = [r for r in of_class(reports, "TPV") if r.get("mode", 0) >= 2]
        wrong = self.imu_matches(imu[-1]) if imu else ["no IMU report with a field"]
        self.check(name, len(imu) >= 50 and not wrong and tpv,
                   "IMU reports with the preloaded values and TPVs while the barometer fails; got %d IMU, %d TPV%s"
                   % (len(imu), len(tpv), ("; " + "; ".join(wrong)) if wrong else ""))

    def reason_reported(self, scenario, prefix, must_contain, devices_file="devices.jsonl"):
        """The barometer's DEVICE entry, `lodestone status` and the log all give the reason."""
        devices = devices_of(scenario.reports(devices_file))
        baro = (devices or {}).get("0x76")
        error = (baro or {}).get("error", "")
        has_all = all(word.lower() in error.lower() for word in must_contain)
        self.check(prefix + "/devices", baro is not None and baro.get("health") != "ok" and has_all,
                   "the barometer's DEVICE entry with a health other than ok and an \"error\" containing %s; got %s"
                   % (" and ".join(repr(w) for w in must_contain), short(baro) if baro else "no DEVICE for 0x76"))
        status = scenario.text("status.txt") or ""
        self.check(prefix + "/status", all(w.lower() in status.lower() for w in must_contain),
                   "lodestone status printing the reason (%s); got: %s"
                   % (" and ".join(repr(w) for w in must_contain), short(status or scenario.text("status.txt.err") or "")))
        health = scenario.json("status.json") or {}
        errors = health.get("sensorErrors") or {}
        reason = " ".join(str(v) for v in errors.values()) if isinstance(errors, dict) else json.dumps(errors)
        self.check(prefix + "/health-json", all(w.lower() in reason.lower() for w in must_contain),
                   "HEALTH (lodestone status --json) with the reason in sensorErrors; got %s"
                   % short(errors if errors else health or scenario.text("status.json.err") or "nothing"))
        log = scenario.text("run.err") or ""
        lines = [l for l in log.splitlines() if all(w.lower() in l.lower() for w in must_contain)]
        self.check(prefix + "/log-once", len(lines) == 1,
                   "the run log saying the reason once; it says it %d times; log: %s" % (len(lines), short(log, 400)))

    # The scenarios.

    def probe(self):
        s = self.scenario("probe")
        if not s:
            return
        found = s.json("probe.json") or {}
        chips = sorted((c.get("address"), c.get("chip")) for c in found.get("chips", []))
        expected = [("0x0d", "qmc5883l"), ("0x68", "mpu6050"), ("0x76", "bmp280")]
        self.check("probe", s.rc("probe.rc") == 0 and chips == expected,
                   "status 0 and chips %s; got status %s and %s (stderr: %s)"
                   % (expected, s.rc("probe.rc"), chips, short(s.text("probe.err") or "")))

    def values(self):
        s = self.scenario("values")
        if not s:
            return
        reports = s.reports("watch.jsonl")
        env = of_class(reports, "ENV")
        self.check("values/barometer", env and not self.env_matches(env[0]),
                   "; ".join(self.env_matches(env[0])) if env else "no ENV report (stderr: %s)"
                   % short(s.text("run.err") or ""))
        imu = [r for r in of_class(reports, "IMU") if "mag_x" in r]
        expected_mag = qmc5883l_expected(self.regs[0x0D])["mag_x"]
        still = [r for r in imu if abs(r["mag_x"] - expected_mag) < 0.0015]
        wrong = [w for r in still for w in self.imu_matches(r)]
        self.check("values/imu-and-magnetometer", len(still) >= 50 and not wrong,
                   "at least 50 IMU reports with the preloaded values; got %d%s"
                   % (len(still), "; first differences: " + "; ".join(wrong[:6]) if wrong else ""))
        # Accelerometer and gyroscope were never moved: every report keeps them.
        unmoved = [w for r in imu for w in self.imu_matches(r) if not w.startswith("mag_x")]
        self.check("values/imu-steady", imu and not unmoved,
                   "every IMU report with the preloaded accelerometer, gyroscope and temperature; got %s"
                   % "; ".join(unmoved[:6]))
        devices = devices_of(reports) or {}
        health = {k: v.get("health") for k, v in devices.items()}
        self.check("values/devices", len(health) == 4 and set(health.values()) == {"ok"},
                   "DEVICES with the IMU, magnetometer, barometer and GPS all ok; got %s" % health)
        self.moving(s, imu, env)
        self.run_ended_cleanly(s, "values/clean-exit")

    def moving(self, s, imu, env):
        """The reports follow the values the guest's feeder wrote, in order."""
        steps = [line.split() for line in (s.text("feeder.log") or "").splitlines() if line.strip()]
        if not steps:
            self.check("values/moving", False, "the feeder wrote nothing (see feeder.log, scenario.log)")
            return
        mag_values = [qmc5883l_expected(self.regs[0x0D])["mag_x"]] + \
                     [qmc5883l_expected(self.regs[0x0D], int(x))["mag_x"] for _, x, _ in steps]
        seen = distinct([r["mag_x"] for r in imu])
        unknown = [v for v in seen if not any(abs(v - m) < 0.0015 for m in mag_values)]
        ordered = all(b > a for a, b in zip(seen[1:], seen[2:]))
        self.check("values/moving-magnetometer",
                   len(seen) >= 8 and not unknown and ordered and abs(seen[-1] - mag_values[-1]) < 0.0015,
                   "mag_x following the %d written values in order, ending at %.3f; got %s"
                   % (len(mag_values), mag_values[-1], [round(v, 3) for v in seen]))
        pressures = [bmp280_compensate(self.regs[0x76], lsb)[1] / 100
                     for lsb in distinct([self.regs[0x76][0xF8]] + [int(l) for _, _, l in steps])]
        seen = distinct([r.get("pressure") for r in env])
        unknown = [v for v in seen if not any(abs(v - p) <= 0.0051 for p in pressures)]
        ordered = all(b < a for a, b in zip(seen, seen[1:]))
        self.check("values/moving-pressure",
                   len(seen) >= 4 and not unknown and ordered and abs(seen[-1] - pressures[-1]) <= 0.0051,
                   "ENV pressure following the written readings %s hPa in order; got %s"
                   % ([round(p, 2) for p in pressures], seen))

    def record(self):
        """The guest's recording, replayed here (another machine, another kernel): twice at two
        speeds into the same reports, the chips' values the live run published among them, and
        judged by verify --recording."""
        s = self.scenario("record")
        if not s:
            return
        self.run_ended_cleanly(s, "record/run")
        recording = s.path("lab.rec")
        if not os.path.exists(recording) or not self.binary:
            self.check("record/file", False, "the guest's recording %s and the binary to replay it (%s)" % (recording, self.binary))
            return
        outputs = {}
        for name, speed in (("max", "max"), ("20", "20")):
            done = subprocess.run([self.binary, "replay", recording, "--speed", speed, "--reports", s.path("replay-%s.jsonl" % name)],
                                  capture_output=True, text=True, timeout=300)
            outputs[name] = done
            self.check("record/replay-" + name, done.returncode == 0 and "the end of the recording" in done.stderr,
                       "the replay at speed %s to reach the recording's end; got status %d: %s" % (speed, done.returncode, short(done.stderr)))
        a, b = (open(s.path("replay-%s.jsonl" % n), "rb").read() if os.path.exists(s.path("replay-%s.jsonl" % n)) else b""
                for n in ("max", "20"))
        self.check("record/same-reports", a and a == b,
                   "two replays at two speeds to publish the same reports byte for byte (%d and %d bytes)" % (len(a), len(b)))
        replayed = [json.loads(l) for l in a.decode().splitlines() if l.strip()]
        live_pressures = distinct([r.get("pressure") for r in of_class(s.reports("watch.jsonl"), "ENV") if r.get("pressure")])
        replayed_pressures = set(r.get("pressure") for r in of_class(replayed, "ENV"))
        missing = [p for p in live_pressures if p not in replayed_pressures]
        self.check("record/live-values", len(live_pressures) >= 3 and not missing,
                   "every pressure the live run published (%s) among the replay's; missing %s" % (live_pressures, missing))
        verify = subprocess.run([self.binary, "verify", "--recording", recording], capture_output=True, text=True, timeout=300)
        with open(s.path("verify.txt"), "w") as f:
            f.write(verify.stdout + verify.stderr)
        self.check("record/verify", "pass  replayed to the recording's end" in verify.stdout,
                   "verify --recording to replay the lab's recording to its end; got %s" % short(verify.stdout + verify.stderr))

    def uart(self):
        s = self.scenario("uart")
        if not s:
            return
        fed = [json.loads(l) for l in open(os.path.join(self.results, "guest", "nmea-fed.jsonl"))] \
            if os.path.exists(os.path.join(self.results, "guest", "nmea-fed.jsonl")) else []
        fed_times = {e["time"]: e for e in fed if e["event"] == "fed"}
        unplug = next((e["time"] for e in fed if e["event"] == "unplug"), None)
        replug = next((e["time"] for e in fed if e["event"] == "replug"), None)
        tpv = of_class(s.reports("watch.jsonl"), "TPV")
        received = [r for r in tpv if r.get("time") in fed_times and r.get("status") != 5]
        off = [r for r in received if abs(r.get("lat", 0) - fed_times[r["time"]]["lat"]) > 1e-6
               or abs(r.get("lon", 0) - fed_times[r["time"]]["lon"]) > 1e-6]
        self.check("uart/position", len(received) >= 5 and not off,
                   "TPVs at the fed times with the fed position (%.9f, %.9f) within 1e-6 deg; got %d TPVs at fed times, "
                   "%d off: %s" % (LAT, LON, len(received), len(off), short(off[:2])))
        if not unplug or not replug:
            self.check("uart/replug", False, "the host agent did not unplug and replug the receiver (see host-agent.log)")
            return
        # The bursts fed before the cable was pulled and after it was back, in the agent's order.
        events = [e["event"] for e in fed]
        cut, back = events.index("unplug"), events.index("replug")
        before = [e["time"] for e in fed[:cut] if e["event"] == "fed"]
        after_times = {e["time"] for e in fed[back:] if e["event"] == "fed"}
        last_before, first_after = (before[-1] if before else ""), min(after_times) if after_times else "9"
        during = [r for r in tpv if last_before < r.get("time", "") < first_after and r.get("status") != 5]
        self.check("uart/unplugged", not during,
                   "no fix other than predicted ones (status 5) between the last burst before the cable was pulled "
                   "(%s) and the first after (%s); got %s" % (last_before, first_after, short(during[:2])))
        bridged = [r for r in tpv if last_before < r.get("time", "") < first_after and r.get("status") == 5]
        self.check("uart/bridged", len(bridged) >= 3,
                   "predicted positions (TPV status 5) each second while the receiver was silent; got %d" % len(bridged))
        after = [r for r in received if r["time"] in after_times]
        self.check("uart/replug", len(after) >= 3,
                   "TPVs resuming with the bursts fed after the receiver came back at %s; got %d (last TPV %s)"
                   % (replug, len(after), short(tpv[-1]) if tpv else "none"))
        self.run_ended_cleanly(s, "uart/clean-exit")

    def fault_kernel(self, name, bound_after_start):
        s = self.scenario(name)
        if not s:
            return
        prefix = "fault/" + name
        bound = s.text("kernel-driver.txt") or ""
        self.check(prefix + "/setup", "bmp280 bound to 0x76" in bound,
                   "the kernel's bmp280 driver bound to 0x76 (lab setup); got: %s" % short(bound or "nothing"))
        if bound_after_start:
            before = devices_of(s.reports("devices-before.jsonl")) or {}
            self.check(prefix + "/ok-before", (before.get("0x76") or {}).get("health") == "ok",
                       "the barometer ok before the kernel took it; got %s" % short(before.get("0x76")))
        self.check(prefix + "/started", s.text("scenario.log") and "socket up" in s.text("scenario.log"),
                   "lodestone starting (its socket up); got: %s" % short((s.text("run.err") or "")))
        self.reason_reported(s, prefix, ["owned by a kernel driver"])
        # Reports from the last third of the run: after the bind in either case.
        reports = s.reports("watch.jsonl")
        self.others_work(s, prefix + "/others-work", after_index=len(reports) * 2 // 3)
        self.run_ended_cleanly(s, prefix + "/clean-exit")

    def wrong_chip(self):
        s = self.scenario("wrong-chip")
        if not s:
            return
        self.reason_reported(s, "wrong-chip", ["0x58", "0x55"])
        self.others_work(s, "wrong-chip/others-work")
        self.run_ended_cleanly(s, "wrong-chip/clean-exit")

    def camera(self):
        s = self.scenario("camera")
        if not s:
            return
        probe = s.json("probe.json") or {}
        self.check("camera/probe", "/dev/video0" in (probe.get("cameras") or []),
                   "lodestone probe --json to list /dev/video0 (vivid: %s) among its cameras; got %s"
                   % ((s.text("video0.name") or "?").strip(), short(s.text("probe.json") or s.text("probe.err") or "nothing")))
        photo = s.json("photo.json") or {}
        self.check("camera/take", s.rc("photo.rc") == 0 and photo.get("class") == "PHOTO" and photo.get("format") in ("mjpeg", "yuyv", "rgb24"),
                   "lodestone photo take --json to exit 0 with a PHOTO report; got status %s: %s %s"
                   % (s.rc("photo.rc"), short(s.text("photo.json") or ""), short(s.text("photo.err") or "")))
        path = s.path(os.path.basename(photo.get("file") or "no-file"))
        if not os.path.exists(path):
            self.check("camera/jpeg", False, "the photo %s among the files copied from the guest's photos folder" % photo.get("file"))
            return
        jpeg = open(path, "rb").read()
        # Decoded by libjpeg's own djpeg: the file is a JPEG any viewer opens, at the size the
        # device reported, and it holds vivid's colour bars rather than one flat colour.
        decoded = subprocess.run(["djpeg", "-pnm", path], capture_output=True)
        image = None
        if decoded.returncode == 0:
            with open(s.path("photo.ppm"), "wb") as f:
                f.write(decoded.stdout)
            image = read_ppm(s.path("photo.ppm"))
        colours = len({image[2][i:i + 3] for i in range(0, len(image[2]), 3 * 97)}) if image else 0
        self.check("camera/jpeg", image is not None and (image[0], image[1]) == (photo.get("width"), photo.get("height")) and colours >= 6,
                   "djpeg to decode %s (%d bytes) at the reported %sx%s with the test pattern's colours; got %s, %d colours, djpeg: %s"
                   % (os.path.basename(path), len(jpeg), photo.get("width"), photo.get("height"),
                      "%dx%d" % image[:2] if image else "nothing", colours, short(decoded.stderr.decode(errors="replace") or "ok")))
        if image:
            write_png(os.path.join(self.results, "camera-photo.png"), image)
        blocks = exif.read(jpeg)
        if not blocks:
            self.check("camera/exif", False, "an EXIF block (APP1 Exif) in the photo")
            return
        with open(os.path.join(self.results, "camera-exif.txt"), "w") as f:
            f.write("%s (%d bytes, %dx%d)\n%s\n" % (os.path.basename(path), len(jpeg), photo.get("width", 0), photo.get("height", 0), exif.dump(blocks)))
        gps = blocks["gps"]
        lat, lon = exif.degrees(gps, "Latitude"), exif.degrees(gps, "Longitude")
        tpv = [r for r in of_class(s.reports("watch.jsonl"), "TPV") if r.get("mode", 0) >= 2 and r.get("status") != 5]
        near = [r for r in tpv if abs(r.get("lat", 0) - (lat or 0)) <= 1e-6 and abs(r.get("lon", 0) - (lon or 0)) <= 1e-6]
        self.check("camera/exif-position", lat is not None and lon is not None and abs(lat - LAT) <= 1e-6 and abs(lon - LON) <= 1e-6
                   and near and abs((photo.get("lat") or 0) - lat) <= 1e-6 and abs((photo.get("lon") or 0) - lon) <= 1e-6,
                   "the EXIF GPS position to be the fix the UART gave (%.7f, %.7f, as %d TPVs said) within 1e-6 deg; got %s, %s (PHOTO %s, %s)"
                   % (LAT, LON, len(tpv), lat, lon, photo.get("lat"), photo.get("lon")))
        altitude = gps.get("GPSAltitude")
        self.check("camera/exif-altitude", isinstance(altitude, float) and isinstance(photo.get("alt"), (int, float))
                   and abs(altitude - photo["alt"]) <= 0.051,
                   "GPSAltitude to be the PHOTO's altitude %s (given to 0.1 m) within 0.05 m; got %s" % (photo.get("alt"), altitude))
        stamp = "%s %s" % (gps.get("GPSDateStamp"), blocks["exif"].get("DateTimeOriginal"))
        taken = re.match(r"(\d{4})-(\d\d)-(\d\d)T(\d\d:\d\d:\d\d)", photo.get("time") or "")
        expected = "%s:%s:%s %s:%s:%s %s" % (taken.groups()[:3] * 2 + (taken.group(4),)) if taken else "(no time in PHOTO)"
        self.check("camera/exif-time", stamp == expected,
                   "GPSDateStamp and DateTimeOriginal to be the PHOTO's time in UTC (%s); got %s" % (expected, stamp))
        second = s.json("photo2.json") or {}
        milliseconds = second.get("shutterMs")
        print("     shutter with the camera streaming, under emulation: %s ms (format %s)" % (milliseconds, second.get("format")))
        self.check("camera/listed", os.path.basename(path) in (s.text("photos.txt") or ""),
                   "lodestone photo list to show %s; got %s" % (os.path.basename(path), short(s.text("photos.txt") or "")))
        self.run_ended_cleanly(s, "camera/clean-exit")

    def framebuffer(self):
        s = self.scenario("framebuffer")
        if not s:
            return
        info = s.text("fb0.txt") or ""
        live, after = read_ppm(s.path("live.ppm")), read_ppm(s.path("after.ppm"))
        for name in ("before", "live", "after"):
            image = read_ppm(s.path(name + ".ppm"))
            if image:
                write_png(s.path(name + ".png"), image)
        if not live:
            self.check("framebuffer/live", False, "a screendump while running (fb0: %s; %s)"
                       % (short(info), short(s.text("scenario.log") or "")))
            return
        lit = lit_fraction(live)
        self.check("framebuffer/live", lit > 0.005,
                   "the page drawn on /dev/fb0 while running (more than 0.5%% of the screen lit); got %.3f%% lit "
                   "(fb0: %s; stderr: %s)" % (lit * 100, short(info), short(s.text("run.err") or "")))
        if not after:
            self.check("framebuffer/after-exit", False, "a screendump after lodestone exited")
            return
        uniform = lit_fraction(after) == 0
        kept = kept_fraction(live, after)
        self.check("framebuffer/after-exit", uniform or kept < 0.5,
                   "after exit the screen cleared or showing a stopped screen, not the last live frame; "
                   "%.1f%% of the live frame's lit pixels are still there (see after.png)" % (kept * 100))
        self.run_ended_cleanly(s, "framebuffer/clean-exit")

    def bad_paths(self):
        s = self.scenario("bad-paths")
        if not s:
            return
        rc, err = s.rc("fb9.rc"), (s.text("fb9.err") or "").strip()
        self.check("bad-paths/framebuffer", rc not in (0, None) and s.text("fb9.exists") is None
                   and "/dev/fb9" in err,
                   "--display fb:/dev/fb9 failing (non-zero status, an error naming /dev/fb9) and creating nothing; "
                   "got status %s, %s, stderr: %s" % (rc, "/dev/fb9 created: " + short(s.text("fb9.exists"))
                                                     if s.text("fb9.exists") else "nothing created", short(err)))
        rc, err = s.rc("socket.rc"), (s.text("socket.err") or "").strip()
        self.check("bad-paths/socket", rc not in (0, None) and s.text("nonexistent.exists") is None
                   and "/nonexistent/dir" in err,
                   "--socket /nonexistent/dir/s.sock failing (non-zero status, an error naming the path) and creating "
                   "nothing; got status %s, %s, stderr: %s" % (rc, "/nonexistent created" if s.text("nonexistent.exists")
                                                             else "nothing created", short(err)))

    def smbus_fallback(self):
        s = self.scenario("smbus-fallback")
        if not s:
            return
        functions = s.text("functionality.txt") or ""
        no_block = re.search(r"I2C block read\s+no", functions, re.I)
        self.check("smbus-fallback/adapter", no_block,
                   "the stub without I2C block reads (lab setup); i2cdetect -F says: %s" % short(functions))
        reports = s.reports("watch.jsonl")
        env = of_class(reports, "ENV")
        imu = [r for r in of_class(reports, "IMU") if "mag_x" in r]
        wrong = (self.env_matches(env[-1]) if env else ["no ENV"]) + (self.imu_matches(imu[-1]) if imu else ["no IMU"])
        self.check("smbus-fallback/values", not wrong,
                   "the preloaded values through byte reads; got: %s (stderr: %s)"
                   % ("; ".join(wrong), short(s.text("run.err") or "")))
        self.run_ended_cleanly(s, "smbus-fallback/clean-exit")

    def normal_user(self):
        s = self.scenario("normal-user")
        if not s:
            return
        self.check("normal-user/setup", "uid=1000(lab)" in (s.text("id.txt") or "") and "lodestone" in (s.text("id.txt") or ""),
                   "the lab user in the lodestone group (lab setup); got %s" % short(s.text("id.txt") or ""))
        denied = (s.text("denied.err") or "") + (s.text("denied.out") or "")
        self.check("normal-user/denied-explained", s.rc("denied.rc") not in (0, None)
                   and "permission" in denied.lower() and ("lodestone group" in denied or "udev" in denied),
                   "without access to the bus: a non-zero status and an error that says how to get it; got status %s: %s"
                   % (s.rc("denied.rc"), short(denied)))
        reports = s.reports("watch.jsonl")
        env = of_class(reports, "ENV")
        imu = [r for r in of_class(reports, "IMU") if "mag_x" in r]
        wrong = (self.env_matches(env[-1]) if env else ["no ENV"]) + (self.imu_matches(imu[-1]) if imu else ["no IMU"])
        status = s.json("status.json") or {}
        self.check("normal-user/values", not wrong and status.get("sensors", {}).get("gps") == "ok",
                   "as user lab: the preloaded values and the GPS ok; got %s; sensors %s (stderr: %s)"
                   % ("; ".join(wrong) or "values right", status.get("sensors"), short(s.text("run.err") or "")))
        # busybox ls cuts group names to 8 characters.
        socket = (s.text("socket.txt") or "").split()
        self.check("normal-user/socket-mode", socket[:1] == ["srw-rw----"] and "lodeston" in socket[3:4],
                   "the socket with mode 0660 and group lodestone; got %s" % short(" ".join(socket) or "no socket"))
        self.run_ended_cleanly(s, "normal-user/clean-exit")

    def gpio(self):
        unavailable = os.path.join(self.results, "gpio-sim-unavailable")
        if os.path.exists(unavailable):
            print("SKIP gpio: %s" % open(unavailable).read().strip())
            self.skipped += 1
            return
        s = self.scenario("gpio")
        if not s:
            return
        reports = s.reports("watch.jsonl")
        presses = [r for r in of_class(reports, "EVENT") if r.get("event") == "button"]
        actions = [(r.get("button"), r.get("action")) for r in presses]
        self.check("gpio/button", ("snapshot", "press") in actions and ("snapshot", "release") in actions,
                   "EVENT reports of the snapshot button's press and release; got %s (stderr: %s)"
                   % (actions, short(s.text("run.err") or "")))
        # outputs.txt: each change of the buzzer's and LED's lines, the first line their level
        # when the press began.
        changes = {}
        for line in (s.text("outputs.txt") or "").splitlines():
            name, _, value = line.partition(" ")
            changes.setdefault(name, []).append(value.strip())
        blipped = all(changes.get(n, [])[:1] == ["0"] and "1" in changes[n] and changes[n][-1] == "0"
                      for n in ("buzzer", "led"))
        self.check("gpio/buzzer-and-led", blipped,
                   "the buzzer and LED lines low, high for the acknowledgement, low again; saw %s" % changes)
        # The reed switch's closures through the kernel's edge events: the wind now (3 s mean)
        # at its fastest is the kit's 2.4 km/h per closure a second, within 25% (the shell's
        # pace in the guest wanders; the 3 s mean smooths it).
        spun = (s.text("anemometer.txt") or "").split()
        try:
            closures, first, last = int(spun[1]), float(spun[3]), float(spun[5])
            expected = 2.4 / 3.6 * (closures - 1) / (last - first)
        except (IndexError, ValueError, ZeroDivisionError):
            expected = None
        winds = [r.get("windSpeed3s") for r in of_class(reports, "ENV") if isinstance(r.get("windSpeed3s"), (int, float))]
        fastest = max(winds) if winds else None
        self.check("gpio/anemometer", expected is not None and fastest is not None and abs(fastest - expected) <= 0.25 * expected,
                   "ENV windSpeed3s near %s m/s from the closures (%s); the fastest was %s"
                   % (expected and round(expected, 2), " ".join(spun) or "none", fastest))
        self.run_ended_cleanly(s, "gpio/clean-exit")


def distinct(values):
    """The values with consecutive repeats removed."""
    out = []
    for v in values:
        if not out or out[-1] != v:
            out.append(v)
    return out


LAT = 47 + 23.4567 / 60
LON = 8 + 32.5432 / 60


# --- images --------------------------------------------------------------------------------------

def read_ppm(path):
    """(width, height, RGB bytes) of a binary PPM (P6, maxval 255), or None."""
    try:
        data = open(path, "rb").read()
    except FileNotFoundError:
        return None
    fields, index = [], 0
    while len(fields) < 4:
        while data[index:index + 1].isspace():
            index += 1
        if data[index:index + 1] == b"#":
            index = data.index(b"\n", index)
            continue
        end = index
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[index:end])
        index = end
    if fields[0] != b"P6":
        return None
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[index + 1:index + 1 + width * height * 3]


def background(image):
    """The commonest colour, sampled."""
    _, _, pixels = image
    counts = {}
    for i in range(0, len(pixels), 3 * 97):
        key = pixels[i:i + 3]
        counts[key] = counts.get(key, 0) + 1
    return max(counts, key=counts.get)


def lit_fraction(image):
    """The share of pixels that differ from the background."""
    width, height, pixels = image
    back = background(image)
    lit = sum(1 for i in range(0, len(pixels), 3) if pixels[i:i + 3] != back)
    return lit / (width * height)


def kept_fraction(live, after):
    """The share of the live frame's lit pixels that are unchanged in the later image."""
    if live[:2] != after[:2]:
        return 0.0
    back = background(live)
    lit = kept = 0
    for i in range(0, len(live[2]), 3):
        pixel = live[2][i:i + 3]
        if pixel != back:
            lit += 1
            kept += after[2][i:i + 3] == pixel
    return kept / lit if lit else 0.0


def write_png(path, image):
    """The image as a PNG (filter 0 on every row), for looking at."""
    width, height, pixels = image
    rows = b"".join(b"\0" + pixels[y * width * 3:(y + 1) * width * 3] for y in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


# --- main ----------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True)
    parser.add_argument("--registers", required=True)
    parser.add_argument("--scenarios", required=True, help="the scenarios the guest was asked to run")
    parser.add_argument("--binary", help="the lodestone the guest ran, to replay its recording on the host")
    args = parser.parse_args()
    judge = Judge(args.results, args.registers)
    judge.binary = args.binary
    if os.path.exists(os.path.join(args.results, "guest", "TIMEOUT")):
        judge.check("guest", False, "the guest to power off by itself; it was stopped after the time limit")
    datasheet_t, datasheet_p = bmp280_compensate(judge.regs[0x76])
    judge.check("lab/bmp280-image", abs(datasheet_t - 25.08) < 1e-9 and abs(datasheet_p - 100653.25) < 0.01,
                "the BMP280 image to be the datasheet's example (25.08 degC, 100653.25 Pa by the 64-bit integer formula); it gives %.2f degC, %.2f Pa"
                % (datasheet_t, datasheet_p))
    judges = {
        "probe": judge.probe, "values": judge.values, "uart": judge.uart,
        "fault-kernel-before": lambda: judge.fault_kernel("fault-kernel-before", False),
        "fault-kernel-after": lambda: judge.fault_kernel("fault-kernel-after", True),
        "wrong-chip": judge.wrong_chip, "camera": judge.camera, "framebuffer": judge.framebuffer, "bad-paths": judge.bad_paths,
        "smbus-fallback": judge.smbus_fallback, "normal-user": judge.normal_user, "gpio": judge.gpio,
        "record": judge.record,
    }
    for name in args.scenarios.split():
        if name in judges:
            judges[name]()
    print("%d passed, %d failed" % (judge.passed, judge.failed) + (", %d skipped" % judge.skipped if judge.skipped else ""))
    sys.exit(1 if judge.failed else 0)


if __name__ == "__main__":
    main()
