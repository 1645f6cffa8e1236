// The alerts page: every rule by its name, switched on and off, its threshold set in the units
// this browser shows (converted back to the device's SI before it is sent), the range the
// device takes, its state (armed, or fired and waiting to come back past its threshold), and
// the alerts given, newest first, at the device's time. A threshold out of range is refused
// here with a sentence before it is sent, and the device checks it again (`?ALERT`).
import { act, getJSON } from "./api.js";
import { $, note } from "./dom.js";
import { dateText, unixOf } from "./format.js";
import { alertWords, lookup, ruleName } from "./lang.js";
import { currentPage, onShow } from "./nav.js";
import { store, subscribe } from "./store.js";

// A rule's threshold as this browser shows it: the factor from the device's unit, the unit and
// the decimals. Only heights change with the units (feet in imperial: pressures stay in hPa and
// temperatures in °C, as on every page); a fall is written as its size ("2 hPa an hour").
export function shownAs(rule) {
  if (rule.name === "altitudeReached" && store.units === "imperial") return { factor: 3.28084, unit: "ft", decimals: 0 };
  if (rule.name === "rapidFall") return { factor: -1, unit: "hPa/h", decimals: 1 };
  return { factor: 1, unit: rule.unit, decimals: rule.name === "altitudeReached" ? 0 : 1 };
}

// A figure as a person types it: no trailing zeros, the page's decimal mark.
const typed = (value, decimals) => {
  const text = String(Number(value.toFixed(decimals)));
  return lookup("label.decimalMark") === "," ? text.replace(".", ",") : text;
};

// The range the device takes, in the shown unit, kept inside it when rounded.
function shownRange(rule) {
  const { factor, decimals } = shownAs(rule), step = 10 ** -decimals;
  const [a, b] = [rule.min * factor, rule.max * factor].sort((x, y) => x - y);
  return [Math.ceil(a / step - 1e-9) * step, Math.floor(b / step + 1e-9) * step];
}

// The threshold typed, checked against the range: the device's value, or the sentence that
// says what is wrong.
export function readThreshold(rule, text) {
  const { factor, unit, decimals } = shownAs(rule);
  const [low, high] = shownRange(rule);
  const refusal = lookup("label.thresholdRange", typed(low, decimals), typed(high, decimals), unit);
  const cleaned = String(text).trim().replace(",", ".");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return { refusal };
  const value = Number(cleaned);
  if (!isFinite(value) || value < low - 1e-9 || value > high + 1e-9) return { refusal };
  // Back to the device's unit, inside its range whatever the rounding.
  return { threshold: Math.min(rule.max, Math.max(rule.min, value / factor)) };
}

// The rule by its name in the shown unit: "Altitude of 9843 ft reached".
const nameOf = (rule) => {
  const { factor, unit, decimals } = shownAs(rule);
  const shown = Number((rule.threshold * factor).toFixed(decimals));
  return rule.name === "rapidFall" ? ruleName(rule.name, rule.threshold, rule.unit) : ruleName(rule.name, shown, unit);
};

// Armed, or fired (when, at the device's time) and waiting to come back past the threshold.
function stateWords(rule) {
  if (!rule.enabled) return lookup("label.alertOff");
  const fired = rule.lastFired ? dateText(unixOf(rule.lastFired)) : null;
  if (rule.armed === false) return lookup("label.alertWaiting", fired || "--");
  return fired ? lookup("label.alertArmedFired", fired) : lookup("label.alertArmed");
}

function ruleItem(rule) {
  const item = document.createElement("li");
  item.className = "rule";
  item.dataset.rule = rule.name;
  const { unit, decimals, factor } = shownAs(rule);
  const [low, high] = shownRange(rule);
  const title = document.createElement("label");
  title.className = "switch";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.checked = rule.enabled;
  box.className = "rule-on";
  const name = document.createElement("span");
  name.className = "rule-name";
  name.textContent = nameOf(rule);
  title.append(box, name);
  const state = document.createElement("p");
  state.className = "small rule-state";
  state.dataset.state = !rule.enabled ? "off" : rule.armed === false ? "fired" : "armed";
  state.textContent = stateWords(rule);
  const form = document.createElement("form");
  form.className = "threshold";
  form.noValidate = true;
  const input = document.createElement("input");
  input.type = "text";
  input.inputMode = decimals ? "decimal" : "numeric";
  input.className = "rule-threshold";
  input.value = typed(rule.threshold * factor, decimals);
  input.setAttribute("aria-describedby", `rule-hint-${rule.name}`);
  const unitText = document.createElement("span");
  unitText.className = "unit";
  unitText.textContent = unit;
  input.id = `rule-threshold-${rule.name}`;
  const fieldName = document.createElement("label");
  fieldName.className = "field-name";
  fieldName.htmlFor = input.id;
  fieldName.textContent = lookup("label.threshold");
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = lookup("label.set");
  // The field, its unit and its button on one row, on a phone too.
  const row = document.createElement("div");
  row.className = "field-row";
  row.append(input, unitText, button);
  const hint = document.createElement("p");
  hint.className = "small";
  hint.id = `rule-hint-${rule.name}`;
  hint.textContent = lookup("label.rangeHint", typed(low, decimals), typed(high, decimals), unit);
  const problem = document.createElement("p");
  problem.className = "problem";
  problem.setAttribute("role", "alert");
  problem.hidden = true;
  form.append(fieldName, row);
  item.append(title, state, form, hint, problem);

  const refuse = (text) => { problem.textContent = text; problem.hidden = false; input.setAttribute("aria-invalid", "true"); };
  box.addEventListener("change", async () => {
    const answer = await act("alert", { name: rule.name, enabled: box.checked });
    if (!answer || answer.class === "ERROR") { box.checked = !box.checked; refuse(lookup("label.deviceRefused", (answer && answer.message) || "")); return; }
    showRules(answer);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const read = readThreshold(rule, input.value);
    if (read.refusal) { refuse(read.refusal); return; }
    const answer = await act("alert", { name: rule.name, threshold: Number(read.threshold.toFixed(4)) });
    if (!answer || answer.class === "ERROR") { refuse(lookup("label.deviceRefused", (answer && answer.message) || "")); return; }
    showRules(answer, rule.name);
  });
  return item;
}

// The rules as the device answered (GET /api/v1/alerts or ?ALERT's ALERT); `changed` is said.
function showRules(reply, changed) {
  const list = $("alerts-rules");
  list.replaceChildren();
  for (const rule of (reply && reply.rules) || []) list.appendChild(ruleItem(rule));
  if (changed) {
    const rule = (reply.rules || []).find((r) => r.name === changed);
    if (rule) $("alerts-said").textContent = lookup("label.alertSet", nameOf(rule));
  }
}

function showGiven(given) {
  const list = $("alerts-history");
  list.replaceChildren();
  for (const event of given || []) {
    const item = document.createElement("li");
    const when = document.createElement("time");
    when.dateTime = event.time || "";
    when.textContent = dateText(unixOf(event.time));
    item.append(when, ` ${alertWords(event)}`);
    list.appendChild(item);
  }
  if (!(given || []).length) note(list, lookup("label.noAlertYet"));
}

async function refresh() {
  const reply = await getJSON("/api/v1/alerts");
  $("alerts-said").textContent = "";
  showRules(reply);
  showGiven(reply && reply.given);
}

onShow("alerts", refresh);
// An alert given while the page is open joins the history, and its rule shows it fired.
subscribe("EVENT", (event) => { if (event.event === "alert" && currentPage() === "alerts") refresh(); });
// The heights follow the units this browser shows.
subscribe("units", () => { if (currentPage() === "alerts") refresh(); });
