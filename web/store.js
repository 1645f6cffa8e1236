// The state store: the newest report of every kind (ATT, TPV, ENV... as the event stream and
// the actions' answers bring them), the session, the units and what the pages keep between
// reports. A page subscribes to the kinds it shows and is called with each new one.
const listeners = new Map();

export const store = {
  reports: {},
  session: null,
  // The units every figure is written in: this browser's choice when it made one, else the
  // device's (GET /api/v1/device), which the display and the terminal show.
  units: localStorage.getItem("units") || "metric",
  deviceUnits: null,
  track: [],
  waypoints: [],
};

// `listener(value)` for each report of the kind (a class such as "ATT", or "session", "waypoints").
export function subscribe(kind, listener) {
  if (!listeners.has(kind)) listeners.set(kind, []);
  listeners.get(kind).push(listener);
}

export function publish(kind, value) {
  for (const listener of listeners.get(kind) || []) listener(value);
}

// A report from the device: kept as the newest of its class and given to its subscribers.
export function take(report) {
  if (!report || !report.class) return;
  store.reports[report.class] = report;
  publish(report.class, report);
}

// The units chosen on this browser ("" or null: the device's again); every figure shown is
// written again in them (an event, an alert or a reminder, is not given again).
export function setUnits(units) {
  if (units) localStorage.setItem("units", units); else localStorage.removeItem("units");
  const now = units || store.deviceUnits || "metric";
  if (now === store.units) return;
  store.units = now;
  publish("units", now);
  for (const report of Object.values(store.reports)) if (report.class !== "EVENT") take(report);
}

// The device's units: followed unless this browser chose its own.
export function setDeviceUnits(units) {
  store.deviceUnits = units;
  publish("deviceUnits", units);
  if (!localStorage.getItem("units")) setUnits(null);
}
