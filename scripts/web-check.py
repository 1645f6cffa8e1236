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
      stopped appears in `lodestone track list`), every limit with its status, 64 connections
      at once and the 65th refused, `lodestone web devices` and `forget`.

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
    device = subprocess.Popen([lodestone, "run", "--scenario", "walk", "--speed", "5", "--duration", "120", "--display", "none",
                               "--socket", sock, "--data-dir", data, "--http", "127.0.0.1:%d" % port],
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
    auth = {"Cookie": token_cookie}

    # The app's files, compressed with a validator.
    status, headers, body = request(port, "GET", "/", headers={**auth, "Accept-Encoding": "gzip"})
    check(status == 200 and headers.get("content-encoding") == "gzip" and b"<html" in gzip.decompress(body), "the page should come gzipped")
    etag = headers.get("etag")
    status, _, _ = request(port, "GET", "/", headers={**auth, "If-None-Match": etag or ""})
    check(status == 304, "a cached page should be 304 Not Modified, got %s" % status)
    app_bytes = 0
    for path in ["/index.html", "/app.js", "/style.css", "/icon.svg", "/manifest.webmanifest"]:
        status, headers, body = request(port, "GET", path, headers={**auth, "Accept-Encoding": "gzip"})
        check(status == 200, "%s should be served, got %s" % (path, status))
        app_bytes += len(body)
    findings["appBytes"] = app_bytes
    check(app_bytes <= 150 * 1024, "the app weighs %d bytes compressed, over 150 KB" % app_bytes)

    # The state and the session.
    time.sleep(3)
    status, _, body = request(port, "GET", "/api/v1/state", headers=auth)
    state = parsed(body)
    check(status == 200 and "ATT" in state and "TPV" in state, "the state should hold ATT and TPV: %s" % sorted(state))
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
    time.sleep(4)
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

    # 64 connections at once; the 65th is told the device is busy.
    held = []
    try:
        for _ in range(64):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        time.sleep(1)
        extra = raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", read_seconds=3)
        check(status_of(extra) == 503, "the 65th connection should get 503, got %s" % status_of(extra))
    finally:
        for s in held:
            s.close()

    # The paired browsers, and revoking this one.
    listed = cli(lodestone, "web", "devices", "--socket", sock)
    ids_listed = re.findall(r"^([0-9a-f]{6})\s", listed.stdout, re.M)
    check(len(ids_listed) == 1 and "web-check" in listed.stdout, "web devices should list this browser: %s" % listed.stdout)
    if ids_listed:
        cli(lodestone, "web", "forget", ids_listed[0], "--socket", sock)
        status, _, _ = request(port, "GET", "/api/v1/state", headers=auth)
        check(status == 401, "a forgotten browser should be refused, got %s" % status)
    tracks = cli(lodestone, "track", "list", "--data-dir", os.path.join(os.path.dirname(sock), "data"))
    check("web-check walk" in tracks.stdout, "the track started from the web should be in 'lodestone track list': %s %s" % (tracks.stdout, tracks.stderr))


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
