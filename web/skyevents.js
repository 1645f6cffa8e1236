// The sky page's calendar: the next of the Sun's events today (and tomorrow after dusk), the
// next four equinoxes and solstices with their countdowns, the Sun's path over the horizon
// today and at both solstices (drawn here as SVG from GET /api/v1/sunpath), and the next
// eclipses of the Sun and the Moon as this place sees them (GET /api/v1/eclipses, the same
// answer as `lodestone eclipses --json`).
import { getJSON } from "./api.js";
import { $, note } from "./dom.js";
import { clock, compassPoint, countdown, dateText, fixed, localDay, unixOf } from "./format.js";
import { capitalized, lookup, words } from "./lang.js";

const svgNS = "http://www.w3.org/2000/svg";

// The Sun's events a person plans by, with where each one's time is in the day's answer.
const dayEvents = [["astronomicalDawn"], ["nauticalDawn"], ["civilDawn"], ["blueHourMorning", "start"], ["goldenHourMorning", "start"],
  ["sunrise"], ["solarNoon"], ["goldenHourEvening", "start"], ["sunset"], ["blueHourEvening", "start"], ["civilDusk"], ["nauticalDusk"],
  ["astronomicalDusk"]];

// The next three of the Sun's events after `now` (seconds), from today's and tomorrow's sky.
export function showNext(days, now) {
  const next = [];
  for (const data of days) {
    for (const [key, part] of dayEvents) {
      const value = part ? data.sun[key] && data.sun[key][part] : data.sun[key];
      const at = unixOf(value);
      if (isFinite(at) && at > now) next.push([at, key, value]);
    }
  }
  next.sort((a, b) => a[0] - b[0]);
  const list = $("sky-next");
  list.replaceChildren();
  for (const [at, key, value] of next.slice(0, 3)) {
    const item = document.createElement("li");
    const name = document.createElement("strong");
    name.textContent = capitalized(words("sky", key));
    item.append(name, ` ${clock(value)} · ${lookup("word.in", countdown(at - now))}`);
    list.appendChild(item);
  }
}

// The season's colour: a class the stylesheet paints (green spring, golden summer, rust
// autumn, blue winter; shades of red at night).
const seasonClass = (season) => ["spring", "summer", "autumn", "winter"].includes(season) ? season : "";

// The next four equinoxes and solstices: the name, the day and time in the device's zone, and
// how long until each; the current season's bar in its colour.
export function showSeasons(data, now) {
  const seasons = data.seasons;
  const bar = $("sky-season-progress");
  bar.className = `season ${seasonClass(seasons && seasons.current && seasons.current.season)}`;
  const list = $("sky-seasons");
  list.replaceChildren();
  for (const event of (seasons && seasons.upcoming) || []) {
    const item = document.createElement("li");
    const mark = document.createElement("span");
    mark.className = `swatch ${seasonClass(event.begins)}`;
    mark.setAttribute("aria-hidden", "true");
    const name = document.createElement("strong");
    name.textContent = capitalized(words("seasonEvent", event.name));
    const when = document.createElement("span");
    when.className = "small";
    when.textContent = `${dateText(unixOf(event.time))} · ${lookup("word.in", countdown(unixOf(event.time) - now))} · ${capitalized(words("season", event.begins))}`;
    item.append(mark, name, document.createElement("br"), when);
    list.appendChild(item);
  }
}

// The picture's frame: azimuth across (the direction the Sun culminates in, south in the
// north, in the middle), altitude up from 15° below the horizon.
const frame = { left: 26, right: 354, top: 8, bottom: 150, low: -15 };

function element(name, attributes, text) {
  const node = document.createElementNS(svgNS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Today's path and both solstices' (the next June and December solstice), each a line that
// breaks where the Sun crosses the picture's edge; the Sun now as a dot on today's.
export async function drawPath(data, chosenDay) {
  const solstice = (name) => {
    const event = ((data.seasons && data.seasons.upcoming) || []).find((e) => e.name === name);
    return event ? event.time.slice(0, 10) : null;
  };
  const days = [["today", data.date, chosenDay ? localDay(data.now) : lookup("label.today")]];
  for (const [kind, name] of [["june", "June solstice"], ["december", "December solstice"]]) {
    const date = solstice(name);
    if (date) days.push([kind, date, `${capitalized(words("seasonEvent", name))}, ${localDay(date + "T12:00:00Z")}`]);
  }
  const paths = await Promise.all(days.map(([, date]) => getJSON(`/api/v1/sunpath?date=${date}`, { quiet: true })));
  const svg = $("sky-path");
  svg.replaceChildren();
  const centre = data.latitude >= 0 ? 180 : 0;
  const highest = Math.max(30, ...paths.flatMap((p) => (p && p.points ? p.points.map((q) => q[0]) : [])));
  const top = Math.min(90, Math.ceil(highest / 15) * 15);
  const x = (azimuth) => frame.left + ((((azimuth - centre + 180) % 360) + 360) % 360) / 360 * (frame.right - frame.left);
  const y = (altitude) => frame.top + (top - Math.max(frame.low, altitude)) / (top - frame.low) * (frame.bottom - frame.top);
  svg.append(element("rect", { class: "ground", x: frame.left, y: y(0), width: frame.right - frame.left, height: frame.bottom - y(0) }));
  for (let altitude = 15; altitude <= top; altitude += 15) {
    svg.append(element("line", { class: "grid", x1: frame.left, x2: frame.right, y1: y(altitude), y2: y(altitude) }));
    svg.append(element("text", { class: "axis", x: frame.left - 3, y: y(altitude) + 4, "text-anchor": "end" }, `${altitude}°`));
  }
  for (const azimuth of [0, 45, 90, 135, 180, 225, 270, 315, 360].map((a) => centre - 180 + a)) {
    const at = azimuth === centre + 180 ? frame.right : x(azimuth);
    svg.append(element("line", { class: "grid", x1: at, x2: at, y1: frame.top, y2: frame.bottom }));
    svg.append(element("text", { class: "axis", x: at, y: frame.bottom + 14, "text-anchor": "middle" }, compassPoint(azimuth)));
  }
  svg.append(element("line", { class: "horizon", x1: frame.left, x2: frame.right, y1: y(0), y2: y(0) }));
  const legend = $("sky-path-legend");
  legend.replaceChildren();
  days.forEach(([kind, , label], index) => {
    const path = paths[index];
    if (!path || !path.points) return;
    let d = "", last = null;
    for (const [altitude, azimuth] of path.points) {
      const px = x(azimuth), py = y(altitude);
      d += `${last === null || Math.abs(px - last) > (frame.right - frame.left) / 2 ? "M" : "L"}${px.toFixed(1)},${py.toFixed(1)} `;
      last = px;
    }
    svg.append(element("path", { class: `sun ${kind}`, d: d.trim() }));
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = `line ${kind}`;
    swatch.setAttribute("aria-hidden", "true");
    item.append(swatch, label);
    legend.appendChild(item);
  });
  if (!chosenDay && isFinite(data.sun.altitude)) {
    svg.append(element("circle", { class: "sun-now", cx: x(data.sun.azimuth), cy: y(data.sun.altitude), r: 5 }));
  }
}

// One eclipse as a card: its kind, day and countdown, its magnitude, and how it is seen here.
function eclipseCard(eclipse, now) {
  const card = document.createElement("article");
  card.className = "eclipse";
  const title = document.createElement("h4");
  title.textContent = words(eclipse.kind === "solar" ? "solarEclipse" : "lunarEclipse", eclipse.type);
  const when = document.createElement("p");
  when.className = "small";
  const greatest = unixOf(eclipse.greatest);
  when.textContent = `${dateText(greatest)} · ${lookup("word.in", countdown(greatest - now))} · ${lookup("label.magnitudeValue", fixed(eclipse.magnitude, 3))}`;
  const seen = document.createElement("p");
  const local = eclipse.local || {};
  const times = document.createElement("ul");
  times.className = "list small";
  if (eclipse.kind === "solar") {
    seen.textContent = !local.type ? lookup("label.eclipseMisses") : !local.visible ? lookup("label.eclipseSunDown")
      : lookup("label.eclipseSeen", words("eclipse", local.type), fixed(local.magnitude, 3), `${fixed(local.obscuration * 100, 0)}\u00a0%`);
    for (const [name, time] of Object.entries(local.contacts || {})) {
      const altitude = local.sunAltitudes && local.sunAltitudes[name];
      note(times, `${words("contact", name)}: ${clock(time)}, ${lookup("label.sunAt", `${fixed(altitude, 0)}°`)}`);
    }
  } else {
    seen.textContent = local.visible ? lookup("label.lunarSeen", `${fixed(local.moonAltitudeAtGreatest, 0)}°`) : lookup("label.eclipseMoonDown");
    for (const [name, time] of Object.entries(local.contacts || {})) note(times, `${words("contact", name)}: ${clock(time)}`);
  }
  card.append(title, when, seen, times);
  return card;
}

// The next solar and the next lunar eclipse (of the next six, from today at this place).
export async function showEclipses(now) {
  const reply = await getJSON("/api/v1/eclipses?count=6", { quiet: true });
  const box = $("sky-eclipses");
  box.replaceChildren();
  const list = Array.isArray(reply) ? reply : [];
  const chosen = ["solar", "lunar"].map((kind) => list.find((e) => e.kind === kind)).filter(Boolean);
  for (const eclipse of chosen) box.appendChild(eclipseCard(eclipse, now));
  if (!chosen.length) {
    const none = document.createElement("p");
    none.textContent = lookup("label.noEclipse");
    box.appendChild(none);
  }
}
