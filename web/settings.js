// The device page's settings: built from the device's settings table (GET /api/v1/settings:
// every setting a reload takes live, with the value it runs with, its type, unit, range or
// choices and its help), never written out here. A value is checked as the table says before
// it is sent (POST /api/v1/settings), the device checks it again with the code that reads a
// configuration file, and the page then shows what the device runs with. The help is the
// table's own (English), shown as it is; every word around it comes from the table of words.
import { getJSON } from "./api.js";
import { $ } from "./dom.js";
import { lookup, words } from "./lang.js";
import { onShow } from "./nav.js";
import { store } from "./store.js";
import { refreshDevice } from "./zone.js";

// The settings' groups by the key's first part ("sounds.mute": sounds); a key alone is general.
const groupOf = (key) => key.includes(".") ? key.split(".")[0] : (/^(listen|nmea|signalK)/.test(key) ? "network" : "general");

const decimalMark = () => lookup("label.decimalMark") || ".";
const figure = (value) => {
  const text = String(Number(Number(value).toFixed(6)));
  return decimalMark() === "," ? text.replace(".", ",") : text;
};

// A choice in words: a page by its name, else the table's word for it.
const choiceWords = (setting, choice) => setting.key === "page" ? words("page", choice) : words("choice", choice.replace(/[^A-Za-z0-9]/g, "_"));

// The value typed or chosen, checked as the table says: { value } or { refusal: sentence }.
export function readValue(setting, control) {
  const unit = setting.unit ? `\u00a0${setting.unit}` : "";
  switch (setting.type) {
    case "boolean": return { value: control.checked };
    case "choice": return { value: control.value === "" && setting.nullable ? null : control.value };
    case "number": case "integer": {
      const text = control.value.trim().replace(",", ".");
      const range = setting.min !== undefined && setting.max !== undefined;
      const refusal = setting.type === "integer"
        ? (range ? lookup("label.mustBeWhole", figure(setting.min), figure(setting.max) + unit) : lookup("label.mustBeWholeAny"))
        : (range ? lookup("label.mustBeNumber", figure(setting.min), figure(setting.max) + unit) : lookup("label.mustBeNumberAny"));
      if (text === "" && setting.nullable) return { value: null };
      if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) return { refusal };
      const value = Number(text);
      if (!isFinite(value) || (setting.type === "integer" && !Number.isInteger(value))) return { refusal };
      if ((setting.min !== undefined && value < setting.min) || (setting.max !== undefined && value > setting.max)) return { refusal };
      return { value };
    }
    case "object": {
      try {
        const value = JSON.parse(control.value || "{}");
        if (value && typeof value === "object" && !Array.isArray(value)) return { value };
      } catch (error) { /* said below */ }
      return { refusal: lookup("label.mustBeObject") };
    }
    default: {
      const text = control.value.trim();
      // An empty password field is no new password (the one set is never shown to be kept).
      if (text === "") return setting.nullable && !setting.secret ? { value: null } : { refusal: lookup("label.mustNotBeEmpty") };
      if (text.length > 4096) return { refusal: lookup("label.mustNotBeEmpty") };
      return { value: text };
    }
  }
}

function control(setting) {
  const id = `setting-${setting.key.replace(/\./g, "-")}`;
  let element;
  if (setting.type === "boolean") {
    element = document.createElement("input");
    element.type = "checkbox";
    element.checked = setting.value === true;
  } else if (setting.type === "choice") {
    element = document.createElement("select");
    if (setting.nullable) element.add(new Option(lookup("label.settingUnset"), ""));
    for (const choice of setting.choices || []) {
      const option = new Option(choiceWords(setting, choice), choice);
      element.add(option);
    }
    element.value = setting.value === null || setting.value === undefined ? "" : String(setting.value);
  } else if (setting.type === "object") {
    element = document.createElement("textarea");
    element.value = JSON.stringify(setting.value || {});
    element.spellcheck = false;
    element.translate = false;
  } else {
    element = document.createElement("input");
    element.type = setting.secret ? "password" : "text";
    if (setting.type === "number" || setting.type === "integer") {
      element.inputMode = setting.type === "integer" ? "numeric" : "decimal";
      element.value = setting.value === null || setting.value === undefined ? "" : figure(setting.value);
    } else {
      element.value = setting.secret || setting.value === null || setting.value === undefined ? "" : String(setting.value);
      element.autocomplete = "off";
      element.spellcheck = false;
      element.translate = false;
    }
    if (setting.nullable || setting.secret) element.placeholder = setting.secret && setting.set ? lookup("label.secretSet") : lookup("label.settingUnset");
  }
  element.id = id;
  element.className = "setting-value";
  return element;
}

// The value the device runs with, in words: "metric", "on", "300 Hz", "not set".
function runningWords(setting) {
  if (setting.secret) return setting.set ? lookup("label.secretSet") : lookup("label.settingUnset");
  const value = setting.value;
  if (value === null || value === undefined) return lookup("label.settingUnset");
  if (setting.type === "boolean") return value ? lookup("label.settingOn") : lookup("label.settingOff");
  if (setting.type === "choice") return choiceWords(setting, String(value));
  if (setting.type === "number" || setting.type === "integer") return figure(value) + (setting.unit ? `\u00a0${setting.unit}` : "");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const asCode = (setting) => !setting.secret && setting.value !== null && setting.value !== undefined
  && !["boolean", "choice", "number", "integer"].includes(setting.type);

function row(setting) {
  const item = document.createElement("li");
  item.className = "setting";
  item.dataset.key = setting.key;
  const form = document.createElement("form");
  form.noValidate = true;
  const input = control(setting);
  const label = document.createElement("label");
  label.htmlFor = input.id;
  label.className = "setting-name";
  label.textContent = lookup(`setting.${setting.key}`) || setting.key;
  const now = document.createElement("p");
  now.className = "small setting-now";
  // A text, an address, a path or an object as the device holds it, written as code; the
  // rest (choices, switches, figures) in words.
  const [before, after] = lookup("label.runsWith").split("{1}");
  const value = document.createElement(asCode(setting) ? "code" : "span");
  value.textContent = runningWords(setting);
  now.replaceChildren(before, value, after || "");
  // The range or what the value must be, as the table says it.
  const range = document.createElement("p");
  range.className = "small";
  if (setting.min !== undefined && setting.max !== undefined) {
    range.textContent = lookup("label.rangeHint", figure(setting.min), figure(setting.max), setting.unit || "");
  }
  const help = document.createElement("p");
  help.className = "small help";
  // The settings table's help is the device's own English text: shown as it is.
  help.lang = "en";
  help.translate = false;
  help.textContent = setting.help;
  const problem = document.createElement("p");
  problem.className = "problem";
  problem.setAttribute("role", "alert");
  problem.hidden = true;
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = lookup("label.set");
  const line = document.createElement("div");
  line.className = setting.type === "boolean" ? "field-row boolean" : "field-row";
  line.append(input);
  // A figure's unit beside its field, as on the alerts page.
  if (setting.unit && (setting.type === "number" || setting.type === "integer")) {
    const unit = document.createElement("span");
    unit.className = "unit";
    unit.textContent = setting.unit;
    line.append(unit);
  }
  line.append(button);
  form.append(label, line);
  item.append(form, now);
  if (range.textContent) item.append(range);
  item.append(help, problem);
  help.id = `${input.id}-help`;
  input.setAttribute("aria-describedby", help.id);
  const refuse = (text) => { problem.textContent = text; problem.hidden = false; input.setAttribute("aria-invalid", "true"); };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.hidden = true;
    input.removeAttribute("aria-invalid");
    const read = readValue(setting, input);
    if (read.refusal) { refuse(read.refusal); return; }
    const reply = await send(setting.key, read.value);
    if (!reply || reply.class !== "SETTINGS") { refuse(lookup("label.deviceRefused", (reply && reply.message) || "")); return; }
    show(reply);
    const shown = document.querySelector(`li.setting[data-key="${setting.key}"] .setting-now`);
    const changed = reply.settings.find((s) => s.key === setting.key);
    if (shown && changed) $("settings-said").textContent = lookup("label.settingSet", lookup(`setting.${setting.key}`) || setting.key, runningWords(changed));
    // The units, the language, the zone and the clock are the whole app's: taken at once.
    await refreshDevice();
  });
  return item;
}

// POST /api/v1/settings with the session's token; the answer, or the ERROR with its sentence.
async function send(key, value) {
  try {
    const response = await fetch("/api/v1/settings", {
      method: "POST", headers: { "Content-Type": "application/json", "X-Lodestone-Token": (store.session && store.session.token) || "" },
      body: JSON.stringify({ key, value }),
    });
    return await response.json().catch(() => null);
  } catch (error) {
    return { class: "ERROR", message: lookup("label.unreachable") };
  }
}

function show(reply) {
  const groups = $("settings");
  const open = new Set(Array.from(groups.querySelectorAll("details[open]")).map((d) => d.dataset.group));
  groups.replaceChildren();
  const byGroup = new Map();
  for (const setting of (reply && reply.settings) || []) {
    const group = groupOf(setting.key);
    if (!byGroup.has(group)) byGroup.set(group, []);
    byGroup.get(group).push(setting);
  }
  // The general settings first (units, theme, language, zone), then the table's order.
  const order = [...byGroup.keys()].sort((a, b) => (b === "general") - (a === "general"));
  for (const group of order) {
    const settings = byGroup.get(group);
    const details = document.createElement("details");
    details.dataset.group = group;
    // Closed until the person opens a group (a phone shows the groups' names at a glance);
    // one opened stays open when the page shows what the device answered.
    details.open = open.has(group);
    const summary = document.createElement("summary");
    summary.textContent = words("settingGroup", group);
    const list = document.createElement("ul");
    list.className = "list settings";
    for (const setting of settings) list.appendChild(row(setting));
    details.append(summary, list);
    groups.appendChild(details);
  }
  // Where a change is kept: the configuration file (its path, as written), or until a restart.
  const file = $("settings-file");
  if (reply && reply.file) {
    const path = document.createElement("code");
    path.textContent = reply.file;
    file.replaceChildren(lookup("label.settingsKeptIn"), " ", path);
  } else {
    file.textContent = lookup("label.settingsNotKept");
  }
}

async function refresh() {
  const reply = await getJSON("/api/v1/settings");
  if (reply && reply.settings) show(reply);
}

onShow("device", refresh);
