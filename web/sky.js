// The sky page: the day's light as bands from midnight to midnight, the countdown to the next
// event and season, the Sun's and the Moon's times, the next events, the seasons, the Sun's
// path and the eclipses (skyevents.js), the planets and the satellite's passes.
import { getJSON } from "./api.js";
import { drawPath, showEclipses, showNext, showSeasons } from "./skyevents.js";
import { $, fillFigures, note, setText } from "./dom.js";
import { clock, compassPoint, countdown, fixed, localDay, unixOf } from "./format.js";
import { capitalized, lookup, seasonCountdown, words } from "./lang.js";
import { currentPage, onShow } from "./nav.js";

// tomorrow: the next day's sky, for the countdown once today's last event has passed.
// tomorrowAsked: whether its answer (or its failure) has come, so the countdown does not
// name the season for a moment while the dawn is on its way.
// minute: the minute the seasons' countdowns were last written for.
const sky = { data: null, tomorrow: null, tomorrowAsked: false, date: "", fetched: 0, minute: -1, eclipsesShown: "" };

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
  bar.setAttribute("aria-label", lookup("label.daylightFrom", clock(sun.sunrise), clock(sun.sunset), clock(sun.civilDawn), clock(sun.civilDusk)));
}

// A sun event's name as a line begins: "Civil dawn", "Sonnenaufgang".
const event = (key) => capitalized(words("sky", key));

// The next of the Sun's events after `now`, today's or (after dusk) tomorrow's dawn.
function nextEvent(days, now) {
  let best = null;
  for (const data of days) {
    for (const key of ["civilDawn", "sunrise", "solarNoon", "sunset", "civilDusk"]) {
      const at = unixOf(data.sun[key]);
      if (isFinite(at) && at > now && (!best || at < best[1])) best = [event(key), at];
    }
  }
  return best;
}

// The day after `date` (YYYY-MM-DD), as the API names days.
const dayAfter = (date) => new Date(Date.parse(date + "T00:00:00Z") + 86400000).toISOString().slice(0, 10);

// Today's sky ends at midnight: after dusk the countdown needs tomorrow's dawn.
async function loadTomorrow(data) {
  const next = await getJSON(`/api/v1/sky?date=${dayAfter(data.date)}`);
  sky.tomorrow = next && next.sun ? next : null;
  sky.tomorrowAsked = true;
  tick();
}

function tick() {
  const data = sky.data;
  if (!data || currentPage() !== "sky") return;
  const now = unixOf(data.now) + (Date.now() / 1000 - sky.fetched);
  const days = sky.tomorrow ? [data, sky.tomorrow] : [data];
  showNext(days, now);
  // The seasons' countdowns move by the minute.
  if (Math.floor(now / 60) !== sky.minute) { sky.minute = Math.floor(now / 60); showSeasons(data, now); }
  const next = nextEvent(days, now);
  if (!next && !sky.date && !sky.tomorrowAsked) return;
  const season = data.seasons && data.seasons.next;
  setText("sky-countdown", next ? lookup("word.inTime", next[0], countdown(next[1] - now)) : (season ? seasonCountdown(season.begins, season.daysUntil) : ""));
}

async function loadSky() {
  const query = sky.date ? `?date=${sky.date}` : "";
  const data = await getJSON(`/api/v1/sky${query}`);
  if (!data || !data.sun) { setText("sky-place", data && data.message ? data.message : lookup("label.noSkyYet")); return; }
  sky.data = data;
  sky.tomorrow = null;
  sky.tomorrowAsked = false;
  sky.fetched = Date.now() / 1000;
  if (!sky.date) loadTomorrow(data);
  if (!$("sky-date").value) $("sky-date").value = data.date;
  // Without a fix the sky is for the configured place or the last fix's, and says which.
  const where = data.placeSource === "configured" ? ` (${lookup("label.configuredPlace")})`
    : data.placeSource === "lastFix" ? ` (${data.lastFixTime ? lookup("label.lastFixOn", localDay(data.lastFixTime)) : lookup("label.lastFix")})` : "";
  setText("sky-place", `${lookup("label.skyPlace", data.date, fixed(data.latitude, 3), fixed(data.longitude, 3))}${where} (${data.timeZone})`);
  drawDay(data);
  const sun = data.sun;
  const hours = Math.floor(sun.dayLengthSeconds / 3600), minutes = Math.round(sun.dayLengthSeconds / 60) % 60;
  fillFigures("sky-sun", [[event("civilDawn"), clock(sun.civilDawn)], [event("sunrise"), clock(sun.sunrise)], [event("solarNoon"), clock(sun.solarNoon)],
    [event("sunset"), clock(sun.sunset)], [event("civilDusk"), clock(sun.civilDusk)], [lookup("label.dayLength"), `${hours} h ${minutes} min`],
    [event("goldenHourEvening"), `${clock(sun.goldenHourEvening.start)}–${clock(sun.goldenHourEvening.end)}`],
    [event("blueHourEvening"), `${clock(sun.blueHourEvening.start)}–${clock(sun.blueHourEvening.end)}`],
    [lookup("label.sunNow"), lookup("label.sunHigh", `${fixed(sun.altitude, 1)}°`, compassPoint(sun.azimuth))]]);
  const moon = data.moon;
  fillFigures("sky-moon", [[lookup("label.phase"), capitalized(words("moon", moon.phase))], [lookup("label.lit"), `${fixed(moon.illumination * 100, 0)}%`],
    [lookup("label.moonrise"), clock(moon.moonrise)], [lookup("label.moonset"), clock(moon.moonset)],
    [capitalized(words("moon", "Full Moon")), moon.nextFullMoon.slice(0, 10)], [capitalized(words("moon", "New Moon")), moon.nextNewMoon.slice(0, 10)]]);
  const season = data.seasons;
  if (season && season.next) {
    setText("sky-season", `${seasonCountdown(season.next.begins, season.next.daysUntil)}: ${words("seasonEvent", season.next.name)}, ${season.next.time.slice(0, 10)}`);
  }
  if (season && season.current) $("sky-season-progress").value = season.current.daysElapsed / season.current.daysTotal;
  sky.minute = -1;
  drawPath(data, sky.date);
  // The eclipses depend on the place and the day only: asked once a day (each is a computation).
  const place = `${data.date}${fixed(data.latitude, 2)}${fixed(data.longitude, 2)}`;
  if (!sky.date && sky.eclipsesShown !== place) { sky.eclipsesShown = place; showEclipses(unixOf(data.now)); }
  const planets = $("sky-planets");
  planets.replaceChildren();
  for (const planet of data.planets || []) {
    const row = planets.insertRow();
    const head = document.createElement("th");
    head.scope = "row"; head.textContent = words("planet", planet.name);
    row.appendChild(head);
    for (const text of [`${fixed(planet.altitude, 0)}° ${compassPoint(planet.azimuth)}`, clock(planet.rise), clock(planet.set), fixed(planet.magnitude, 1)]) row.insertCell().textContent = text;
  }
  const passes = $("sky-passes");
  passes.replaceChildren();
  const list = data.passes || [];
  for (const pass of list.slice(0, 8)) {
    note(passes, lookup("label.pass", pass.satellite, `${pass.rise.slice(5, 10)} ${clock(pass.rise)}`, compassPoint(pass.riseAzimuth),
      `${fixed(pass.culmination.altitude, 0)}°`, clock(pass.culmination.time), clock(pass.set)) + (pass.visible ? ` — ${lookup("label.visible")}` : ""));
  }
  if (list.length === 0) note(passes, lookup(data.passes ? "label.noPass" : "label.noElements"));
  tick();
}

onShow("sky", loadSky);
$("sky-date").addEventListener("change", () => { sky.date = $("sky-date").value; loadSky(); });
setInterval(tick, 1000);
