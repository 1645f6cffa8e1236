// Lodestone's web app: one page per instrument, fed by the device's reports (the same ATT,
// TPV, ENV... lines its gpsd socket writes) over Server-Sent Events. No framework, nothing
// from outside the device.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { reports: {}, token: null, paired: false, units: localStorage.getItem("units") || "metric", track: [], waypoints: [] };
// What each page does when it is opened (the pages in their own files add theirs).
const pageShown = {};

// ----- formatting -----
const fixed = (value, decimals) => (value === undefined || value === null || !isFinite(value)) ? "--" : Number(value).toFixed(decimals);
const points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"];
const compassPoint = (degrees) => points[Math.round(((degrees % 360) + 360) % 360 / 22.5) % 16];
// A number and its unit never part at the end of a line (a non-breaking space between).
function distance(metres) {
  if (!isFinite(metres)) return "--";
  if (state.units === "imperial") return metres < 1609 ? `${fixed(metres * 3.28084, 0)}\u00a0ft` : `${fixed(metres / 1609.344, 2)}\u00a0mi`;
  if (state.units === "nautical") return metres < 1852 ? `${fixed(metres, 0)}\u00a0m` : `${fixed(metres / 1852, 2)}\u00a0NM`;
  return metres < 1000 ? `${fixed(metres, 0)}\u00a0m` : `${fixed(metres / 1000, 2)}\u00a0km`;
}
function altitude(metres) {
  if (!isFinite(metres)) return "--";
  return state.units === "imperial" ? `${fixed(metres * 3.28084, 0)}\u00a0ft` : `${fixed(metres, 0)}\u00a0m`;
}
function speed(ms) {
  if (!isFinite(ms)) return "--";
  if (state.units === "imperial") return `${fixed(ms * 2.23694, 1)}\u00a0mph`;
  if (state.units === "nautical") return `${fixed(ms * 1.943844, 1)}\u00a0kn`;
  return `${fixed(ms * 3.6, 1)}\u00a0km/h`;
}
function sexagesimal(value, positive, negative, seconds) {
  const hemisphere = value >= 0 ? positive : negative;
  const whole = Math.abs(value);
  const degrees = Math.floor(whole);
  const minutes = (whole - degrees) * 60;
  if (!seconds) return `${degrees}° ${minutes.toFixed(4)}′ ${hemisphere}`;
  const m = Math.floor(minutes);
  return `${degrees}° ${m}′ ${((minutes - m) * 60).toFixed(2)}″ ${hemisphere}`;
}
// A list of figures (term, value) as the pages' boxes, in place of what it held.
function fillFigures(id, pairs) {
  const list = $(id);
  list.replaceChildren();
  for (const [term, value] of pairs) {
    const box = document.createElement("div");
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term; dd.textContent = value;
    box.append(dt, dd);
    list.appendChild(box);
  }
}
const setText = (id, text) => { const element = $(id); if (element && element.textContent !== text) element.textContent = text; };

// ----- the compass rose, drawn once and turned -----
function drawRose() {
  const card = $("card");
  const ns = "http://www.w3.org/2000/svg";
  for (let degrees = 0; degrees < 360; degrees += 5) {
    const major = degrees % 30 === 0;
    const line = document.createElementNS(ns, "line");
    const angle = degrees * Math.PI / 180;
    const inner = major ? 86 : 93;
    line.setAttribute("x1", Math.sin(angle) * inner); line.setAttribute("y1", -Math.cos(angle) * inner);
    line.setAttribute("x2", Math.sin(angle) * 102); line.setAttribute("y2", -Math.cos(angle) * 102);
    line.setAttribute("class", major ? "tick major" : "tick");
    card.appendChild(line);
    if (major) {
      const label = document.createElementNS(ns, "text");
      const names = { 0: "N", 90: "E", 180: "S", 270: "W" };
      label.textContent = names[degrees] || String(degrees);
      label.setAttribute("x", Math.sin(angle) * 72); label.setAttribute("y", -Math.cos(angle) * 72);
      label.setAttribute("class", names[degrees] ? (degrees === 0 ? "label cardinal north" : "label cardinal") : "label");
      label.setAttribute("transform", `rotate(${degrees} ${Math.sin(angle) * 72} ${-Math.cos(angle) * 72})`);
      card.appendChild(label);
    }
  }
}
// The card turns the short way round: 359° to 1° is 2°, not 358°.
let cardAngle = 0;
function turnCard(heading) {
  const target = -heading;
  let delta = ((target - cardAngle) % 360 + 540) % 360 - 180;
  cardAngle += delta;
  $("card").setAttribute("transform", `rotate(${cardAngle.toFixed(1)})`);
}

// ----- pages -----
function showAttitude(att) {
  const heading = att.heading !== undefined ? att.heading : att.mheading;
  if (heading !== undefined) {
    turnCard(heading);
    setText("heading-text", `${fixed(heading, 0)}°`);
    setText("heading-ref", `${compassPoint(heading)} ${att.heading !== undefined ? "true" : "magnetic"}`);
    $("rose").setAttribute("aria-label", `Heading ${fixed(heading, 0)} degrees ${att.heading !== undefined ? "true" : "magnetic"}`);
  } else {
    setText("heading-text", "---°");
    setText("heading-ref", "no heading yet");
  }
  setText("mag", att.mheading !== undefined ? `${fixed(att.mheading, 1)}°` : "--");
  setText("declination", att.declination !== undefined ? `${att.declination >= 0 ? "+" : ""}${fixed(att.declination, 1)}°` : "--");
  setText("accuracy", att.headingAccuracy !== undefined ? `±${fixed(att.headingAccuracy, 1)}°` : "--");
  setText("calibration", att.calibration || "--");
  setText("rot", att.rot !== undefined ? `${fixed(att.rot, 0)}°/min` : "--");
  const lock = att.bearing !== undefined ? { bearing: att.bearing, deviation: att.deviation, offCourse: att.offCourse } : null;
  $("lock-mark").classList.toggle("on", Boolean(lock));
  if (lock && heading !== undefined) {
    $("lock-mark").setAttribute("transform", `rotate(${(lock.bearing - heading).toFixed(1)})`);
  }
  setText("locked", lock ? `${fixed(lock.bearing, 0)}°${lock.deviation !== undefined ? ` (${lock.deviation >= 0 ? "+" : ""}${fixed(lock.deviation, 0)}°)` : ""}${lock.offCourse ? " off course" : ""}` : "none");
  $("lock").textContent = lock ? "Unlock" : "Lock bearing";
  const inProgress = att.calibration === "inProgress";
  $("calibrate-progress").hidden = !inProgress;
  if (inProgress && att.calibrationProgress !== undefined) $("calibrate-progress").value = att.calibrationProgress;
  const advice = $("calibrate-advice");
  advice.hidden = !(att.calibration === "uncalibrated" || att.calibration === "poor" || inProgress);
  advice.textContent = inProgress ? "Keep turning the device slowly through every direction." : "The compass needs calibrating: press Calibrate and turn the device slowly in a figure 8.";
}

function showPosition(tpv) {
  const has = tpv.mode >= 2 && tpv.lat !== undefined;
  setText("fix", has ? `${tpv.mode === 3 ? "3D" : "2D"} fix${tpv.time ? " at " + tpv.time.slice(11, 19) + " UTC" : ""}` : "no fix yet");
  setText("dd", has ? `${fixed(tpv.lat, 6)}, ${fixed(tpv.lon, 6)}` : "--");
  setText("dm", has ? `${sexagesimal(tpv.lat, "N", "S", false)}  ${sexagesimal(tpv.lon, "E", "W", false)}` : "--");
  setText("dms", has ? `${sexagesimal(tpv.lat, "N", "S", true)}  ${sexagesimal(tpv.lon, "E", "W", true)}` : "--");
  setText("eph", tpv.eph !== undefined ? `±${distance(tpv.eph)}` : "--");
  setText("alt", tpv.altMSL !== undefined ? altitude(tpv.altMSL) : (tpv.alt !== undefined ? altitude(tpv.alt) : "--"));
  setText("speed", speed(tpv.speed));
  setText("course", tpv.track !== undefined ? `${fixed(tpv.track, 0)}° ${compassPoint(tpv.track)}` : "--");
  if (has) {
    const last = state.track[state.track.length - 1];
    if (!last || last[0] !== tpv.lat || last[1] !== tpv.lon) state.track.push([tpv.lat, tpv.lon]);
    if (state.track.length > 5000) state.track.splice(0, state.track.length - 5000);
    if (currentPage() === "track") drawMap();
  }
}

function showSatellites(sky) {
  const used = (sky.satellites || []).filter((s) => s.used).length;
  setText("sats", `${used} used of ${(sky.satellites || []).length} seen`);
}

function showEnvironment(env) {
  setText("pressure", env.pressure !== undefined ? `${fixed(env.pressure, 1)} hPa` : "--");
  setText("qnh-now", env.seaLevelPressure !== undefined ? `${fixed(env.seaLevelPressure, 1)} hPa` : "--");
  setText("baro-alt", env.altFused !== undefined ? altitude(env.altFused) : (env.altBaro !== undefined ? altitude(env.altBaro) : "--"));
  setText("temp", env.temp !== undefined ? `${fixed(env.temp, 1)} °C` : "--");
  setText("trend", env.trend ? `${env.trend.band || ""} ${fixed(env.trend.rate, 1)} hPa/h` : "after 30 minutes");
  setText("wind", env.windSpeed3s !== undefined ? speed(env.windSpeed3s) : (env.windSpeed !== undefined ? speed(env.windSpeed) : "--"));
  setText("gust", env.windGust !== undefined ? speed(env.windGust) : "--");
  setText("wind-dir", env.windDirection !== undefined ? `${fixed(env.windDirection, 0)}° ${compassPoint(env.windDirection)}` : "--");
  setText("wind-true", env.windSpeedTrue !== undefined ? `${speed(env.windSpeedTrue)} from ${fixed(env.windDirectionTrue, 0)}°` : "--");
  setText("wind-apparent", env.windSpeedApparent !== undefined ? `${speed(env.windSpeedApparent)} at ${fixed(env.windAngleApparent, 0)}° off the bow` : "--");
  setText("water", env.waterTemperature !== undefined ? `${fixed(env.waterTemperature, 1)} °C` : "--");
  setText("wetsuit", env.wetsuit ? env.wetsuit.text : "--");
  setText("outlook", env.forecast ? `${env.forecast.letter} · ${env.forecast.text}` : "after 30 minutes of pressure");
}

function showHealth(health) {
  const sensors = $("sensors");
  sensors.replaceChildren();
  for (const name of ["imu", "magnetometer", "barometer", "gps"]) {
    const value = health.sensors ? health.sensors[name] : undefined;
    if (value === undefined) continue;
    const row = sensors.insertRow();
    const head = document.createElement("th");
    head.scope = "row"; head.textContent = name;
    row.appendChild(head);
    const cell = row.insertCell();
    cell.textContent = value;
    cell.className = value === "ok" ? "ok" : "bad";
  }
  for (const [id, list] of [["tasks", health.tasks], ["output-tasks", health.outputTasks]]) {
    const body = $(id);
    body.replaceChildren();
    for (const task of list || []) {
      const row = body.insertRow();
      for (const text of [task.name, fixed(task.rateHz, 0), fixed(task.meanus, 1), fixed(task.maxus, 1)]) row.insertCell().textContent = text;
    }
  }
}

// A track on a plain map: its path, its start, where it ends, the waypoints near it, north and
// a scale bar of a round distance. No tiles: the device has no map data and no internet.
function drawTrackMap(canvas, track, waypoints, photos) {
  const { context, width: size } = fitCanvas(canvas, canvas.clientWidth || 360);
  const metresPerDegree = 111320;
  const near = (waypoints || []).filter((w) => track.length === 0 || track.some(([lat, lon]) => Math.abs(lat - w.lat) < 0.05 && Math.abs(lon - w.lon) < 0.05));
  const all = track.concat(near.map((w) => [w.lat, w.lon]));
  if (all.length === 0) {
    context.fillStyle = themeColour("--muted", "#4a4a4a");
    context.font = "14px system-ui";
    context.fillText("no position yet", 14, size / 2);
    return 0;
  }
  let [minLat, maxLat, minLon, maxLon] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const [lat, lon] of all) { minLat = Math.min(minLat, lat); maxLat = Math.max(maxLat, lat); minLon = Math.min(minLon, lon); maxLon = Math.max(maxLon, lon); }
  const midLat = (minLat + maxLat) / 2, cosine = Math.cos(midLat * Math.PI / 180);
  const width = Math.max((maxLon - minLon) * metresPerDegree * cosine, (maxLat - minLat) * metresPerDegree, 50);
  const scale = (size - 48) / width;
  const x = (lon) => size / 2 + (lon - (minLon + maxLon) / 2) * metresPerDegree * cosine * scale;
  const y = (lat) => size / 2 - (lat - midLat) * metresPerDegree * scale;
  context.strokeStyle = themeColour("--accent", "#9a4a00");
  context.lineWidth = 3; context.lineJoin = "round";
  context.beginPath();
  track.forEach(([lat, lon], index) => index === 0 ? context.moveTo(x(lon), y(lat)) : context.lineTo(x(lon), y(lat)));
  context.stroke();
  context.fillStyle = themeColour("--fg", "#111");
  context.font = "12px system-ui";
  for (const w of near) {
    const [wx, wy] = [x(w.lon), y(w.lat)];
    context.beginPath(); context.moveTo(wx, wy - 7); context.lineTo(wx + 6, wy); context.lineTo(wx, wy + 7); context.lineTo(wx - 6, wy); context.closePath(); context.fill();
    // The name beside it, or above it where the map's edge leaves no room.
    const labelWidth = context.measureText(w.name).width;
    if (wx + 10 + labelWidth <= size - 4) context.fillText(w.name, wx + 9, wy + 4);
    else context.fillText(w.name, Math.max(4, size - 6 - labelWidth), wy - 11);
  }
  // The photos taken along it: a small framed square each.
  context.strokeStyle = themeColour("--fg", "#111");
  context.lineWidth = 2;
  for (const p of (photos || []).filter((p) => isFinite(p.lat) && isFinite(p.lon))) context.strokeRect(x(p.lon) - 5, y(p.lat) - 4, 10, 8);
  if (track.length > 0) {
    context.fillText("S", x(track[0][1]) - 4, y(track[0][0]) - 8);
    const [lat, lon] = track[track.length - 1];
    context.fillStyle = themeColour("--warn", "#a00");
    context.beginPath(); context.arc(x(lon), y(lat), 6, 0, 2 * Math.PI); context.fill();
  }
  context.fillStyle = themeColour("--fg", "#111");
  context.font = "bold 15px system-ui"; context.fillText("N ↑", size - 36, 22);
  const bar = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000].find((m) => m * scale > size / 5) || 50000;
  context.fillRect(14, size - 18, bar * scale, 3);
  context.font = "13px system-ui"; context.fillText(distance(bar), 14, size - 24);
  let total = 0;
  for (let i = 1; i < track.length; i++) {
    total += Math.hypot((track[i][0] - track[i - 1][0]) * metresPerDegree, (track[i][1] - track[i - 1][1]) * metresPerDegree * cosine);
  }
  return total;
}

function drawMap() {
  setText("track-points", String(state.track.length));
  setText("track-distance", distance(drawTrackMap($("map"), state.track, state.waypoints)));
}

async function loadWaypoints() {
  const reply = await getJSON("/api/v1/waypoints");
  state.waypoints = reply && reply.waypoints ? reply.waypoints : [];
  if (currentPage() === "track") drawMap();
}

function showTrack(report) {
  const recording = report.state !== "stopped" && report.name;
  setText("track-state", report.state + (recording ? `: ${report.name}, ${distance(report.distance)} in ${report.points} points` : ""));
}

// An alert or a reminder as the phone would give it: a banner that stays until it is read.
function showEvent(event) {
  const words = event.event === "alert" ? event.message
    : event.event === "departure" ? `The ${event.route} to ${event.headsign} leaves ${event.stop} at ${event.departure.slice(11, 16)}`
    : event.event === "satellitePass" ? `${event.satellite} rises soon (${fixed(event.maximumAltitude, 0)}° high)` : null;
  if (!words) return;
  setText("banner-text", words);
  $("banner").hidden = false;
  if (navigator.vibrate) navigator.vibrate(200);
  if (event.event === "alert" && pageShown.barometer && currentPage() === "barometer") pageShown.barometer();
}

// ----- the device's reports -----
const handlers = { ATT: showAttitude, TPV: showPosition, SKY: showSatellites, ENV: showEnvironment, HEALTH: showHealth, TRACK: showTrack, EVENT: showEvent };
function take(report) {
  if (!report || !report.class) return;
  state.reports[report.class] = report;
  const handler = handlers[report.class];
  if (handler) handler(report);
}

function connect() {
  const source = new EventSource("/api/v1/events?kinds=ATT,TPV,SKY,ENV,TRACK,EVENT");
  source.onopen = () => setText("link", "live");
  source.onerror = () => setText("link", "reconnecting…");
  source.onmessage = (message) => { try { take(JSON.parse(message.data)); } catch (error) { /* a damaged line is skipped */ } };
}

async function act(name, body) {
  const response = await fetch(`/api/v1/${name}`, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Lodestone-Token": state.token || "" },
    body: JSON.stringify(body || {}),
  });
  const reply = await response.json().catch(() => null);
  if (!response.ok) setText("link", reply && reply.message ? reply.message : `refused (${response.status})`);
  else take(reply);
  return reply;
}

// A read of the API; on a refusal the reason is said in the header and null returned.
async function getJSON(path) {
  try {
    const response = await fetch(path);
    const reply = await response.json().catch(() => null);
    if (!response.ok) { setText("link", reply && reply.message ? reply.message : `${path}: ${response.status}`); return reply && reply.class === "ERROR" ? reply : null; }
    return reply;
  } catch (error) {
    setText("link", "the device cannot be reached");
    return null;
  }
}

// The recording's state, whoever started it (the button, the command line, this page).
async function refreshTrack() {
  if (currentPage() !== "track") return;
  const reply = await getJSON("/api/v1/track");
  if (reply && reply.class === "TRACK") take(reply);
}

async function refreshHealth() {
  if (currentPage() !== "device") return;
  const response = await fetch("/api/v1/health");
  if (response.ok) take(await response.json());
}

// ----- navigation, theme, units -----
function currentPage() { return (location.hash || "#compass").slice(1); }
function showPage() {
  const page = currentPage();
  for (const section of document.querySelectorAll(".page")) section.hidden = section.id !== "page-" + page;
  for (const link of document.querySelectorAll(".tabs a")) {
    if (link.dataset.page === page) {
      link.setAttribute("aria-current", "page");
      link.scrollIntoView({ block: "nearest", inline: "nearest" });
    } else {
      link.removeAttribute("aria-current");
    }
  }
  if (page === "track") { loadWaypoints(); refreshTrack(); }
  if (pageShown[page]) pageShown[page]();
  refreshHealth();
}
function setTheme(night) {
  document.documentElement.classList.toggle("night", night);
  $("theme").setAttribute("aria-pressed", String(night));
  localStorage.setItem("theme", night ? "night" : "day");
}

async function start() {
  drawRose();
  setTheme(localStorage.getItem("theme") === "night");
  $("theme").addEventListener("click", () => setTheme(!document.documentElement.classList.contains("night")));
  $("units").value = state.units;
  $("units").addEventListener("change", () => {
    state.units = $("units").value;
    localStorage.setItem("units", state.units);
    for (const report of Object.values(state.reports)) take(report);
  });
  window.addEventListener("hashchange", showPage);
  showPage();
  $("lock").addEventListener("click", () => state.reports.ATT && state.reports.ATT.bearing !== undefined ? act("unlock") : act("lock"));
  $("calibrate").addEventListener("click", () => act("calibrate", { action: "start" }));
  $("track-start").addEventListener("click", () => {
    const name = $("track-name").value.trim();
    act("track", name ? { action: "start", name } : { action: "start" });
  });
  $("banner-close").addEventListener("click", () => { $("banner").hidden = true; });
  $("snapshot").addEventListener("click", async () => {
    const reply = await act("snapshot", {});
    if (reply && reply.class === "SNAPSHOT") setText("link", "snapshot kept");
  });
  $("track-pause").addEventListener("click", () => act("track", { action: "pause" }));
  $("track-stop").addEventListener("click", () => act("track", { action: "stop" }));
  $("track-back").addEventListener("click", () => act("waypoint", { action: "back" }));
  $("track-photo").addEventListener("click", async () => {
    const reply = await act("photo", {});
    if (reply && reply.class === "PHOTO") setText("link", `photo ${reply.file}` + (reply.track ? ` with ${reply.track}` : ""));
  });
  $("copy").addEventListener("click", async () => {
    const text = $("dd").textContent;
    try { await navigator.clipboard.writeText(text); setText("link", "copied"); } catch (error) { setText("link", text); }
  });
  const session = await (await fetch("/api/v1/session")).json();
  state.token = session.token || null;
  state.paired = session.paired;
  setText("pairing", session.paired ? `This browser is paired (${session.browser}).` : `Viewing without a pairing (access ${session.access}): actions need 'lodestone web pair'.`);
  const snapshot = await (await fetch("/api/v1/state")).json();
  for (const report of Object.values(snapshot)) take(report);
  connect();
  setInterval(refreshHealth, 2000);
  setInterval(refreshTrack, 5000);
}
document.addEventListener("DOMContentLoaded", start);
