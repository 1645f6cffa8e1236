// The state store: the newest report of every kind (ATT, TPV, ENV... as the event stream and
// the actions' answers bring them), the session, the units and what the pages keep between
// reports. A page subscribes to the kinds it shows and is called with each new one.
const listeners = new Map();

export const store = {
  reports: {},
  session: null,
  units: localStorage.getItem("units") || "metric",
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

// The units chosen on this browser; every figure shown is written again in them (an event,
// an alert or a reminder, is not given again).
export function setUnits(units) {
  store.units = units;
  localStorage.setItem("units", units);
  for (const report of Object.values(store.reports)) if (report.class !== "EVENT") take(report);
}
