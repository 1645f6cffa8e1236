// The track page: the live track on a plain map with the waypoints near it, the recording's
// state (whoever started it: the button, the command line, this page), the next track's name,
// start, pause, stop, the way back and the camera's shutter.
import { act, getJSON, loadWaypoints } from "./api.js";
import { $, say, setText } from "./dom.js";
import { distance } from "./format.js";
import { drawTrackMap } from "./map.js";
import { currentPage, onShow } from "./nav.js";
import { store, subscribe, take } from "./store.js";

function drawMap() {
  setText("track-points", String(store.track.length));
  setText("track-distance", distance(drawTrackMap($("map"), store.track, store.waypoints)));
}

// Each new fix extends the track drawn (the newest 5000 points).
function extendTrack(tpv) {
  if (!(tpv.mode >= 2 && tpv.lat !== undefined)) return;
  const last = store.track[store.track.length - 1];
  if (!last || last[0] !== tpv.lat || last[1] !== tpv.lon) store.track.push([tpv.lat, tpv.lon]);
  if (store.track.length > 5000) store.track.splice(0, store.track.length - 5000);
  if (currentPage() === "track") drawMap();
}

function showTrack(report) {
  const recording = report.state !== "stopped" && report.name;
  setText("track-state", report.state + (recording ? `: ${report.name}, ${distance(report.distance)} in ${report.points} points` : ""));
}

async function refreshTrack() {
  if (currentPage() !== "track") return;
  const reply = await getJSON("/api/v1/track");
  if (reply && reply.class === "TRACK") take(reply);
}

subscribe("TPV", extendTrack);
subscribe("TRACK", showTrack);
subscribe("waypoints", () => { if (currentPage() === "track") drawMap(); });
onShow("track", () => { loadWaypoints(); refreshTrack(); });
setInterval(refreshTrack, 5000);

$("track-start").addEventListener("click", () => {
  const name = $("track-name").value.trim();
  act("track", name ? { action: "start", name } : { action: "start" });
});
$("track-pause").addEventListener("click", () => act("track", { action: "pause" }));
$("track-stop").addEventListener("click", () => act("track", { action: "stop" }));
$("track-back").addEventListener("click", () => act("waypoint", { action: "back" }));
$("track-photo").addEventListener("click", async () => {
  const reply = await act("photo", {});
  if (reply && reply.class === "PHOTO") say(`photo ${reply.file}` + (reply.track ? ` with ${reply.track}` : ""));
});
