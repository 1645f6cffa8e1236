#!/usr/bin/env python3
"""Checks Lodestone's web app from the outside, as a browser and a hostile client would.

Usage:
  web-check.py server LODESTONE WORKDIR PORT
      Runs the simulated walk with --http 127.0.0.1:PORT and checks: the pairing (a browser
      without one gets the pairing page and 401 on the API; `lodestone web pair` prints an
      address whose code works once and sets an HttpOnly, SameSite=Strict cookie), the
      protections on every answer, the Host check, the app's files compressed with a
      validator, the state, the event stream (ids, kinds, resume with Last-Event-ID), actions
      (refused without the token or from another origin, done with them: a track started and
      stopped appears in `lodestone track list`), every limit with its status, eight connections
      from one address and the ninth refused, pairing refused on the gpsd TCP port, hostile
      origins, targets and Host fields, `lodestone web devices` and `forget` (which ends the
      browser's open stream), wrong pairing codes throttled.

Prints one JSON line with the findings and "problems"; exits 1 when there are any.
"""
import gzip
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time

from lake_feed import lake_feed

problems = []
findings = {}


def check(condition, message):
    if not condition:
        problems.append(message)
    return condition


def request(port, method, path, headers=None, body=None, host=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    all_headers = {"Host": host or "127.0.0.1:%d" % port}
    all_headers.update(headers or {})
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def parsed(body):
    try:
        return json.loads(body or b"{}")
    except ValueError:
        return {}


def raw(port, data, read_seconds=3):
    with socket.create_connection(("127.0.0.1", port), timeout=read_seconds) as s:
        s.sendall(data)
        chunks = b""
        try:
            while True:
                piece = s.recv(65536)
                if not piece:
                    break
                chunks += piece
        except (socket.timeout, ConnectionResetError):
            pass
    return chunks


def status_of(reply):
    match = re.match(rb"HTTP/1\.1 (\d{3})", reply)
    return int(match.group(1)) if match else None


def cli(lodestone, *arguments):
    return subprocess.run([lodestone, *arguments], capture_output=True, text=True, timeout=30)


def main():
    mode, lodestone, workdir, port = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    os.makedirs(workdir, exist_ok=True)
    data, sock = os.path.join(workdir, "data"), os.path.join(workdir, "lodestone.sock")
    imported = subprocess.run([lodestone, "timetable", "import", lake_feed(os.path.join(workdir, "feed")), "--data-dir", data],
                              capture_output=True, text=True, timeout=60)
    check(imported.returncode == 0, "the lake timetable should import: %s" % imported.stderr)
    device = subprocess.Popen([lodestone, "run", "--scenario", "walk", "--speed", "5", "--duration", "120", "--display", "none",
                               "--socket", sock, "--data-dir", data, "--http", "127.0.0.1:%d" % port, "--http-names", "helm.lan,Boat.Example",
                               "--listen", "127.0.0.1:%d" % (port + 1)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        run_checks(lodestone, port, sock)
    finally:
        device.terminate()
        try:
            output, _ = device.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            device.kill()
            output, _ = device.communicate()
        findings["exit"] = device.returncode
        findings["log"] = output[-2000:]
    print(json.dumps({"findings": findings, "problems": problems}))
    sys.exit(1 if problems else 0)


def run_checks(lodestone, port, sock):
    # Without a pairing: the pairing page, and the API refused.
    status, headers, body = request(port, "GET", "/")
    check(status == 200 and b"Pair this browser" in body, "an unpaired browser should get the pairing page, got %s" % status)
    for name in ["content-security-policy", "x-content-type-options", "referrer-policy"]:
        check(name in headers, "every answer carries %s" % name)
    check("'unsafe-inline'" not in headers.get("content-security-policy", "") and "script-src 'self'" in headers.get("content-security-policy", ""),
          "the policy allows only the device's own scripts: %s" % headers.get("content-security-policy"))
    status, _, _ = request(port, "GET", "/api/v1/state")
    check(status == 401, "the API without a pairing should be 401, got %s" % status)
    status, _, _ = request(port, "GET", "/", host="evil.example:%d" % port)
    check(status == 421, "another host name (DNS rebinding) should be refused, got %s" % status)
    status, _, _ = request(port, "GET", "/", host="boat.example:%d" % port)
    check(status == 200, "a name from http.names should be answered, got %s" % status)

    # Pairing: the CLI's address works once.
    paired = cli(lodestone, "web", "pair", "--socket", sock)
    match = re.search(r"http://[^\s]+/pair\?code=([a-z0-9]+)", paired.stdout)
    if not check(match, "lodestone web pair printed no address: %s %s" % (paired.stdout, paired.stderr)):
        return
    code = match.group(1)
    status, headers, _ = request(port, "GET", "/pair?code=" + code, headers={"User-Agent": "web-check"})
    cookie = headers.get("set-cookie", "")
    check(status == 303 and "HttpOnly" in cookie and "SameSite=Strict" in cookie, "pairing should set an HttpOnly, SameSite=Strict cookie: %s %s" % (status, cookie))
    token_cookie = cookie.split(";")[0]
    status, _, _ = request(port, "GET", "/pair?code=" + code)
    check(status == 403, "a pairing code is good once, got %s the second time" % status)
    # A phone's browser opening a spent code gets a page saying what to do; a program, text.
    time.sleep(1.1)
    status, headers, body = request(port, "GET", "/pair?code=" + code, headers={"Accept": "text/html,*/*;q=0.8"})
    check(status == 403 and headers.get("content-type", "").startswith("text/html") and b"Connect page" in body and b"<script" not in body,
          "a spent code asked for as a page should be a page naming the Connect page: %s %s" % (status, body[:200]))
    status, headers, _ = request(port, "GET", "/api/v1/state", headers={"Accept": "text/html"})
    check(status == 401 and headers.get("content-type") == "application/json", "the API keeps its JSON errors: %s %s" % (status, headers.get("content-type")))
    time.sleep(1.1)
    auth = {"Cookie": token_cookie}

    # The app's files, compressed with a validator.
    status, headers, body = request(port, "GET", "/", headers={**auth, "Accept-Encoding": "gzip"})
    check(status == 200 and headers.get("content-encoding") == "gzip" and b"<html" in gzip.decompress(body), "the page should come gzipped")
    etag = headers.get("etag")
    status, _, _ = request(port, "GET", "/", headers={**auth, "If-None-Match": etag or ""})
    check(status == 304, "a cached page should be 304 Not Modified, got %s" % status)
    app_bytes = 0
    # Every file the page names (its modules, styles, icon and manifest) and every module those
    # import, as a browser fetches them.
    status, _, page = request(port, "GET", "/index.html", headers=auth)
    named = set(re.findall(r'(?:src|href)="(/[a-z0-9._-]+)"', page.decode()))
    scripts = re.findall(r'<script\b[^>]*>', page.decode())
    check(scripts and all('type="module"' in tag and 'src="/' in tag for tag in scripts), "the page's scripts should be the device's own modules: %s" % scripts)
    waiting, fetched = ["/index.html", "/pairing.html"] + sorted(named), set()
    while waiting:
        path = waiting.pop(0)
        if path in fetched:
            continue
        fetched.add(path)
        status, headers, body = request(port, "GET", path, headers={**auth, "Accept-Encoding": "gzip"})
        check(status == 200, "%s should be served, got %s" % (path, status))
        app_bytes += len(body)
        if status == 200 and path.endswith(".js"):
            text = (gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body).decode()
            check(headers.get("content-type", "").startswith("text/javascript"), "%s should be served as text/javascript" % path)
            for module in re.findall(r'(?:^|\n)\s*(?:import|export)\b[^"\';]*?["\']\./([a-z0-9._-]+\.js)["\']', text):
                # The page names each module (modulepreload), so the browser fetches them at once.
                check("/" + module in named, "%s imports %s, which index.html should name (modulepreload)" % (path, module))
                waiting.append("/" + module)
    findings["appFiles"] = len(fetched)
    findings["appBytes"] = app_bytes
    check(app_bytes <= 150 * 1024, "the app weighs %d bytes compressed, over 150 KB" % app_bytes)

    # The state and the session.
    time.sleep(3)
    status, _, body = request(port, "GET", "/api/v1/state", headers=auth)
    state = parsed(body)
    check(status == 200 and "ATT" in state and "TPV" in state, "the state should hold ATT and TPV: %s" % sorted(state))
    status, _, body = request(port, "GET", "/api/v1/device", headers=auth)
    device = parsed(body)
    check(status == 200 and device.get("version") and device.get("uptime", -1) >= 0 and device.get("freeBytes", 0) > 0,
          "the device's version, uptime and free storage: %s %s" % (status, device))
    status, _, body = request(port, "GET", "/api/v1/session", headers=auth)
    session = parsed(body)
    check(session.get("paired") is True and session.get("token"), "the session should say paired and give the token: %s" % session)

    # The event stream: ATT only, ids rising, resumed after the last id.
    ids, kinds = read_events(port, auth, "ATT", 15)
    findings["events"] = len(ids)
    check(len(ids) >= 10 and kinds == {"ATT"}, "the stream should carry ATT alone, got %d of %s" % (len(ids), kinds))
    check(all(b > a for a, b in zip(ids, ids[1:])), "event ids should rise")
    if len(ids) >= 3:
        # Resumed after the third-last: the next ATT the stream had (ids count every kind).
        resumed, _ = read_events(port, auth, "ATT", 3, last=ids[-3])
        check(resumed[:1] == [ids[-2]], "a stream resumed after id %d should start at %d: %s" % (ids[-3], ids[-2], resumed[:3]))

    # Actions: the token and the device's own origin are needed.
    start = json.dumps({"action": "start", "name": "web-check walk"})
    status, _, _ = request(port, "POST", "/api/v1/track", headers={**auth, "Content-Type": "application/json"}, body=start)
    check(status == 403, "an action without the token should be 403, got %s" % status)
    status, _, _ = request(port, "POST", "/api/v1/track", headers={**auth, "X-Lodestone-Token": session.get("token", ""),
                                                                  "Origin": "http://evil.example"}, body=start)
    check(status == 403, "an action from another origin should be 403, got %s" % status)
    good = {**auth, "X-Lodestone-Token": session.get("token", ""), "Origin": "http://127.0.0.1:%d" % port}
    status, _, body = request(port, "POST", "/api/v1/track", headers=good, body=start)
    check(status == 200 and b'"TRACK"' in body, "starting a track should answer TRACK, got %s %s" % (status, body[:200]))
    time.sleep(2)
    # The shutter from the page: a PHOTO that belongs to the track being recorded.
    status, _, body = request(port, "POST", "/api/v1/photo", headers=good, body="{}")
    photo = parsed(body)
    check(status == 200 and photo.get("class") == "PHOTO" and photo.get("track") == "web-check walk",
          "the web app's shutter should answer PHOTO with the track: %s %s" % (status, body[:300]))
    status, _, _ = request(port, "POST", "/api/v1/photo", headers=auth, body="{}")
    check(status == 403, "the shutter without the token should be refused, got %s" % status)
    time.sleep(2)
    status, _, body = request(port, "POST", "/api/v1/track", headers=good, body=json.dumps({"action": "stop"}))
    check(status == 200, "stopping the track should answer 200, got %s %s" % (status, body[:200]))
    # The stored track through the API: listed, its figures, its GPX valid against GPX 1.1.
    time.sleep(1)
    status, _, body = request(port, "GET", "/api/v1/tracks?sort=newest", headers=auth)
    listed = parsed(body)
    ids = [t["id"] for t in listed.get("tracks", []) if t.get("name") == "web-check walk"]
    if check(status == 200 and ids, "GET /api/v1/tracks should list the track: %s %s" % (status, body[:300])):
        status, _, body = request(port, "GET", "/api/v1/tracks/" + ids[0], headers=auth)
        check(status == 200 and (b'"points"' in body or b'"statistics"' in body), "the track's figures: %s %s" % (status, body[:200]))
        files = [p.get("file") for p in parsed(body).get("photos", [])]
        check(files == [photo.get("file")], "the track's JSON should name its photo: %s against %s" % (files, photo.get("file")))
        if files:
            status, headers, picture = request(port, "GET", "/api/v1/photos/" + files[0], headers=auth)
            check(status == 200 and headers.get("content-type") == "image/jpeg" and picture[:3] == b"\xff\xd8\xff",
                  "the photo should be served as a JPEG: %s %s" % (status, headers.get("content-type")))
            status, _, _ = request(port, "GET", "/api/v1/photos/" + files[0])
            check(status == 401, "a photo without the pairing should be 401, got %s" % status)
            status, _, _ = request(port, "GET", "/api/v1/photos/..%2Fweb-pairings.json", headers=auth)
            check(status in (400, 404), "a name that climbs out of the photos should be refused, got %s" % status)
        status, headers, body = request(port, "GET", "/api/v1/tracks/%s.gpx" % ids[0], headers=auth)
        check(status == 200 and headers.get("content-type") == "application/gpx+xml", "the GPX download: %s %s" % (status, headers.get("content-type")))
        xsd = os.environ.get("GPX_XSD", "")
        if xsd and os.path.exists(xsd) and os.path.exists("/usr/bin/xmllint"):
            path = os.path.join(os.path.dirname(sock), "track.gpx")
            with open(path, "wb") as f:
                f.write(body)
            valid = subprocess.run(["/usr/bin/xmllint", "--noout", "--schema", xsd, path], capture_output=True, text=True)
            findings["gpxValid"] = valid.returncode == 0
            check(valid.returncode == 0, "the GPX should validate against GPX 1.1: %s" % valid.stderr[-500:])
        # Renamed with notes, then deleted only with the confirmation.
        path = "/api/v1/tracks/" + ids[0]
        status, _, body = request(port, "POST", path, headers=good, body=json.dumps({"name": "Lake walk", "notes": "windy"}))
        check(status == 200 and parsed(body).get("name") == "Lake walk", "renaming a track: %s %s" % (status, body[:200]))
        status, _, body = request(port, "POST", path + "/delete", headers=good, body="{}")
        check(status == 422, "a delete without the confirmation should be refused, got %s" % status)
        status, _, body = request(port, "POST", path + "/delete", headers=auth, body=json.dumps({"confirm": True}))
        check(status == 403, "a delete without the token should be refused, got %s" % status)
        status, _, body = request(port, "GET", "/api/v1/tracks?q=lake", headers=auth)
        check(parsed(body).get("total") == 1 and parsed(body)["tracks"][0].get("notes") == "windy", "the renamed track is found by its new name: %s" % body[:300])
        tracks = cli(lodestone, "track", "list", "--data-dir", os.path.join(os.path.dirname(sock), "data"))
        check("Lake walk" in tracks.stdout, "the track started and renamed from the web should be in 'lodestone track list': %s %s" % (tracks.stdout, tracks.stderr))
        status, _, body = request(port, "POST", path + "/delete", headers=good, body=json.dumps({"confirm": True}))
        check(status == 200 and parsed(body).get("deleted") == ids[0], "a confirmed delete: %s %s" % (status, body[:200]))
        status, _, body = request(port, "GET", path, headers=auth)
        check(status == 404, "a deleted track is gone, got %s" % status)
    live_reads(port, auth, good)
    reminders_by_command(lodestone, sock)
    status, _, _ = request(port, "GET", "/api/v1/tracks/nonexistent.gpx", headers=auth)
    check(status == 404, "a missing track should be 404, got %s" % status)
    status, _, body = request(port, "POST", "/api/v1/lock", headers=good, body=json.dumps({"bearing": 400}))
    check(status == 422 and b"ERROR" in body, "a refused request should be 422 with the ERROR, got %s %s" % (status, body[:200]))

    # Limits, each with its status.
    limits = {
        414: b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        431: b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (b"X-F: " + b"b" * 1000 + b"\r\n") * 40 + b"\r\n",
        413: b"POST /api/v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n",
        505: b"GET / HTTP/3.0\r\nHost: 127.0.0.1\r\n\r\n",
        400: b"GET / HTTP/1.1\r\n\r\n",
        405: b"DELETE / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port,
    }
    for expected, data in limits.items():
        got = status_of(raw(port, data))
        check(got == expected, "a request for %d got %s" % (expected, got))

    hostile_requests(port, auth, good)

    # One address holds eight connections at once; the ninth is told why.
    held = []
    try:
        for _ in range(8):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        time.sleep(1)
        extra = raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", read_seconds=3)
        check(status_of(extra) == 429, "a ninth connection from one address should get 429, got %s" % status_of(extra))
    finally:
        for s in held:
            s.close()
    time.sleep(0.5)

    # Pairing is for the device's own socket: refused on the gpsd TCP port.
    with socket.create_connection(("127.0.0.1", port + 1), timeout=5) as s:
        s.sendall(b"?WEBPAIR;?WEBBROWSERS;\n")
        got, deadline = b"", time.time() + 5
        while got.count(b"ERROR") < 2 and time.time() < deadline:
            try:
                got += s.recv(65536)
            except socket.timeout:
                break
    check(got.count(b"answered only on the device's own socket") == 2 and b"/pair?code=" not in got,
          "?WEBPAIR and ?WEBBROWSERS on TCP should be refused: %s" % got[-400:])

    # The paired browsers, and revoking this one: its open stream ends at once.
    listed = cli(lodestone, "web", "devices", "--socket", sock)
    ids_listed = re.findall(r"^([0-9a-f]{6})\s", listed.stdout, re.M)
    check(len(ids_listed) == 1 and "web-check" in listed.stdout, "web devices should list this browser: %s" % listed.stdout)
    if ids_listed:
        stream = socket.create_connection(("127.0.0.1", port), timeout=5)
        stream.sendall(("GET /api/v1/events?kinds=ATT HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s: %s\r\n\r\n"
                        % (port, "Cookie", auth["Cookie"])).encode())
        time.sleep(1)
        cli(lodestone, "web", "forget", ids_listed[0], "--socket", sock)
        ended, after, deadline = False, b"", time.time() + 3
        stream.settimeout(0.5)
        while time.time() < deadline and not ended:
            try:
                piece = stream.recv(65536)
                ended = not piece
                after += piece
            except socket.timeout:
                pass
            except ConnectionResetError:
                ended = True
        stream.close()
        check(ended, "a forgotten browser's event stream should end at once")
        status, _, _ = request(port, "GET", "/api/v1/state", headers=auth)
        check(status == 401, "a forgotten browser should be refused, got %s" % status)

    # Pairing codes cannot be guessed at speed: a second's pause after each wrong one.
    status, _, _ = request(port, "GET", "/pair?code=wrongwrong")
    check(status == 403, "a wrong pairing code should be 403, got %s" % status)
    status, headers, _ = request(port, "GET", "/pair?code=wrongagain")
    check(status == 429 and headers.get("retry-after"), "a second wrong code at once should be 429 with Retry-After, got %s" % status)


def hostile_requests(port, auth, good):
    """Origins, targets and Host fields as a hostile page or client would send them."""
    start = json.dumps({"action": "start", "name": "hostile"})
    for origin in ["http://127.0.0.1:9", "https://127.0.0.1:%d" % port, "http://127.0.0.1", "null"]:
        status, _, _ = request(port, "POST", "/api/v1/track", headers={**good, "Origin": origin}, body=start)
        check(status == 403, "an action from origin %s should be 403, got %s" % (origin, status))
    cases = {
        421: b"GET http://evil.example/style.css HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port,
        200: b"GET http://127.0.0.1:%d/style.css HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % (port, port),
    }
    for expected, data in cases.items():
        got = status_of(raw(port, data))
        check(got == expected, "%s should get %d, got %s" % (data[:50], expected, got))
    for data in [b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n", b"GET / HTTP/1.0\r\n\r\n"]:
        got = status_of(raw(port, data))
        check(got == 400, "HTTP/1.0 without one Host (%r) should be 400, got %s" % (data, got))


def live_reads(port, auth, good):
    """The reads of the running device's services and the reminders, as the pages use them."""
    status, _, body = request(port, "GET", "/api/v1/track", headers=auth)
    check(status == 200 and parsed(body).get("class") == "TRACK" and parsed(body).get("state") == "stopped",
          "the recording's state: %s %s" % (status, body[:200]))
    status, _, body = request(port, "GET", "/api/v1/history?stream=seaLevelPressure&span=1h", headers=auth)
    history = parsed(body)
    check(status == 200 and history.get("class") == "HISTORY" and history.get("samples", 0) > 0 and history.get("points"),
          "the pressure history: %s %s" % (status, body[:200]))
    for bad in ["/api/v1/history?stream=nothing", "/api/v1/history?span=3h", "/api/v1/sky?date=2026-13-40", "/api/v1/sky?lat=91&lon=0",
                "/api/v1/tracks?page=0", "/api/v1/departures?count=many"]:
        status, _, _ = request(port, "GET", bad, headers=auth)
        check(status == 400, "%s should be 400, got %s" % (bad, status))
    status, _, body = request(port, "GET", "/api/v1/sky?date=2026-12-21", headers=auth)
    sky = parsed(body)
    check(status == 200 and sky.get("date") == "2026-12-21" and sky.get("sun", {}).get("sunrise") and len(sky.get("planets", [])) >= 5
          and sky.get("seasons", {}).get("next"), "the sky of a date: %s %s" % (status, body[:200]))
    findings["winterDay"] = sky.get("sun", {}).get("dayLengthSeconds")
    status, _, body = request(port, "GET", "/api/v1/departures?stop=nearest&count=3", headers=auth)
    departures = parsed(body)
    check(status == 200 and departures.get("stop", {}).get("id") == "BU" and len(departures.get("departures", [])) == 3,
          "the nearest stop's departures: %s %s" % (status, body[:300]))
    status, _, body = request(port, "GET", "/api/v1/departures?stop=KU&at=2026-12-24&count=1", headers=auth)
    first = (parsed(body).get("departures") or [{}])[0]
    check(first.get("time", "").startswith("2026-12-24T06:20:00+01:00"), "departures from the start of a date: %s" % body[:300])
    status, _, body = request(port, "GET", "/api/v1/stops?q=thal", headers=auth)
    check([s.get("id") for s in parsed(body).get("stops", [])] == ["TH"], "a stop search: %s" % body[:200])
    status, _, body = request(port, "POST", "/api/v1/favourite", headers=good, body=json.dumps({"stop": "KU", "favourite": True}))
    status, _, body = request(port, "GET", "/api/v1/stops", headers=auth)
    check([s.get("id") for s in parsed(body).get("favourites", [])] == ["KU"], "a favourite set from the page: %s" % body[:200])
    trip = (departures.get("departures") or [{}])[-1].get("trip", "")
    status, _, body = request(port, "POST", "/api/v1/reminder", headers=good, body=json.dumps({"trip": trip, "stop": "BU", "minutes": 5}))
    reminders = parsed(body).get("reminders", [])
    check(status == 200 and len(reminders) == 1 and reminders[0].get("trip") == trip, "a reminder set: %s %s" % (status, body[:300]))
    status, _, body = request(port, "GET", "/api/v1/reminders", headers=auth)
    check(len(parsed(body).get("reminders", [])) == 1, "the reminders listed: %s" % body[:200])
    if reminders:
        status, _, body = request(port, "POST", "/api/v1/reminder", headers=good, body=json.dumps({"cancel": reminders[0].get("id")}))
        check(status == 200 and parsed(body).get("reminders") == [], "a reminder cancelled: %s %s" % (status, body[:200]))
    status, _, body = request(port, "GET", "/api/v1/alerts", headers=auth)
    check(status == 200 and parsed(body).get("rules") and "given" in parsed(body), "the alert rules: %s %s" % (status, body[:200]))


def reminders_by_command(lodestone, sock):
    """The same reminders from the command line: set, listed with its id, cancelled."""
    listed = cli(lodestone, "departures", "--stop", "BU", "--count", "2", "--json", "--data-dir", os.path.join(os.path.dirname(sock), "data"))
    trips = [d.get("trip") for d in parsed(listed.stdout.encode()).get("departures", [])]
    if not check(trips, "departures --json should give the trips: %s %s" % (listed.stdout, listed.stderr)):
        return
    setting = cli(lodestone, "departures", "remind", trips[-1], "--stop", "BU", "--minutes", "12", "--socket", sock)
    check(setting.returncode == 0 and "12 min before" in setting.stdout, "departures remind: %s %s" % (setting.stdout, setting.stderr))
    shown = cli(lodestone, "departures", "reminders", "--socket", sock)
    ids = re.findall(r"^(\d+)\s", shown.stdout, re.M)
    check(len(ids) == 1, "departures reminders should list one: %s" % shown.stdout)
    if ids:
        cancelled = cli(lodestone, "departures", "reminders", "cancel", ids[0], "--socket", sock)
        check(cancelled.returncode == 0 and "cancelled" in cancelled.stdout, "departures reminders cancel: %s %s" % (cancelled.stdout, cancelled.stderr))
        again = cli(lodestone, "departures", "reminders", "cancel", ids[0], "--socket", sock)
        check(again.returncode == 1 and "no reminder" in again.stderr, "cancelling twice should say so: %s" % again.stderr)


def read_events(port, auth, kinds, count, last=None):
    headers = {**auth, "Accept": "text/event-stream"}
    if last is not None:
        headers["Last-Event-ID"] = str(last)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/v1/events?kinds=" + kinds, headers={"Host": "127.0.0.1:%d" % port, **headers})
    response = connection.getresponse()
    ids, seen = [], set()
    current = None
    deadline = time.time() + 15
    while len(ids) < count and time.time() < deadline:
        line = response.fp.readline().decode().rstrip("\n")
        if line.startswith("id: "):
            current = int(line[4:])
        elif line.startswith("data: "):
            report = json.loads(line[6:])
            seen.add(report.get("class"))
            ids.append(current)
    connection.close()
    return ids, seen


if __name__ == "__main__":
    main()
