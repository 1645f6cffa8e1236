// The words every page shows for the device's codes, from the one table the display and the
// terminal read (words.js, written from the device's own table): the trend as an arrow and
// words, alert rules by their names, the forecast as its sentence, sky events, states. In
// German when the device's `language` setting says so, else in this browser's own language
// (German for de, de-CH, de-AT...), else in English.
import { table } from "./words.js";
import { store, subscribe } from "./store.js";

export function language() {
  if (store.zone && store.zone.language) return store.zone.language;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

// "fallingFast" as "falling fast": the last resort for a code the table does not know, so a
// code is never shown as it is.
const spelledOut = (code) => String(code).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

// The words for `key` ("trend.fallingFast"), the figures put in for {1}, {2}; undefined when
// the table has no such entry.
export function lookup(key, ...figures) {
  const entry = table[key];
  if (!entry) return undefined;
  let text = language() === "de" && entry[1] ? entry[1] : entry[0];
  figures.forEach((figure, index) => { text = text.replace(`{${index + 1}}`, figure); });
  return text;
}

// The words for a code of a group ("trend", "fallingFast").
export const words = (group, code, ...figures) => lookup(`${group}.${code}`, ...figures) ?? spelledOut(code);

export const capitalized = (text) => text ? text[0].toUpperCase() + text.slice(1) : text;

const arrows = { risingFast: "⇈", rising: "↑", steady: "→", falling: "↓", fallingFast: "⇊" };

// "⇊ falling fast, 1.2 hPa an hour" (`rate`: the rate's size with its unit).
export const trendWords = (band, rate) => `${arrows[band] || ""} ${lookup("trend.rate", words("trend", band), rate)}`.trim();

// An alert rule by its name: "Pressure above 1040 hPa", "Pressure falling faster than 2 hPa an hour".
export function ruleName(kind, threshold, unit) {
  const figure = (value) => Number.isInteger(value) ? String(value) : Number(value).toFixed(1);
  const shown = kind === "rapidFall" ? `${figure(Math.abs(threshold))}\u00a0hPa` : `${figure(threshold)}\u00a0${unit}`;
  return words("alertRule", kind, shown);
}

// "Summer begins today", "Winter in 12 days".
export function seasonCountdown(season, days) {
  const name = capitalized(words("season", season));
  if (days < 1) return lookup("season.today", name);
  if (days === 1) return lookup("season.tomorrow", name);
  return lookup("season.inDays", name, String(days));
}

// The pages' names, in the tabs and the headings, from the table's "page" entries: on start
// (the browser's language) and again when the device names its own (GET /api/v1/device).
function namePages() {
  for (const link of document.querySelectorAll("nav.tabs [data-page]")) link.textContent = capitalized(words("page", link.dataset.page));
  for (const heading of document.querySelectorAll("main h2[id$='-title']")) heading.textContent = capitalized(words("page", heading.id.slice(0, -6)));
  document.documentElement.lang = language();
}
namePages();
subscribe("zone", namePages);
