// The sky page: the day's light as a gradient from midnight to midnight, the countdown to the
// next event and season, the Sun's and the Moon's times, the planets and the satellite's passes.
"use strict";

const sky = { data: null, date: "" };
const clockOf = (iso) => iso ? iso.slice(11, 16) : "--:--";
// Seconds since the Unix epoch from the device's ISO-8601 times (they carry their offset).
const unixOf = (iso) => iso ? Date.parse(iso) / 1000 : NaN;

function countdown(seconds) {
  if (!isFinite(seconds) || seconds < 0) return "";
  const d = Math.floor(seconds / 86400), h = Math.floor(seconds / 3600) % 24, m = Math.floor(seconds / 60) % 60;
  return d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
}

// The day bar: night, the three twilights and day as bands with hard edges, the present as a line.
// Each event names the light before and after it; a day without events (polar day or night)
// is one band.
const transitions = [["astronomicalDawn", "night", "astro"], ["nauticalDawn", "astro", "nautical"], ["civilDawn", "nautical", "civil"],
  ["sunrise", "civil", "day"], ["sunset", "day", "civil"], ["civilDusk", "civil", "nautical"], ["nauticalDusk", "nautical", "astro"],
  ["astronomicalDusk", "astro", "night"]];
function drawDay(data) {
  const sun = data.sun;
  const start = unixOf(data.date + "T00:00:00" + data.now.slice(19));
  const events = transitions.map(([key, before, after]) => [unixOf(sun[key]), before, after]).filter((e) => isFinite(e[0])).sort((a, b) => a[0] - b[0]);
  const band = (name) => `var(--${name})`;
  let light = events.length ? events[0][1] : (sun.altitude > 0 ? "day" : "night");
  const stops = [`${band(light)} 0%`];
  for (const [at, , after] of events) {
    const percent = Math.min(100, Math.max(0, (at - start) / 864)).toFixed(2);
    stops.push(`${band(light)} ${percent}%`, `${band(after)} ${percent}%`);
    light = after;
  }
  stops.push(`${band(light)} 100%`);
  const bar = $("sky-day");
  bar.style.setProperty("--gradient", `linear-gradient(to right, ${stops.join(", ")})`);
  const nowPercent = (unixOf(data.now) - start) / 864;
  bar.style.setProperty("--now", `${Math.min(100, Math.max(0, nowPercent)).toFixed(2)}%`);
  bar.setAttribute("aria-label", `Daylight from ${clockOf(sun.sunrise)} to ${clockOf(sun.sunset)}; civil twilight from ${clockOf(sun.civilDawn)} to ${clockOf(sun.civilDusk)}`);
}

function nextEvent(data, now) {
  const names = { civilDawn: "Civil dawn", sunrise: "Sunrise", solarNoon: "Solar noon", sunset: "Sunset", civilDusk: "Civil dusk" };
  let best = null;
  for (const key of Object.keys(names)) {
    const at = unixOf(data.sun[key]);
    if (isFinite(at) && at > now && (!best || at < best[1])) best = [names[key], at];
  }
  return best;
}

function tick() {
  const data = sky.data;
  if (!data || currentPage() !== "sky") return;
  const now = unixOf(data.now) + (Date.now() / 1000 - sky.fetched);
  const next = nextEvent(data, now);
  const season = data.seasons && data.seasons.next;
  setText("sky-countdown", next ? `${next[0]} in ${countdown(next[1] - now)}` : (season ? `${season.name} in ${season.daysUntil} days` : ""));
}

async function loadSky() {
  const query = sky.date ? `?date=${sky.date}` : "";
  const data = await getJSON(`/api/v1/sky${query}`);
  if (!data || !data.sun) { setText("sky-place", data && data.message ? data.message : "no sky yet"); return; }
  sky.data = data;
  sky.fetched = Date.now() / 1000;
  if (!$("sky-date").value) $("sky-date").value = data.date;
  setText("sky-place", `${data.date} at ${fixed(data.latitude, 3)}, ${fixed(data.longitude, 3)} (${data.timeZone})`);
  drawDay(data);
  const sun = data.sun;
  const hours = Math.floor(sun.dayLengthSeconds / 3600), minutes = Math.round(sun.dayLengthSeconds / 60) % 60;
  fillFigures("sky-sun", [["Civil dawn", clockOf(sun.civilDawn)], ["Sunrise", clockOf(sun.sunrise)], ["Solar noon", clockOf(sun.solarNoon)],
    ["Sunset", clockOf(sun.sunset)], ["Civil dusk", clockOf(sun.civilDusk)], ["Day length", `${hours} h ${minutes} min`],
    ["Golden hour", `${clockOf(sun.goldenHourEvening.start)}–${clockOf(sun.goldenHourEvening.end)}`],
    ["Blue hour", `${clockOf(sun.blueHourEvening.start)}–${clockOf(sun.blueHourEvening.end)}`],
    ["Sun now", `${fixed(sun.altitude, 1)}° high, ${compassPoint(sun.azimuth)}`]]);
  const moon = data.moon;
  fillFigures("sky-moon", [["Phase", moon.phase], ["Lit", `${fixed(moon.illumination * 100, 0)}%`], ["Moonrise", clockOf(moon.moonrise)],
    ["Moonset", clockOf(moon.moonset)], ["Full moon", moon.nextFullMoon.slice(0, 10)], ["New moon", moon.nextNewMoon.slice(0, 10)]]);
  const season = data.seasons;
  if (season && season.next) setText("sky-season", `${season.next.name} on ${season.next.time.slice(0, 10)}, in ${season.next.daysUntil} days: ${season.next.description}`);
  if (season && season.current) $("sky-season-progress").value = season.current.daysElapsed / season.current.daysTotal;
  const planets = $("sky-planets");
  planets.replaceChildren();
  for (const planet of data.planets || []) {
    const row = planets.insertRow();
    const head = document.createElement("th");
    head.scope = "row"; head.textContent = planet.name;
    row.appendChild(head);
    for (const text of [`${fixed(planet.altitude, 0)}° ${compassPoint(planet.azimuth)}`, clockOf(planet.rise), clockOf(planet.set), fixed(planet.magnitude, 1)]) row.insertCell().textContent = text;
  }
  const passes = $("sky-passes");
  passes.replaceChildren();
  const list = data.passes || [];
  for (const pass of list.slice(0, 8)) {
    const item = document.createElement("li");
    item.textContent = `${pass.satellite}: ${pass.rise.slice(5, 10)} ${clockOf(pass.rise)} from ${compassPoint(pass.riseAzimuth)}, `
      + `highest ${fixed(pass.culmination.altitude, 0)}° at ${clockOf(pass.culmination.time)}, sets ${clockOf(pass.set)}${pass.visible ? " — visible" : ""}`;
    passes.appendChild(item);
  }
  if (list.length === 0) {
    const item = document.createElement("li");
    item.textContent = data.passes ? "No pass in the next day." : "No satellite elements on the device (satellites.tle in the configuration).";
    passes.appendChild(item);
  }
  tick();
}

function setUpSky() {
  $("sky-date").addEventListener("change", () => { sky.date = $("sky-date").value; loadSky(); });
  setInterval(tick, 1000);
}
pageShown.sky = loadSky;
document.addEventListener("DOMContentLoaded", setUpSky);
