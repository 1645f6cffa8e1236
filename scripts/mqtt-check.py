#!/usr/bin/env python3
"""Checks Lodestone's MQTT output against real mosquitto brokers, as a fleet uses it.

Usage:
  mqtt-check.py discovery LODESTONE WORKDIR PORT
      One broker; Home Assistant's discovery read with mosquitto_sub and paho: every sensor's
      retained config, the device tracker, availability online, then offline from the Last
      Will when the process is killed.
  mqtt-check.py fleet LODESTONE WORKDIR PORT[,PORT2] [OUTAGE]
      A board's local broker bridged to a central one (cleansession false, persistence on), a
      subscriber with a persistent session on the central broker. The central broker is
      stopped for OUTAGE seconds (default 60) with a restart of Lodestone inside it, then the
      local broker (Lodestone's own) for 10 s with another restart inside it. The central
      broker listens on PORT, the board's on PORT2 (PORT + 1 when not given). The chain of
      state messages (each names its own seq and the one before) must arrive unbroken and in
      order at the central subscriber: delivery is at least once, duplicates are counted.
  mqtt-check.py diskfull LODESTONE WORKDIR PORT
      The broker away for a whole run in which the data directory's disk is full for 30 s
      (from 10 s, `--fault disk-full@10`); then the broker back, a subscriber on it, and
      Lodestone restarted without the fault. Every message the first run held at its stop
      (HEALTH's mqtt.queued) and did not count as dropped must come back at the restart and be
      acknowledged by the broker (the second run's HEALTH mqtt.delivered), and the state chain
      must reach the subscriber from its first message, unbroken.
  mqtt-check.py firststate LODESTONE WORKDIR PORT
      The first states of a run on the simulated boat with a 10 s interval: none carries a
      value nothing measured (sea-level pressure or fused altitude before the altitude has a
      reference, wind without a station), no two come less than the interval apart, and the
      angles are announced to Home Assistant without a state_class.

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import paho.mqtt.client as mqtt

MOSQUITTO = "/usr/sbin/mosquitto"


def broker(workdir, name, port, bridge_to=None):
    folder = os.path.join(workdir, name)
    os.makedirs(folder, exist_ok=True)
    # Started as root, mosquitto runs as the mosquitto user: it must be able to write its
    # persistence and log here, or a restarted broker silently forgets every session.
    os.chmod(folder, 0o777)
    conf = os.path.join(folder, "mosquitto.conf")
    lines = [
        "listener %d 127.0.0.1" % port,
        "allow_anonymous true",
        "persistence true",
        "persistence_location %s/" % folder,
        "max_queued_messages 100000",
        "log_dest file %s/log.txt" % folder,
    ]
    if bridge_to:
        lines += [
            "connection central",
            "address 127.0.0.1:%d" % bridge_to,
            "topic lodestone/# out 1",
            "topic homeassistant/# out 1",
            "cleansession false",
            "remote_clientid bridge-%s" % name,
            "bridge_protocol_version mqttv311",
            "restart_timeout 1 2",
        ]
    with open(conf, "w") as f:
        f.write("\n".join(lines) + "\n")
    return conf


class Broker:
    def __init__(self, conf):
        self.conf, self.process = conf, None

    def start(self):
        self.process = subprocess.Popen([MOSQUITTO, "-c", self.conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)

    def stop(self):
        if self.process:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
            self.process = None


class Device:
    def __init__(self, binary, workdir, port, device="boat1", interval=1, speed=1):
        self.binary, self.workdir, self.process, self.speed = binary, workdir, None, speed
        self.extra = []
        self.config = os.path.join(workdir, "lodestone.json")
        with open(self.config, "w") as f:
            json.dump({"mqtt": {"broker": "127.0.0.1:%d" % port, "device": device, "interval": interval, "keepAlive": 5}}, f)
        self.log = open(os.path.join(workdir, "lodestone.log"), "a")

    def start(self):
        self.process = subprocess.Popen([self.binary, "run", "--config", self.config, "--display", "none", "--speed", str(self.speed),
                                         "--socket", os.path.join(self.workdir, "lodestone.sock"),
                                         "--data-dir", os.path.join(self.workdir, "data")] + self.extra,
                                        stdout=self.log, stderr=self.log)

    def stop(self, sig=signal.SIGTERM):
        if self.process:
            self.process.send_signal(sig)
            self.process.wait(20)
            self.process = None


class Subscriber:
    """A persistent-session subscriber (cleansession false, QoS 1), as a fleet's server is."""

    def __init__(self, port, topic, client_id):
        self.messages, self.lock = [], threading.Lock()
        self.client = mqtt.Client(client_id=client_id, clean_session=False, protocol=mqtt.MQTTv311)
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = lambda c, u, f, rc: c.subscribe(topic, qos=1)
        self.client.on_message = self.received
        self.client.connect("127.0.0.1", port, keepalive=5)
        self.client.loop_start()

    def received(self, client, userdata, message):
        with self.lock:
            self.messages.append((message.topic, message.payload.decode("utf-8", "replace"), message.retain))

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


def chain(messages, topic):
    """The state chain's findings: distinct messages, duplicates, breaks, order."""
    seen, order, duplicates, breaks = set(), [], 0, []
    for t, payload, _ in messages:
        if t != topic:
            continue
        state = json.loads(payload)
        if state["seq"] in seen:
            duplicates += 1
            continue
        seen.add(state["seq"])
        order.append(state)
    for before, after in zip(order, order[1:]):
        if after["previous"] != before["seq"]:
            breaks.append((before["seq"], after["previous"], after["seq"]))
    in_order = all(a["seq"] < b["seq"] for a, b in zip(order, order[1:]))
    return {"states": len(order), "duplicates": duplicates, "breaks": breaks[:10], "inOrder": in_order,
            "first": order[0]["time"] if order else None, "last": order[-1]["time"] if order else None}


def fleet(binary, workdir, ports, outage):
    central_port, local_port = ports[0], ports[1] if len(ports) > 1 else ports[0] + 1
    central = Broker(broker(workdir, "central", central_port))
    local = Broker(broker(workdir, "local", local_port, bridge_to=central_port))
    central.start()
    local.start()
    subscriber = Subscriber(central_port, "lodestone/#", "fleet-server-%d" % os.getpid())
    device = Device(binary, workdir, local_port)
    device.start()
    timeline = []
    try:
        time.sleep(8)
        central.stop()
        timeline.append(("central down", time.time()))
        # Two tracks end while the central broker is away: one to reach home, one private.
        sock = os.path.join(workdir, "lodestone.sock")
        track = lambda *args: subprocess.run([binary, "track"] + list(args) + ["--socket", sock], capture_output=True, text=True)
        track("start", "--name", "Harbour loop", "--interval", "1")
        time.sleep(4)
        stopped = track("stop").stdout
        track("start", "--name", "Home", "--private")
        time.sleep(2)
        track("stop")
        timeline.append(("tracks ended: " + stopped.strip(), time.time()))
        time.sleep(outage / 2)
        device.stop()
        device.start()
        timeline.append(("lodestone restarted", time.time()))
        time.sleep(outage / 2)
        central.start()
        timeline.append(("central up", time.time()))
        time.sleep(8)
        local.stop()
        timeline.append(("local down", time.time()))
        time.sleep(5)
        device.stop()
        device.start()
        timeline.append(("lodestone restarted", time.time()))
        time.sleep(5)
        local.start()
        timeline.append(("local up", time.time()))
        time.sleep(15)
        device.stop()
        time.sleep(3)
    finally:
        device.stop()
        subscriber.close()
        local.stop()
        central.stop()
    with subscriber.lock:
        messages = list(subscriber.messages)
    found = chain(messages, "lodestone/boat1/state")
    found["messages"] = len(messages)
    tracks = {t: p for t, p, _ in messages if t.startswith("lodestone/boat1/track/")}
    found["trackTopics"] = sorted(tracks)
    found["timeline"] = [(what, round(when - timeline[0][1], 1)) for what, when in timeline]
    problems = []
    expected = (outage + 40) * 0.6
    if found["states"] < expected:
        problems.append("only %d state messages reached the central broker (expected at least %d)" % (found["states"], expected))
    if found["breaks"]:
        problems.append("the state chain is broken (seq before, previous named, seq after): %s" % found["breaks"])
    if not found["inOrder"]:
        problems.append("state messages arrived out of order")
    gpx = [t for t in tracks if not t.endswith("/summary")]
    summaries = [json.loads(p) for t, p in tracks.items() if t.endswith("/summary")]
    if len(gpx) != 1 or "<trk>" not in tracks.get(gpx[0] if gpx else "", "") or "<name>Harbour loop</name>" not in tracks.get(gpx[0] if gpx else "", ""):
        problems.append("the finished track's GPX did not reach the central broker: %s" % sorted(tracks))
    if len(summaries) != 1 or summaries[0].get("name") != "Harbour loop" or gpx and not gpx[0].endswith("/" + summaries[0].get("id", "?")):
        problems.append("the finished track's summary: %s" % summaries)
    if any("Home" in p for p in tracks.values()):
        problems.append("a private track was published")
    return found, problems


def discovery(binary, workdir, port):
    one = Broker(broker(workdir, "broker", port))
    one.start()
    # Twenty times real speed: within 8 s the walk's figure-8 has calibrated the compass (the
    # heading is withheld until then) and two minutes of GPS have levelled the barometer (the
    # sea-level pressure and the fused altitude are withheld until then).
    device = Device(binary, workdir, port, device="hut", interval=2, speed=20)
    problems, found = [], {}
    try:
        device.start()
        time.sleep(10)
        # mosquitto_sub, as a person checks it: the retained configuration messages.
        out = subprocess.run(["mosquitto_sub", "-p", str(port), "-t", "homeassistant/#", "-v", "-W", "3"],
                             capture_output=True, text=True).stdout
        configs = {}
        for line in out.splitlines():
            topic, _, payload = line.partition(" ")
            configs[topic] = json.loads(payload)
        found["configs"] = sorted(configs)
        wanted = {"heading": (None, "°"), "pressure": ("atmospheric_pressure", "hPa"), "seaLevelPressure": ("atmospheric_pressure", "hPa"),
                  "temperature": ("temperature", "°C"), "altitude": ("distance", "m")}
        for key, (device_class, unit) in wanted.items():
            config = configs.get("homeassistant/sensor/hut/%s/config" % key)
            if not config:
                problems.append("no discovery config for %s" % key)
                continue
            if config.get("device_class") != device_class or config.get("unit_of_measurement") != unit:
                problems.append("%s: device_class %r unit %r" % (key, config.get("device_class"), config.get("unit_of_measurement")))
            if config.get("state_topic") != "lodestone/hut/%s" % key or config.get("availability_topic") != "lodestone/hut/availability":
                problems.append("%s: topics %r %r" % (key, config.get("state_topic"), config.get("availability_topic")))
            if "identifiers" not in config.get("device", {}):
                problems.append("%s: no device identifiers" % key)
        if "homeassistant/sensor/hut/humidity/config" in configs:
            problems.append("a humidity sensor announced on a board without one (the simulated BMP280)")
        tracker = configs.get("homeassistant/device_tracker/hut/position/config")
        if not tracker or tracker.get("json_attributes_topic") != "lodestone/hut/position" or tracker.get("source_type") != "gps":
            problems.append("device tracker config: %r" % tracker)
        # paho, as Home Assistant's own client: retained availability and live values.
        subscriber = Subscriber(port, "lodestone/hut/#", "ha-%d" % os.getpid())
        time.sleep(5)
        with subscriber.lock:
            seen = {t: (p, r) for t, p, r in subscriber.messages}
        found["topics"] = sorted(seen)
        if seen.get("lodestone/hut/availability") != ("online", True):
            problems.append("availability: %r" % (seen.get("lodestone/hut/availability"),))
        for key in ("pressure", "temperature", "state", "position"):
            if "lodestone/hut/" + key not in seen:
                problems.append("no %s value" % key)
        pressure = seen.get("lodestone/hut/pressure", ("nan", False))[0]
        if not 850 <= float(pressure) <= 1100:
            problems.append("pressure %s hPa" % pressure)
        # Killed without a goodbye: the broker sends the Last Will.
        device.stop(signal.SIGKILL)
        time.sleep(2)
        with subscriber.lock:
            last = [p for t, p, r in subscriber.messages if t == "lodestone/hut/availability"]
        found["availability"] = last
        if not last or last[-1] != "offline":
            problems.append("no offline from the Last Will after a kill: %r" % last)
        subscriber.close()
    finally:
        device.stop()
        one.stop()
    return found, problems


def firststate(binary, workdir, port):
    """The first states of a run on the boat, read as they arrive: nothing unmeasured in them (no
    sea-level pressure or fused altitude before the altitude has a reference, no wind without a
    station), the interval kept from the very first, and the angles announced without a
    state_class (Home Assistant would average 350 and 10 degrees to 180)."""
    one = Broker(broker(workdir, "broker", port))
    one.start()
    device = Device(binary, workdir, port, device="deck", interval=10)
    device.extra = ["--scenario", "boat"]
    problems, found = [], {}
    subscriber = Subscriber(port, "#", "first-%d" % os.getpid())
    try:
        time.sleep(1)
        device.start()
        time.sleep(26)
    finally:
        device.stop()
        subscriber.close()
        one.stop()
    with subscriber.lock:
        messages = list(subscriber.messages)
    arrivals = []
    states = []
    for topic, payload, _ in messages:
        if topic == "lodestone/deck/state":
            states.append(json.loads(payload))
    found["states"] = states[:3]
    if len(states) < 2:
        problems.append("%d states in 26 s with a 10 s interval" % len(states))
    first = states[0] if states else {}
    for key in ("seaLevelPressure", "altitude", "windSpeed", "windDirection", "windGust"):
        if key in first:
            problems.append("the first state carries %s %r, which nothing measured yet" % (key, first[key]))
    times = [s.get("time") for s in states]
    found["times"] = times
    for before, after in zip(states, states[1:]):
        gap = iso_seconds(after["time"]) - iso_seconds(before["time"])
        if gap < 9:
            problems.append("two states %.2f s apart with a 10 s interval" % gap)
    configs = {t: json.loads(p) for t, p, _ in messages if t.startswith("homeassistant/sensor/deck/") and p}
    for key in ("heading", "headingTrue", "windDirection"):
        config = configs.get("homeassistant/sensor/deck/%s/config" % key)
        if config and "state_class" in config:
            problems.append("%s is announced with state_class %r" % (key, config["state_class"]))
    pressure = configs.get("homeassistant/sensor/deck/pressure/config")
    if not pressure or pressure.get("state_class") != "measurement":
        problems.append("pressure config: %r" % pressure)
    found["configs"] = sorted(configs)
    return found, problems


def iso_seconds(text):
    """Seconds of an ISO 8601 UTC time, for differences."""
    import datetime
    return datetime.datetime.strptime(text.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def health_mqtt(binary, workdir):
    """HEALTH's mqtt object from the running device (empty when it does not answer)."""
    status = subprocess.run([binary, "status", "--json", "--socket", os.path.join(workdir, "lodestone.sock")],
                            capture_output=True, text=True).stdout
    try:
        return json.loads(status).get("mqtt", {})
    except ValueError:
        return {}


def diskfull(binary, workdir, port):
    one = Broker(broker(workdir, "broker", port))
    device = Device(binary, workdir, port, device="hut")
    found, problems = {}, []
    subscriber = None
    try:
        device.extra = ["--fault", "disk-full@10"]
        device.start()
        time.sleep(48)
        first = health_mqtt(binary, workdir)
        device.stop()
        one.start()
        subscriber = Subscriber(port, "lodestone/hut/#", "diskfull-%d" % os.getpid())
        time.sleep(1)
        device.extra = []
        device.start()
        time.sleep(15)
        second = health_mqtt(binary, workdir)
        device.stop()
        time.sleep(1)
    finally:
        device.stop()
        if subscriber:
            subscriber.close()
        one.stop()
    found["firstRun"], found["secondRun"] = first, second
    # What the second start found waiting in the outbox, from its log line.
    waiting = None
    with open(os.path.join(workdir, "lodestone.log"), errors="replace") as log:
        for line in log:
            if "messages waiting from before the start" in line:
                waiting = int(line.split("MQTT outbox: ")[1].split(" ")[0])
    found["waitingAtRestart"] = waiting
    with subscriber.lock:
        messages = list(subscriber.messages)
    states = sorted((json.loads(p) for t, p, _ in messages if t == "lodestone/hut/state"), key=lambda m: m["seq"])
    found.update(chain(messages, "lodestone/hut/state"))
    found["firstPrevious"] = states[0]["previous"] if states else None
    queued, dropped = first.get("queued"), first.get("dropped")
    if queued is None or "delivered" not in second:
        problems.append("no HEALTH mqtt figures: first run %r, second run %r" % (first, second))
    else:
        if dropped:
            problems.append("the first run dropped %d messages; the check needs none dropped" % dropped)
        # A message or two may join between the status and the stop.
        if waiting is None or waiting < queued - (dropped or 0):
            problems.append("the restart found %r messages waiting, the first run held %d" % (waiting, queued))
        if second["delivered"] < queued:
            problems.append("the broker acknowledged %d messages after the restart, fewer than the %d held" % (second["delivered"], queued))
    if found["firstPrevious"] != 0:
        problems.append("the first state to arrive follows seq %r: the run's first messages were lost" % found["firstPrevious"])
    if found["breaks"]:
        problems.append("the state chain is broken (seq before, previous named, seq after): %s" % found["breaks"])
    return found, problems


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ("discovery", "fleet", "diskfull", "firststate"):
        print(__doc__)
        return 2
    mode, binary, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    ports = [int(p) for p in sys.argv[4].split(",")]
    os.makedirs(workdir, exist_ok=True)
    if mode == "fleet":
        found, problems = fleet(binary, workdir, ports, float(sys.argv[5]) if len(sys.argv) > 5 else 60)
    elif mode == "diskfull":
        found, problems = diskfull(binary, workdir, ports[0])
    elif mode == "firststate":
        found, problems = firststate(binary, workdir, ports[0])
    else:
        found, problems = discovery(binary, workdir, ports[0])
    found["problems"] = problems
    print(json.dumps(found))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
