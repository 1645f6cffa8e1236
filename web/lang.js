// Every word the pages show, from the one table the display and the terminal read (words.js,
// written from the device's own table): the fixed words of the page (its labels, buttons and
// hints, marked `data-w`), the labels and sentences the pages' scripts write, and the device's
// codes as words (the trend as an arrow and words, alert rules by their names, the forecast as
// its sentence, sky events, states). In German when the device's `language` setting says so,
// else in this browser's own language (German for de, de-CH, de-AT...), else in English.
import { table } from "./words.js";
import { store, subscribe } from "./store.js";

export function language() {
  if (store.zone && store.zone.language) return store.zone.language;
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

// "fallingFast" as "falling fast": the last resort for a code the table does not know, so a
// code is never shown as it is.
const spelledOut = (code) => String(code).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

// The words for `key` ("trend.fallingFast"), the figures put in for {1}, {2} (each wherever it
// stands, as often as it stands); undefined when the table has no such entry.
export function lookup(key, ...figures) {
  const entry = table[key];
  if (!entry) return undefined;
  let text = language() === "de" && entry[1] ? entry[1] : entry[0];
  figures.forEach((figure, index) => { text = text.split(`{${index + 1}}`).join(figure); });
  return text;
}

// The words for a code of a group ("trend", "fallingFast").
export const words = (group, code, ...figures) => lookup(`${group}.${code}`, ...figures) ?? spelledOut(code);

export const capitalized = (text) => text ? text[0].toUpperCase() + text.slice(1) : text;

const arrows = { risingFast: "⇈", rising: "↑", steady: "→", falling: "↓", fallingFast: "⇊" };

// "⇊ falling fast, 1.2 hPa an hour" (`rate`: the rate's size with its unit).
export const trendWords = (band, rate) => `${arrows[band] || ""} ${lookup("trend.rate", words("trend", band), rate)}`.trim();

// A threshold or a value as the alerts write it: whole, or to a tenth.
const alertFigure = (value) => Number.isInteger(value) ? String(value) : Number(value).toFixed(1);

// An alert rule by its name: "Pressure above 1040 hPa", "Pressure falling faster than 2 hPa an hour".
export function ruleName(kind, threshold, unit) {
  const shown = kind === "rapidFall" ? `${alertFigure(Math.abs(threshold))}\u00a0hPa` : `${alertFigure(threshold)}\u00a0${unit}`;
  return words("alertRule", kind, shown);
}

// An alert given, by its rule's name and the value then: "Pressure above 1040 hPa: now
// 1041.2 hPa" (the device's own message only for an alert it gives without its rule).
export function alertWords(event) {
  if (!event.alert || event.threshold === undefined || !isFinite(event.value)) return event.message || "";
  const value = Number(event.value);
  const now = event.alert === "rapidFall" ? words("word", "perHour", `${Math.abs(value).toFixed(1)}\u00a0hPa`) : `${value.toFixed(1)}\u00a0${event.unit}`;
  return words("alert", "now", ruleName(event.alert, event.threshold, event.unit), now);
}

// "Summer begins today", "Winter in 12 days".
export function seasonCountdown(season, days) {
  const name = capitalized(words("season", season));
  if (days < 1) return lookup("season.today", name);
  if (days === 1) return lookup("season.tomorrow", name);
  return lookup("season.inDays", name, String(days));
}

// The page's fixed words: an element's text from its `data-w` entry, and its placeholder,
// aria-label and title from `data-w-placeholder`, `data-w-aria-label` and `data-w-title`. The
// page's own English stays as it is until then (before the script runs, or for a key the
// table lacks). An element's own elements (a command in <code>, a page's name in <strong>, a
// select, a figure a script writes) are kept and stand where the entry says {1}, {2}; the
// text's first letter in the page says whether the words begin a sentence ("Compass" from
// the entry "compass").
const attributes = ["placeholder", "aria-label", "title"];
const shapes = new WeakMap();
// What was last filled in, by element and slot ("" its text): a script that has written an
// element since (a state, a label that changes) keeps its words, written from the table too,
// when the language changes.
const filled = new WeakMap();

function shape(element) {
  if (!shapes.has(element)) {
    const letter = element.textContent.match(/\p{L}/u);
    shapes.set(element, { parts: Array.from(element.children), capital: Boolean(letter) && letter[0] !== letter[0].toLowerCase() });
  }
  return shapes.get(element);
}

function fillSlot(element, slot, value) {
  if (!filled.has(element)) filled.set(element, {});
  filled.get(element)[slot] = value;
}

// Whether a script has written the slot since it was last filled.
const rewritten = (element, slot, now) => filled.has(element) && slot in filled.get(element) && filled.get(element)[slot] !== now;

function fillText(element) {
  const { parts, capital } = shape(element);
  const entry = lookup(element.dataset.w);
  if (entry === undefined) return;
  const text = capital ? capitalized(entry) : entry;
  if (parts.length === 0) {
    if (rewritten(element, "", element.textContent)) return;
    if (element.textContent !== text) element.textContent = text;
    fillSlot(element, "", text);
    return;
  }
  // A script that wrote the element's text in place of its own elements keeps its words.
  if (parts.some((part) => part.parentNode !== element)) return;
  element.replaceChildren(...text.split(/\{(\d)\}/).map((piece, index) => index % 2 ? parts[Number(piece) - 1] || "" : piece));
}

function fillAttribute(element, name) {
  const entry = lookup(element.getAttribute(`data-w-${name}`));
  if (entry === undefined || rewritten(element, name, element.getAttribute(name))) return;
  element.setAttribute(name, entry);
  fillSlot(element, name, entry);
}

// Every fixed word of the page, on start (the browser's language) and again when the device
// names its own (GET /api/v1/device).
export function fillWords() {
  for (const element of document.querySelectorAll("[data-w]")) fillText(element);
  for (const name of attributes) for (const element of document.querySelectorAll(`[data-w-${name}]`)) fillAttribute(element, name);
  document.documentElement.lang = language();
}
fillWords();
subscribe("zone", fillWords);
