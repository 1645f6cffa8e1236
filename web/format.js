// Figures as words: numbers in the units chosen on this browser, angles as compass points,
// coordinates in degrees and minutes, times of the device's zone (it writes its times with
// the zone's offset, so the clock is read from the text, never converted to the phone's zone).
// A number and its unit never part at the end of a line (a non-breaking space between).
import { lookup } from "./lang.js";
import { store } from "./store.js";

export const fixed = (value, decimals) => (value === undefined || value === null || !isFinite(value)) ? "--" : Number(value).toFixed(decimals);

// A time the device gives in microseconds, in the unit a person reads it in: "850 µs",
// "12.5 ms", "19.0 s" (a task that took 19 s is not "19000000.0").
export function taskTime(microseconds) {
  if (microseconds === undefined || microseconds === null || !isFinite(microseconds)) return "--";
  if (microseconds < 1000) return `${fixed(microseconds, microseconds < 100 ? 1 : 0)}\u00a0µs`;
  if (microseconds < 1e6) return `${fixed(microseconds / 1000, 1)}\u00a0ms`;
  return `${fixed(microseconds / 1e6, 1)}\u00a0s`;
}

// The sixteen points, each written as the page's language writes it ("NO" in German).
const points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"];
export const compassPoint = (degrees) => {
  const point = points[Math.round(((degrees % 360) + 360) % 360 / 22.5) % 16];
  return lookup(`point.${point}`) ?? point;
};

export function distance(metres) {
  if (!isFinite(metres)) return "--";
  if (store.units === "imperial") return metres < 1609 ? `${fixed(metres * 3.28084, 0)}\u00a0ft` : `${fixed(metres / 1609.344, 2)}\u00a0mi`;
  if (store.units === "nautical") return metres < 1852 ? `${fixed(metres, 0)}\u00a0m` : `${fixed(metres / 1852, 2)}\u00a0NM`;
  return metres < 1000 ? `${fixed(metres, 0)}\u00a0m` : `${fixed(metres / 1000, 2)}\u00a0km`;
}

export function altitude(metres) {
  if (!isFinite(metres)) return "--";
  return store.units === "imperial" ? `${fixed(metres * 3.28084, 0)}\u00a0ft` : `${fixed(metres, 0)}\u00a0m`;
}

export function speed(ms) {
  if (!isFinite(ms)) return "--";
  if (store.units === "imperial") return `${fixed(ms * 2.23694, 1)}\u00a0mph`;
  if (store.units === "nautical") return `${fixed(ms * 1.943844, 1)}\u00a0kn`;
  return `${fixed(ms * 3.6, 1)}\u00a0km/h`;
}

// 47° 22.1234′ N, or with seconds 47° 22′ 7.40″ N.
export function sexagesimal(value, positive, negative, seconds) {
  const hemisphere = value >= 0 ? positive : negative;
  const whole = Math.abs(value);
  const degrees = Math.floor(whole);
  const minutes = (whole - degrees) * 60;
  if (!seconds) return `${degrees}° ${minutes.toFixed(4)}′ ${hemisphere}`;
  const m = Math.floor(minutes);
  return `${degrees}° ${m}′ ${((minutes - m) * 60).toFixed(2)}″ ${hemisphere}`;
}

// A span of time: "2 h 5 min", "40 min".
export function duration(seconds) {
  if (!isFinite(seconds)) return "--";
  const h = Math.floor(seconds / 3600), m = Math.round(seconds / 60) % 60;
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

// A stopwatch's time to the second, for a recording under way: "45 s", "12 min 05 s",
// "1 h 02 min 33 s".
export function elapsedText(seconds) {
  if (!isFinite(seconds) || seconds < 0) return "--";
  const whole = Math.floor(seconds), h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60, s = whole % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h} h ${two(m)} min ${two(s)} s` : m > 0 ? `${m} min ${two(s)} s` : `${s} s`;
}

// A pace from seconds per kilometre, per kilometre or per mile as the units say: "11:32 min/km".
export function pace(secondsPerKilometre) {
  if (!isFinite(secondsPerKilometre) || secondsPerKilometre <= 0 || secondsPerKilometre > 360000) return "--";
  const perMile = store.units === "imperial";
  const seconds = Math.round(perMile ? secondsPerKilometre * 1.609344 : secondsPerKilometre);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")} min/${perMile ? "mi" : "km"}`;
}

// The time left: "2 d 3 h", "3 h 5 min", "12 min".
export function countdown(seconds) {
  if (!isFinite(seconds) || seconds < 0) return "";
  const d = Math.floor(seconds / 86400), h = Math.floor(seconds / 3600) % 24, m = Math.floor(seconds / 60) % 60;
  return d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
}

// Whole minutes to go: "now", "in 5 min", "in 1 h 10 min", "in 2 d 3 h".
export function minutesText(minutes) {
  if (minutes < 1) return lookup("word.now");
  const h = Math.floor(minutes / 60), m = minutes % 60;
  return lookup("word.in", minutes < 60 ? `${minutes} min` : h < 24 ? `${h} h ${m} min` : `${Math.floor(h / 24)} d ${h % 24} h`);
}

// The device's zone and clock (GET /api/v1/device): every time a page shows is the device's,
// never the browser's, on a 24-hour clock unless the device's `clock` setting says 12h.
const zoneParts = (unix) => {
  const zone = store.zone;
  const date = new Date(unix * 1000);
  try {
    const parts = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone && zone.timeZone ? zone.timeZone : "UTC", hourCycle: "h23",
      year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", weekday: "short",
    }).formatToParts(date);
    return Object.fromEntries(parts.map((part) => [part.type, part.value]));
  } catch (error) {
    // A zone this browser cannot name (an offset such as +02:00): the device's offset now.
    const shifted = new Date((unix + (zone ? zone.zoneOffset || 0 : 0)) * 1000);
    const two = (n) => String(n).padStart(2, "0");
    return { year: String(shifted.getUTCFullYear()), month: two(shifted.getUTCMonth() + 1), day: two(shifted.getUTCDate()),
      hour: two(shifted.getUTCHours()), minute: two(shifted.getUTCMinutes()),
      weekday: weekdays[shifted.getUTCDay()] };
  }
};

// "14:32", or "2:32 pm" on a 12-hour clock, from an hour and a minute.
function hourMinute(hour, minute) {
  if (!store.zone || store.zone.clock !== "12h") return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
  return `${hour % 12 === 0 ? 12 : hour % 12}:${String(minute).padStart(2, "0")}\u00a0${hour < 12 ? "am" : "pm"}`;
}

// The time of day at an instant (seconds since the epoch), in the device's zone.
export function clockAt(unix) {
  if (!isFinite(unix)) return "--:--";
  const parts = zoneParts(unix);
  return hourMinute(Number(parts.hour), Number(parts.minute));
}

// The zone's name as people say it ("CEST"), for a time that stands alone.
export const zoneName = () => store.zone && store.zone.zoneAbbreviation ? store.zone.zoneAbbreviation : "";

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

// A day's and a month's short names in the page's language ("Sun", "So"; "Oct", "Okt").
const weekdayName = (name) => lookup(`weekday.${name}`) ?? name;
const monthName = (month) => lookup(`month.${months[month - 1]}`) ?? String(month);

// "Sun 21 Jun" ("So 21. Jun"): a weekday's and a month's names, a day of the month.
const dayText = (weekday, day, month) => `${weekdayName(weekday)} ${lookup("label.dayMonth", String(day), monthName(month))}`;

// "Sun 21 Jun 2026, 14:32": a stored track's start (seconds since the epoch) on the device's calendar.
export function dateText(unix) {
  if (!isFinite(unix) || unix <= 0) return "--";
  const parts = zoneParts(unix);
  return `${dayText(parts.weekday, Number(parts.day), Number(parts.month))} ${parts.year}, ${hourMinute(Number(parts.hour), Number(parts.minute))}`;
}

// "Sun 14:00" or "14:00": a graph's axis label in the device's zone.
export function axisTime(unix, withDay) {
  if (!isFinite(unix)) return "";
  const parts = zoneParts(unix);
  return (withDay ? `${weekdayName(parts.weekday)} ` : "") + hourMinute(Number(parts.hour), Number(parts.minute));
}

// "09:34" of a time the device wrote (in its zone, with its offset: the clock is read from the text).
export const clock = (iso) => iso && iso.length >= 16 ? hourMinute(Number(iso.slice(11, 13)), Number(iso.slice(14, 16))) : "--:--";

// "Fri 27 Nov" ("Fr 27. Nov") of a time the device wrote, that day in its zone.
export function localDay(iso) {
  const [year, month, day] = iso.slice(0, 10).split("-").map(Number);
  return dayText(weekdays[new Date(Date.UTC(year, month - 1, day)).getUTCDay()], day, month);
}

// Seconds since the Unix epoch from the device's ISO-8601 times (they carry their offset).
export const unixOf = (iso) => iso ? Date.parse(iso) / 1000 : NaN;

// A departure's or a wave's light as a mark beside it: filled in the day, half in twilight, a
// ring in the dark (as the waves page's timeline draws them), with its word for a reader.
export function lightMark(light) {
  const mark = document.createElement("span");
  mark.className = `light ${light}`;
  mark.textContent = { day: "●", twilight: "◐", dark: "○" }[light] || "";
  const name = lookup(`light.${light}`) ?? "";
  mark.setAttribute("role", "img");
  mark.setAttribute("aria-label", lookup("label.lightOf", name));
  mark.title = lookup("label.lightOf", name);
  return mark;
}
