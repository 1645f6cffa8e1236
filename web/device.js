// The device page: the version, how long it has run and the room left for its files; sensor
// health, both task tables (every 2 s while open, times in µs, ms or s), a snapshot of every
// value at this moment, and whether this browser is paired. (The units switch is in the header.)
import { act, getJSON } from "./api.js";
import { $, fillFigures, say, setText } from "./dom.js";
import { duration, fixed, taskTime } from "./format.js";
import { capitalized, lookup, words } from "./lang.js";
import { currentPage, onShow } from "./nav.js";
import { store, subscribe, take } from "./store.js";

function showHealth(health) {
  const sensors = $("sensors");
  sensors.replaceChildren();
  for (const name of ["imu", "magnetometer", "barometer", "gps"]) {
    const value = health.sensors ? health.sensors[name] : undefined;
    if (value === undefined) continue;
    const row = sensors.insertRow();
    const head = document.createElement("th");
    head.scope = "row"; head.textContent = capitalized(words("sensor", name));
    row.appendChild(head);
    const cell = row.insertCell();
    cell.textContent = words("health", value);
    cell.className = value === "ok" ? "ok" : "bad";
  }
  for (const [id, list] of [["tasks", health.tasks], ["output-tasks", health.outputTasks]]) {
    const body = $(id);
    body.replaceChildren();
    for (const task of list || []) {
      const row = body.insertRow();
      for (const text of [task.name, fixed(task.rateHz, 0), taskTime(task.meanus), taskTime(task.maxus)]) row.insertCell().textContent = text;
      // A task goes by its name, as `lodestone health` and the log call it (not translated).
      row.cells[0].translate = false;
    }
  }
}

// Storage as people count it: "850 MB", "12.3 GB".
const storage = (bytes) => bytes >= 1e9 ? `${fixed(bytes / 1e9, 1)}\u00a0GB` : `${fixed(bytes / 1e6, 0)}\u00a0MB`;

async function refreshAbout() {
  const about = await getJSON("/api/v1/device");
  if (!about || about.version === undefined) return;
  fillFigures("device-about", [[lookup("label.version"), `${about.version} (${about.revision})`],
    [lookup("label.runningFor"), about.uptime < 60 ? `${fixed(about.uptime, 0)}\u00a0s` : duration(about.uptime)],
    [lookup("label.freeStorage"), about.freeBytes !== undefined ? storage(about.freeBytes) : "--"]]);
}

async function refreshHealth() {
  if (currentPage() !== "device") return;
  refreshAbout();
  const response = await fetch("/api/v1/health");
  if (response.ok) take(await response.json());
}

subscribe("HEALTH", showHealth);
const showSession = (session) => setText("pairing", session.paired ? lookup("label.paired", session.browser) : lookup("label.notPaired", session.access));
subscribe("session", showSession);
subscribe("zone", () => { if (store.session) showSession(store.session); });
onShow("device", refreshHealth);
setInterval(refreshHealth, 2000);

$("snapshot").addEventListener("click", async () => {
  const reply = await act("snapshot", {});
  if (reply && reply.class === "SNAPSHOT") say(lookup("label.snapshotKept"));
});
