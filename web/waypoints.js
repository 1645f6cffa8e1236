// The waypoints page: save the place here with one tap (named later), save a place typed or
// pasted in any notation (the device reads it), list them nearest first with distance and
// bearing, go to one (the compass page then leads there), share one as a geo: link or GPX,
// rename and delete. Every change is the socket's ?WAYPOINT, so the display, the socket and
// this page follow one navigation, whichever face started it.
import { act, loadWaypoints } from "./api.js";
import { $, note, say, setText } from "./dom.js";
import { compassPoint, distance, fixed } from "./format.js";
import { lookup } from "./lang.js";
import { currentPage, onShow } from "./nav.js";
import { store, subscribe } from "./store.js";

let chosen = null;

// "47.376887,8.541694": the coordinates as a geo: link and a map app read them.
const pair = (w) => `${Number(w.lat).toFixed(6)},${Number(w.lon).toFixed(6)}`;
const geoLink = (w) => `geo:${pair(w)}?q=${pair(w)}(${encodeURIComponent(w.name)})`;

function button(text, onClick, className) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

function row(w) {
  const item = document.createElement("li");
  item.className = "waypoint";
  const name = document.createElement("strong");
  name.textContent = w.name;
  name.translate = false;
  const way = document.createElement("span");
  way.className = "small";
  way.textContent = w.distance !== undefined
    ? lookup("label.waypointWay", distance(w.distance), `${fixed(w.bearing, 0)}° ${compassPoint(w.bearing)}`)
    : pair(w);
  const heading = document.createElement("div");
  heading.append(name, " ", way);
  const navigating = store.reports.WAYPOINT && store.reports.WAYPOINT.name === w.name;
  const actions = document.createElement("div");
  actions.className = "actions";
  const gpx = document.createElement("a");
  gpx.className = "button";
  gpx.href = `/api/v1/waypoints?format=gpx&name=${encodeURIComponent(w.name)}`;
  gpx.download = `${w.name}.gpx`;
  gpx.textContent = "GPX";
  actions.append(
    navigating ? button(lookup("label.stopNavigating"), () => act("waypoint", { action: "stop" })) : button(lookup("label.goTo"), () => goTo(w)),
    button(lookup("label.share"), () => share(w)), gpx,
    button(lookup("label.renameAsk"), () => ask(w, "rename")), button(lookup("label.deleteAsk"), () => ask(w, "delete"), "danger"));
  item.append(heading, actions);
  return item;
}

function showList() {
  const list = $("waypoint-list");
  list.replaceChildren();
  const all = store.waypoints || [];
  setText("waypoint-count", all.length === 0 ? "" : lookup(all[0].distance !== undefined ? "label.waypointsByDistance" : "label.waypointsByName", String(all.length)));
  if (all.length === 0) note(list, lookup("label.noWaypointsYet"));
  for (const w of all) list.appendChild(row(w));
}

async function changed(reply) {
  if (reply && reply.class === "WAYPOINT") {
    if (reply.message) say(reply.message);
    await loadWaypoints();
  }
  return reply;
}

async function goTo(w) {
  const reply = await changed(await act("waypoint", { action: "goto", name: w.name }));
  if (reply && reply.class === "WAYPOINT") location.hash = "#compass";
}

async function share(w) {
  const text = `${w.name}: ${pair(w)}`;
  try {
    if (navigator.share) await navigator.share({ title: w.name, text: `${text}\n${geoLink(w)}` });
    else { await navigator.clipboard.writeText(`${text} ${geoLink(w)}`); say(lookup("label.placeCopied")); }
  } catch (error) { say(text); }
}

// Rename or delete, each asked first in the page's dialog.
function ask(w, what) {
  chosen = { waypoint: w, what };
  setText("waypoint-dialog-title", lookup(what === "rename" ? "label.renameWaypoint" : "label.deleteWaypoint", w.name));
  $("waypoint-new-name").value = w.name;
  $("waypoint-new-name-label").hidden = what !== "rename";
  $("waypoint-dialog-yes").className = what === "delete" ? "danger" : "";
  setText("waypoint-dialog-yes", lookup(what === "rename" ? "label.rename" : "label.delete"));
  $("waypoint-dialog").showModal();
}

$("waypoint-dialog").addEventListener("close", async () => {
  if ($("waypoint-dialog").returnValue !== "yes" || !chosen) return;
  const { waypoint, what } = chosen;
  chosen = null;
  if (what === "delete") await changed(await act("waypoint", { action: "delete", name: waypoint.name }));
  else {
    const to = $("waypoint-new-name").value.trim();
    if (to && to !== waypoint.name) await changed(await act("waypoint", { action: "rename", name: waypoint.name, to }));
  }
});

$("waypoint-here").addEventListener("click", async () => {
  await changed(await act("waypoint", { action: "add" }));
});

$("waypoint-add").addEventListener("submit", async (event) => {
  event.preventDefault();
  const position = $("waypoint-position").value.trim();
  if (!position) return;
  const body = { action: "add", position };
  const name = $("waypoint-name").value.trim();
  if (name) body.name = name;
  const reply = await changed(await act("waypoint", body));
  if (reply && reply.class === "WAYPOINT") { $("waypoint-position").value = ""; $("waypoint-name").value = ""; }
});

subscribe("waypoints", () => { if (currentPage() === "waypoints") showList(); });
// The distances follow the walker: the list again every ten fixes while the page is open.
let fixes = 0;
subscribe("TPV", () => { if (currentPage() === "waypoints" && ++fixes % 10 === 0) loadWaypoints(); });
subscribe("WAYPOINT", () => { if (currentPage() === "waypoints") showList(); });
onShow("waypoints", loadWaypoints);

