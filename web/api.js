// The device's API (/api/v1): reads, actions with the session's token, and the event stream
// that feeds the store. A refusal is said in the header's status line.
import { say } from "./dom.js";
import { lookup } from "./lang.js";
import { publish, store, take } from "./store.js";

// A read; on a refusal the reason is said and null returned (the ERROR itself, with the
// answer's status, when there is one). `quiet`: the page says why in its own words, so the
// status line keeps what it said.
export async function getJSON(path, { quiet = false } = {}) {
  try {
    const response = await fetch(path);
    const reply = await response.json().catch(() => null);
    if (!response.ok) {
      if (!quiet) say(reply && reply.message ? reply.message : `${path}: ${response.status}`);
      return reply && reply.class === "ERROR" ? { ...reply, status: response.status } : null;
    }
    return reply;
  } catch (error) {
    say(lookup("label.unreachable"));
    return null;
  }
}

// An action (`POST /api/v1/NAME`) with the session's token; its answer goes to the store.
export async function act(name, body) {
  const response = await fetch(`/api/v1/${name}`, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Lodestone-Token": (store.session && store.session.token) || "" },
    body: JSON.stringify(body || {}),
  });
  const reply = await response.json().catch(() => null);
  if (!response.ok) say(reply && reply.message ? reply.message : lookup("label.refused", String(response.status)));
  else take(reply);
  return reply;
}

// Whether this browser is paired, the access, and the actions' token.
export async function openSession() {
  store.session = await (await fetch("/api/v1/session")).json();
  publish("session", store.session);
}

// The newest report of every kind, then each new one as the device gives it.
export async function follow(kinds) {
  const snapshot = await (await fetch("/api/v1/state")).json();
  for (const report of Object.values(snapshot)) take(report);
  const source = new EventSource(`/api/v1/events?kinds=${kinds.join(",")}`);
  source.onopen = () => say(lookup("label.live"));
  source.onerror = () => say(lookup("label.reconnecting"));
  source.onmessage = (message) => { try { take(JSON.parse(message.data)); } catch (error) { /* a damaged line is skipped */ } };
}

// The saved waypoints, kept in the store for the maps.
export async function loadWaypoints() {
  const reply = await getJSON("/api/v1/waypoints");
  store.waypoints = reply && reply.waypoints ? reply.waypoints : [];
  publish("waypoints", store.waypoints);
}
