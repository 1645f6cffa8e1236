// The waves page: the day's ferry waves at a stop, or where the wakes reach a spot on the shore
// (GET /api/v1/waves, the object `lodestone waves --json` prints). A timeline drawn here (each
// wave a mark sized by its waves, filled by its light: day, twilight, dark; the Sun's day and
// twilights as the band behind; the hours in the device's zone), the sessions with their
// scores and why, the lit waves by hour, every wave, and the day stepped back and forth.
import { getJSON } from "./api.js";
import { $, note, setText } from "./dom.js";
import { clock, clockAt, distance, duration, fixed, lightMark, localDay, unixOf } from "./format.js";
import { lookup, words } from "./lang.js";
import { onShow } from "./nav.js";
import { listStops } from "./stops.js";
import { store } from "./store.js";

// stop: null (the first favourite, else the nearest), "nearest" or a stop's id; spot: {lat,
// lon} on the shore in place of the stop; date: YYYY-MM-DD, null for the device's today.
const waves = { stop: null, spot: null, date: null, data: null, favourites: [] };
// The last answer to each question: shown again when the device cannot be reached.
const kept = new Map();
const svgNS = "http://www.w3.org/2000/svg";

function svg(name, attributes, parent) {
  const element = document.createElementNS(svgNS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (parent) parent.appendChild(element);
  return element;
}

// The day after (or before, -1) a date, as the API names days.
const shifted = (date, days) => new Date(Date.parse(date + "T00:00:00Z") + days * 86400000).toISOString().slice(0, 10);

async function cachedJSON(path) {
  const reply = await getJSON(path, { quiet: true });
  if (reply && !reply.status) kept.set(path, reply);
  return reply || kept.get(path) || null;
}

// The stop the page is for: the one chosen, else as the departures page chooses (the first
// favourite, else the nearest with service), asked of the device.
async function chosenStop() {
  if (waves.stop && waves.stop !== "nearest") return { id: waves.stop };
  const reply = await cachedJSON(`/api/v1/departures?count=1${waves.stop ? "&stop=nearest" : ""}`);
  if (reply && reply.class === "DEPARTURES") return reply.stop;
  if (!reply) return { why: lookup("label.noDepartures") };
  if (reply.status === 404) return { why: lookup("label.noTimetable") };
  const tpv = store.reports.TPV;
  return { why: lookup(tpv && tpv.mode >= 2 ? "label.noStopNearby" : "label.noFixForStop") };
}

function chip(stop, pressed) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = stop.name;
  button.translate = stop.id === "nearest";
  button.setAttribute("aria-pressed", String(pressed));
  button.addEventListener("click", () => { waves.stop = stop.id; waves.spot = null; load(); });
  return button;
}

async function loadStops(shownID) {
  const typed = $("waves-q").value.trim();
  const reply = await cachedJSON(`/api/v1/stops${typed ? "?q=" + encodeURIComponent(typed) : ""}`);
  if (!reply || reply.class !== "STOPS") return;
  const chips = $("waves-chips");
  const nearest = !waves.spot && (waves.stop === "nearest" || (waves.stop === null && !reply.favourites.some((stop) => stop.id === shownID)));
  chips.replaceChildren(chip({ id: "nearest", name: lookup("label.nearest") }, nearest));
  for (const stop of reply.favourites) chips.appendChild(chip(stop, !waves.spot && !nearest && shownID === stop.id));
  listStops($("waves-results"), reply.stops, typed, (stop) => { waves.stop = stop.id; waves.spot = null; $("waves-q").value = ""; load().then(showDay); });
}

function clear(why) {
  waves.data = null;
  setText("waves-place", "");
  setText("waves-day", why);
  for (const id of ["waves-timeline", "waves-hours", "waves-sessions", "waves-list"]) $(id).replaceChildren();
  setText("waves-sun", "");
  setText("waves-frequency", "");
}

async function load() {
  const query = new URLSearchParams();
  let shownID = null;
  if (waves.spot) {
    query.set("lat", String(waves.spot.lat));
    query.set("lon", String(waves.spot.lon));
  } else {
    const stop = await chosenStop();
    if (!stop.id) { clear(stop.why); loadStops(null); return; }
    query.set("stop", stop.id);
    shownID = stop.id;
  }
  if (waves.date) query.set("date", waves.date);
  $("waves-stop-again").hidden = !waves.spot;
  const data = await cachedJSON(`/api/v1/waves?${query}`);
  loadStops(shownID);
  if (!data || !data.waves) {
    clear(data && data.status === 404 && !data.message.startsWith("no stop") ? lookup("label.noTimetable") : (data && data.message) || lookup("label.noDepartures"));
    return;
  }
  waves.data = data;
  show(data);
}

function show(data) {
  $("waves-date").value = data.date;
  const place = data.place.stop
    ? data.place.stop.name
    : lookup("label.spotPlace", fixed(data.place.spot.lat, 4), fixed(data.place.spot.lon, 4), distance(data.place.spot.radius));
  setText("waves-place", place);
  $("waves-place").translate = !data.place.stop;
  setText("waves-day", `${localDay(data.date)} ${data.date.slice(0, 4)}`);
  const sun = data.daylight;
  setText("waves-sun", `${lookup("label.sunDay", clock(sun.sunrise), clock(sun.sunset), clock(sun.civilDawn), clock(sun.civilDusk))} · ${lookup("label.dayLength")} ${duration(sun.daylightSeconds)}`);
  drawTimeline(data);
  showSessions(data);
  showFrequency(data);
  showList(data);
}

// Where the day's timeline begins and ends: whole hours about the first wave or civil dawn and
// the last wave or civil dusk (the whole day when the Sun gives neither), as the display's.
function span(data) {
  const offset = (data.waves[0] || {}).time || data.daylight.sunrise || "";
  const zone = /([+-]\d\d:\d\d|Z)$/.exec(offset);
  const dayStart = Date.parse(`${data.date}T00:00:00${zone ? zone[1] : "Z"}`) / 1000, dayEnd = dayStart + 86400;
  const times = data.waves.map((wave) => unixOf(wave.time)).concat([unixOf(data.daylight.civilDawn), unixOf(data.daylight.civilDusk)]).filter(isFinite);
  if (!times.length) return [dayStart, dayEnd, dayStart];
  const hour = (t, up) => dayStart + (up ? Math.ceil : Math.floor)((t - dayStart) / 3600) * 3600;
  const start = Math.max(dayStart, hour(Math.min(...times), false)), end = Math.min(dayEnd, hour(Math.max(...times) + 1, true));
  return [start, Math.max(end, start + 3600), dayStart];
}

const radius = (count) => 2 + 1.8 * Math.min(3, Math.max(1, count));

// A wave's mark: filled in the day, half filled in twilight, a ring in the dark.
function mark(parent, x, y, r, light) {
  const group = svg("g", { class: `wave ${light}` }, parent);
  svg("circle", { cx: x.toFixed(1), cy: y, r }, group);
  if (light === "twilight") svg("path", { d: `M${x.toFixed(1)},${y - r} A${r},${r} 0 0 0 ${x.toFixed(1)},${y + r} Z`, class: "half" }, group);
  return group;
}

function drawTimeline(data) {
  const chart = $("waves-timeline");
  const width = Math.max(300, Math.round(chart.clientWidth || 360)), height = 104;
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.replaceChildren();
  const [start, end, dayStart] = span(data);
  const left = 8, right = width - 8;
  const x = (t) => left + (right - left) * (t - start) / (end - start);
  const clamp = (t) => Math.min(end, Math.max(start, t));
  // The band: dark, the twilights, the day, each where the Sun puts it.
  const sun = data.daylight;
  const band = (from, to, kind) => {
    if (!isFinite(from) || !isFinite(to) || to <= from) return;
    svg("rect", { x: x(clamp(from)).toFixed(1), y: 4, width: Math.max(0, x(clamp(to)) - x(clamp(from))).toFixed(1), height: 22, class: `band ${kind}` }, chart);
  };
  const [dawn, rise, set, dusk] = [sun.civilDawn, sun.sunrise, sun.sunset, sun.civilDusk].map(unixOf);
  band(start, end, sun.daylightSeconds >= 86000 ? "day" : "dark");
  band(isFinite(dawn) ? dawn : start, isFinite(dusk) ? dusk : end, isFinite(dawn) || isFinite(dusk) ? "twilight" : "none");
  band(isFinite(rise) ? rise : (sun.daylightSeconds > 0 && isFinite(set) ? start : NaN), isFinite(set) ? set : (isFinite(rise) ? end : NaN), "day");
  // The sessions as bars under the marks.
  for (const session of data.sessions) {
    const from = x(unixOf(session.start)), to = x(unixOf(session.end));
    svg("rect", { x: (from - 4).toFixed(1), y: 64, width: (to - from + 8).toFixed(1), height: 5, rx: 2, class: session.best ? "session best" : "session" }, chart);
  }
  // The hours, in the device's zone: a tick each hour, a figure every two or three.
  const every = width < 520 ? 3 : 2;
  for (let t = start; t <= end + 1; t += 3600) {
    const hour = Math.round((t - dayStart) / 3600);
    svg("line", { x1: x(t).toFixed(1), x2: x(t).toFixed(1), y1: 26, y2: 31, class: "tick" }, chart);
    if (hour % every === 0 && x(t) > left + 6 && x(t) < right - 6) {
      const label = svg("text", { x: x(t).toFixed(1), y: 96, class: "hour" }, chart);
      label.textContent = clockAt(t).replace(/:00(?=\D|$)/, "");
    }
  }
  // The waves: a mark each, sized by its waves, on a lane of its own.
  for (const wave of data.waves) {
    const t = unixOf(wave.time);
    const group = mark(chart, x(t), 46, radius(wave.waves), wave.light);
    const title = svg("title", {}, group);
    title.textContent = `${clock(wave.time)} ${lookup("label.routeTo", wave.route, wave.headsign)} · ${waveCount(wave.waves)} · ${words("light", wave.light)}`;
  }
  // Now, on today's timeline.
  const tpv = store.reports.TPV, now = tpv ? unixOf(tpv.time) : NaN;
  if (isFinite(now) && now >= start && now <= end) svg("line", { x1: x(now).toFixed(1), x2: x(now).toFixed(1), y1: 0, y2: 72, class: "now" }, chart);
}

const waveCount = (n) => n === 1 ? lookup("label.oneWave") : lookup("label.waves", String(n));

// The sessions as the device orders them (the one under way or next first, then the day's
// best), each with its score and why: its boats, their waves and points, and its light.
function showSessions(data) {
  const list = $("waves-sessions");
  list.replaceChildren();
  data.sessions.forEach((session, index) => {
    const from = unixOf(session.start), to = unixOf(session.end);
    const inside = data.waves.filter((wave) => unixOf(wave.time) >= from && unixOf(wave.time) <= to);
    const item = document.createElement("li");
    item.className = "session-row";
    const when = document.createElement("strong");
    when.textContent = `${clock(session.start)}–${clock(session.end)}`;
    const state = session.when === "now" ? lookup("label.sessionNow") : session.when === "over" ? lookup("label.over")
      : index === 0 ? lookup("label.sessionNext") : "";
    const tags = [state, session.best ? lookup("label.sessionBest") : ""].filter(Boolean);
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = tags.join(" · ");
    badge.hidden = !tags.length;
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = lookup("label.sessionScore", fixed(session.score, 1));
    score.title = lookup("label.scoreTitle");
    const twilight = inside.filter((wave) => wave.light === "twilight").length;
    const why = document.createElement("p");
    why.className = "small";
    why.textContent = `${lookup("label.sessionWhy", String(inside.length), String(inside.reduce((sum, wave) => sum + wave.waves, 0)),
      String(inside.reduce((sum, wave) => sum + wave.points, 0)))}, ${twilight ? lookup("label.inTwilight", String(twilight)) : lookup("label.allInDaylight")}`;
    item.append(when, " ", badge, " ", score, why);
    list.appendChild(item);
  });
  if (!data.sessions.length) note(list, lookup("label.noSession"));
}

function showFrequency(data) {
  const f = data.frequency;
  setText("waves-frequency", f.count === 0 ? lookup("label.noLitWaves")
    : f.meanGapMinutes === null ? lookup("label.litWaves", String(f.count)) : lookup("label.litWavesEvery", String(f.count), `${fixed(f.meanGapMinutes, 0)}\u00a0min`));
  const chart = $("waves-hours");
  const width = Math.max(300, Math.round(chart.clientWidth || 360)), height = 70;
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.replaceChildren();
  const most = Math.max(1, ...f.byHour);
  const step = (width - 16) / 24;
  f.byHour.forEach((count, hour) => {
    const tall = 44 * count / most;
    if (count > 0) {
      const bar = svg("rect", { x: (8 + hour * step + 1).toFixed(1), y: (50 - tall).toFixed(1), width: (step - 2).toFixed(1), height: tall.toFixed(1), class: "bar" }, chart);
      svg("title", {}, bar).textContent = `${String(hour).padStart(2, "0")}: ${count}`;
    }
    if (hour % 3 === 0) {
      const label = svg("text", { x: (8 + hour * step + step / 2).toFixed(1), y: 66, class: "hour" }, chart);
      label.textContent = String(hour);
    }
  });
  svg("line", { x1: 8, x2: width - 8, y1: 50.5, y2: 50.5, class: "tick" }, chart);
}

function showList(data) {
  const list = $("waves-list");
  list.replaceChildren();
  for (const wave of data.waves) {
    const item = document.createElement("li");
    item.className = "departure";
    const when = document.createElement("strong");
    when.textContent = clock(wave.time);
    const what = document.createElement("span");
    what.textContent = lookup("label.routeTo", wave.route, wave.headsign);
    item.append(when, what);
    if (wave.ship) {
      const ship = document.createElement("span");
      ship.className = "mark";
      ship.translate = false;
      ship.textContent = wave.ship;
      item.appendChild(ship);
    }
    const size = document.createElement("span");
    size.textContent = `${"~".repeat(wave.waves)} ${lookup("label.pts", String(wave.points))}`;
    size.setAttribute("aria-label", `${waveCount(wave.waves)}, ${lookup("label.pts", String(wave.points))}`);
    item.append(size, lightMark(wave.light));
    if (wave.distance !== undefined) {
      const wake = document.createElement("span");
      wake.className = "small";
      wake.textContent = lookup("label.wakeArrives", distance(wave.distance), clock(wave.passes), clock(wave.arrival));
      item.appendChild(wake);
    }
    list.appendChild(item);
  }
  if (!data.waves.length) note(list, lookup("label.noWavesDay"));
}

// The day chosen down the page (a stop found, a spot typed) is shown from its place's name on.
const showDay = () => $("waves-place").scrollIntoView({ block: "nearest" });

// "47.3405, 8.5600" (a comma or spaces between): the spot, or null when it is no place.
function parseSpot(text) {
  const parts = text.trim().split(/[\s,;]+/).filter(Boolean).map(Number);
  if (parts.length !== 2 || !parts.every(isFinite)) return null;
  const [lat, lon] = parts;
  return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 ? { lat, lon } : null;
}

onShow("waves", load);
let typing;
$("waves-q").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(() => loadStops(waves.data && waves.data.place.stop ? waves.data.place.stop.id : null), 250); });
$("waves-search").addEventListener("submit", (event) => { event.preventDefault(); loadStops(null); });
$("waves-spot-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const spot = parseSpot($("waves-spot").value);
  if (!spot) { setText("waves-day", lookup("label.spotFormat")); return; }
  waves.spot = spot;
  load().then(showDay);
});
$("waves-stop-again").addEventListener("click", () => { waves.spot = null; $("waves-spot").value = ""; load(); });
const step = (days) => {
  const from = waves.date || (waves.data && waves.data.date);
  if (!from) return;
  waves.date = shifted(from, days);
  load();
};
$("waves-previous").addEventListener("click", () => step(-1));
$("waves-next").addEventListener("click", () => step(1));
$("waves-today").addEventListener("click", () => { waves.date = null; load(); });
$("waves-date").addEventListener("change", () => { if (/^\d{4}-\d{2}-\d{2}$/.test($("waves-date").value)) { waves.date = $("waves-date").value; load(); } });
// Drawn again to the new width when the phone turns.
addEventListener("resize", () => { if (waves.data && !$("page-waves").hidden) { drawTimeline(waves.data); showFrequency(waves.data); } });
