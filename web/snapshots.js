// The snapshots page: take one (the socket's ?SNAPSHOT, as the device's button does), list
// them, open one (every value with its unit, in this browser's units, and its time), compare
// two side by side with what changed marked, download them as JSON or CSV, and delete one
// after asking. The answers are those of `lodestone snapshot list|show|compare --json`.
import { act, getJSON } from "./api.js";
import { $, say, setText } from "./dom.js";
import { altitude, compassPoint, dateText, distance, duration, fixed, unixOf } from "./format.js";
import { capitalized, lookup } from "./lang.js";
import { onShow } from "./nav.js";
import { subscribe } from "./store.js";
import { table } from "./words.js";

const shelf = { list: [], ticked: [], open: null, compared: null };

const degrees = (decimals) => (v) => `${fixed(v, decimals)}°`;
const unit = (decimals, name) => (v) => `${fixed(v, decimals)}\u00a0${name}`;
const whole = (v) => fixed(v, 0);
const vector = (decimals, name) => (v) => v ? `x ${fixed(v.x, decimals)} · y ${fixed(v.y, decimals)} · z ${fixed(v.z, decimals)}\u00a0${name}` : "--";

// Every value of a snapshot: where it is in the JSON (the keys in turn: the path with dots is
// the comparison's name for it), its name on the page, and how it is written.
const fields = [
  [["location", "latitude"], "label.latitude", degrees(5)], [["location", "longitude"], "label.longitude", degrees(5)],
  [["location", "altitude"], "label.altitude", altitude], [["location", "accuracy"], "label.accuracy", distance],
  [["barometer", "pressure"], "label.stationPressure", unit(1, "hPa")], [["barometer", "seaLevelPressure"], "label.seaLevelPressure", unit(1, "hPa")],
  [["barometer", "attitude", "roll"], "label.rollAngle", degrees(1)], [["barometer", "attitude", "pitch"], "label.pitchAngle", degrees(1)],
  [["barometer", "attitude", "yaw"], "label.heading", (v) => isFinite(v) && v !== null ? `${fixed(v, 0)}° ${compassPoint(v)}` : "--"],
  [["weather", "temperature"], "label.temperature", unit(1, "°C")], [["weather", "humidity"], "label.humidity", unit(0, "%")],
  [["weather", "conditions"], "label.conditions", (v) => forecastWords(v)],
  [["motion", "accelerometer"], "label.accelerometer", vector(2, "m/s²")], [["motion", "gyroscope"], "label.gyroscope", vector(1, "°/s")],
  [["motion", "magnetometer"], "label.magnetometer", vector(1, "µT")],
  [["motion", "stepsToday"], "label.steps", whole], [["motion", "floorsUp"], "label.floorsUp", whole], [["motion", "floorsDown"], "label.floorsDown", whole],
  [["photoCount"], "label.photoCount", whole],
];

// The forecast the device stored in English ("Stable conditions"), in the page's language.
function forecastWords(text) {
  if (!text) return "--";
  const key = Object.keys(table).find((k) => k.startsWith("forecast.") && table[k][0] === text);
  return key ? lookup(key) : text;
}

// A value as written, "--" when the snapshot did not know it (null).
const shown = (format, value) => (value === null || value === undefined ? "--" : format(value));

const valueAt = (snapshot, path) => path.reduce((node, key) => (node === undefined || node === null ? undefined : node[key]), snapshot);

// A snapshot's name; the device's own ("Snapshot 20261207-193000") in the page's words.
const nameOf = (s) => !s.name || s.name === `Snapshot ${s.id}` ? lookup("label.untitled", dateText(unixOf(s.timestamp))) : s.name;

async function loadList() {
  const reply = await getJSON("/api/v1/snapshots");
  if (!Array.isArray(reply)) return;
  shelf.list = reply.slice().reverse();
  shelf.ticked = shelf.ticked.filter((id) => shelf.list.some((s) => s.id === id));
  setText("snapshots-count", shelf.list.length ? "" : lookup("label.noSnapshotYet"));
  const list = $("snapshots-list");
  list.replaceChildren();
  for (const snapshot of shelf.list) {
    const item = document.createElement("li");
    const tick = document.createElement("input");
    tick.type = "checkbox";
    tick.checked = shelf.ticked.includes(snapshot.id);
    tick.setAttribute("aria-label", lookup("label.compareThis", nameOf(snapshot)));
    tick.addEventListener("change", () => {
      shelf.ticked = shelf.ticked.filter((id) => id !== snapshot.id);
      if (tick.checked) shelf.ticked.push(snapshot.id);
      // Two at most: a third tick lets go of the first.
      while (shelf.ticked.length > 2) shelf.ticked.shift();
      for (const box of list.querySelectorAll("input[type=checkbox]")) box.checked = shelf.ticked.includes(box.dataset.id);
      $("snapshots-compare").disabled = shelf.ticked.length !== 2;
    });
    tick.dataset.id = snapshot.id;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "row";
    const name = document.createElement("strong");
    name.translate = false;
    name.textContent = nameOf(snapshot);
    const figures = document.createElement("span");
    figures.className = "small";
    const pressure = valueAt(snapshot, ["barometer", "seaLevelPressure"]);
    figures.textContent = `${dateText(unixOf(snapshot.timestamp))} · ${shown(altitude, valueAt(snapshot, ["location", "altitude"]))}` + (isFinite(pressure) && pressure !== null ? ` · ${fixed(pressure, 1)}\u00a0hPa` : "");
    button.append(name, document.createElement("br"), figures);
    if (shelf.open && shelf.open.id === snapshot.id && !shelf.compared) button.setAttribute("aria-current", "true");
    button.addEventListener("click", () => openSnapshot(snapshot.id));
    item.append(tick, button);
    list.appendChild(item);
  }
  $("snapshots-compare").disabled = shelf.ticked.length !== 2;
}

// The table's head: the value's name, then one column per snapshot (and the change).
function head(columns) {
  const row = document.createElement("tr");
  for (const text of columns) {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = text;
    row.appendChild(cell);
  }
  $("snapshot-head").replaceChildren(row);
}

function row(label, cells, changed) {
  const tr = document.createElement("tr");
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = label;
  tr.appendChild(th);
  cells.forEach((text, index) => {
    const td = tr.insertCell();
    td.textContent = text;
    if (changed && index > 0) td.className = index === cells.length - 1 && cells.length > 2 ? "changed delta" : "changed";
  });
  if (changed) tr.className = "changed";
  $("snapshot-values").appendChild(tr);
}

async function openSnapshot(id) {
  const snapshot = await getJSON(`/api/v1/snapshots/${encodeURIComponent(id)}`);
  if (!snapshot || !snapshot.id) return;
  shelf.open = snapshot;
  shelf.compared = null;
  $("snapshot-detail").hidden = false;
  $("snapshot-actions").hidden = false;
  setText("snapshot-title", nameOf(snapshot));
  setText("snapshot-when", `${lookup("label.snapshotTime")}: ${dateText(unixOf(snapshot.timestamp))}`);
  setText("snapshot-notes-shown", snapshot.notes || "");
  head(["", nameOf(snapshot)]);
  $("snapshot-values").replaceChildren();
  for (const [path, key, format] of fields) row(lookup(key), [shown(format, valueAt(snapshot, path))], false);
  const query = `id=${encodeURIComponent(snapshot.id)}`;
  $("snapshot-json").href = `/api/v1/snapshots/export?format=json&${query}`;
  $("snapshot-csv").href = `/api/v1/snapshots/export?format=csv&${query}`;
  loadList();
}

// The change from the first to the second as the value is written, with its sign ("+12 m").
function change(path, format, delta) {
  if (delta === undefined || delta === null || !isFinite(delta) || delta === 0) return "";
  // A heading's change is an angle, not a direction.
  const text = path[path.length - 1] === "yaw" ? `${fixed(Math.abs(delta), 0)}°` : format(Math.abs(delta));
  return `${delta > 0 ? "+" : "−"}${text}`;
}

async function compare() {
  const [a, b] = shelf.ticked
    .map((id) => shelf.list.find((s) => s.id === id))
    .filter(Boolean)
    .sort((x, y) => unixOf(x.timestamp) - unixOf(y.timestamp));
  if (!a || !b) return;
  const reply = await getJSON(`/api/v1/snapshots/compare?from=${encodeURIComponent(a.id)}&to=${encodeURIComponent(b.id)}`);
  if (!reply || !reply.deltas) return;
  shelf.compared = reply;
  shelf.open = null;
  $("snapshot-detail").hidden = false;
  $("snapshot-actions").hidden = true;
  setText("snapshot-title", `${nameOf(a)} → ${nameOf(b)}`);
  const apart = reply.distance === null ? "" : ` · ${lookup("label.apart", distance(reply.distance), reply.bearing === null ? "" : compassPoint(reply.bearing))}`;
  setText("snapshot-when", `${lookup("label.timeBetween")}: ${duration(reply.seconds)}${apart}`);
  setText("snapshot-notes-shown", "");
  head(["", nameOf(a), nameOf(b), lookup("label.change")]);
  $("snapshot-values").replaceChildren();
  row(lookup("label.snapshotTime"), [dateText(unixOf(a.timestamp)), dateText(unixOf(b.timestamp)), `+${duration(reply.seconds)}`], true);
  for (const [path, key, format] of fields) {
    const first = shown(format, valueAt(a, path)), second = shown(format, valueAt(b, path));
    const value = valueAt(a, path);
    let delta = "";
    if (value && typeof value === "object") {
      delta = ["x", "y", "z"].map((axis) => change(path, (v) => fixed(v, 2), reply.deltas[`${path.join(".")}.${axis}`])).filter(Boolean).length ? "≠" : "";
    } else if (typeof value !== "string") {
      delta = change(path, format, reply.deltas[path.join(".")]);
    }
    // What a person sees differ is marked: the written values, not digits beyond them.
    row(lookup(key), [first, second, first === second ? "" : delta || "≠"], first !== second);
  }
}

$("snapshot-take").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = {};
  const name = $("snapshot-name").value.trim(), notes = $("snapshot-notes").value.trim();
  if (name) body.name = name;
  if (notes) body.notes = notes;
  const reply = await act("snapshot", body);
  if (reply && reply.class === "SNAPSHOT") {
    say(lookup("label.snapshotKept"));
    $("snapshot-name").value = "";
    $("snapshot-notes").value = "";
    await loadList();
    if (reply.id) openSnapshot(reply.id);
  }
});
$("snapshots-compare").addEventListener("click", compare);
$("snapshot-delete").addEventListener("click", () => {
  if (!shelf.open) return;
  setText("confirm-snapshot-text", lookup("label.deleteSnapshotWarning", nameOf(shelf.open)));
  $("confirm-snapshot").showModal();
});
$("confirm-snapshot").addEventListener("close", async () => {
  if ($("confirm-snapshot").returnValue !== "delete" || !shelf.open) return;
  const reply = await act(`snapshots/${encodeURIComponent(shelf.open.id)}/delete`, { confirm: true });
  if (reply && reply.deleted) {
    say(lookup("label.snapshotDeleted"));
    shelf.open = null;
    $("snapshot-detail").hidden = true;
    loadList();
  }
});
onShow("snapshots", loadList);
// The units chosen in the header rewrite the open snapshot or comparison at once.
subscribe("units", () => { if (shelf.compared) compare(); else if (shelf.open) openSnapshot(shelf.open.id); });
