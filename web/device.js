// The device page: sensor health, both task tables (every 2 s while open), the units this
// browser shows, a snapshot of every value at this moment, and whether this browser is paired.
import { act } from "./api.js";
import { $, say, setText } from "./dom.js";
import { fixed } from "./format.js";
import { currentPage, onShow } from "./nav.js";
import { setUnits, store, subscribe, take } from "./store.js";

function showHealth(health) {
  const sensors = $("sensors");
  sensors.replaceChildren();
  for (const name of ["imu", "magnetometer", "barometer", "gps"]) {
    const value = health.sensors ? health.sensors[name] : undefined;
    if (value === undefined) continue;
    const row = sensors.insertRow();
    const head = document.createElement("th");
    head.scope = "row"; head.textContent = name;
    row.appendChild(head);
    const cell = row.insertCell();
    cell.textContent = value;
    cell.className = value === "ok" ? "ok" : "bad";
  }
  for (const [id, list] of [["tasks", health.tasks], ["output-tasks", health.outputTasks]]) {
    const body = $(id);
    body.replaceChildren();
    for (const task of list || []) {
      const row = body.insertRow();
      for (const text of [task.name, fixed(task.rateHz, 0), fixed(task.meanus, 1), fixed(task.maxus, 1)]) row.insertCell().textContent = text;
    }
  }
}

async function refreshHealth() {
  if (currentPage() !== "device") return;
  const response = await fetch("/api/v1/health");
  if (response.ok) take(await response.json());
}

subscribe("HEALTH", showHealth);
subscribe("session", (session) => setText("pairing", session.paired ? `This browser is paired (${session.browser}).`
  : `Viewing without a pairing (access ${session.access}): actions need 'lodestone web pair'.`));
onShow("device", refreshHealth);
setInterval(refreshHealth, 2000);

$("units").value = store.units;
$("units").addEventListener("change", () => setUnits($("units").value));
$("snapshot").addEventListener("click", async () => {
  const reply = await act("snapshot", {});
  if (reply && reply.class === "SNAPSHOT") say("snapshot kept");
});
