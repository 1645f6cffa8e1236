// The track page: the recording as the device's recorder has it (GET /api/v1/track), whoever
// started it (the button, the command line, this page or another browser): its line from its
// first point ("S"), its elapsed and moving time, distance, pace or speed, climb, descent and
// the split under way, all live; the buttons that apply to its state and no others; the next
// track's name, the way back and the camera's shutter. A reload or a second browser shows the
// same line and the same figures, for they are the recorder's, never what this page saw.
import { act, getJSON, loadWaypoints } from "./api.js";
import { $, say, setText } from "./dom.js";
import { altitude, distance, elapsedText, pace, speed } from "./format.js";
import { capitalized, lookup, words } from "./lang.js";
import { drawTrackMap } from "./map.js";
import { currentPage, onShow } from "./nav.js";
import { store, subscribe, take } from "./store.js";

// The recorder's last report, the line of its last full answer, and how far the device's
// clock is ahead of this browser's (s, learnt from the reports: the elapsed time is the
// device's now less the start, whatever the phone's clock says).
const shown = { track: null, path: [], ahead: 0, fetching: false, fetchedPoints: -1, fetchedAt: 0, later: null };

// Below this average moving speed (m/s, 14.4 km/h) a track is on foot: its pace is said, above it its speed.
const onFoot = 4;

function drawMap() {
  const tpv = store.reports.TPV;
  const here = tpv && tpv.mode >= 2 && isFinite(tpv.lat) && isFinite(tpv.lon) ? [tpv.lat, tpv.lon] : null;
  drawTrackMap($("map"), shown.path, store.waypoints, [], here);
}

// The recorder's state in words, in the language chosen when it is shown.
const stateWord = (state) => capitalized(words("track", state));

// The figures and the buttons for the recorder's state; the clock runs on between reports.
function showFigures() {
  const t = shown.track || { state: "stopped" };
  const open = t.state !== "stopped" && t.name !== undefined;
  const state = $("track-state");
  state.dataset.state = t.state;
  const auto = t.state === "recording" && t.autoPaused ? ` (${lookup("label.standingStill")})` : "";
  setText("track-state", stateWord(t.state) + (open ? `: ${t.name}` : "") + auto);
  // Elapsed runs from the start, pauses included, so it goes on while paused.
  const started = Date.parse(t.started) / 1000;
  setText("track-elapsed", open && isFinite(started) ? elapsedText(Math.max(0, Date.now() / 1000 + shown.ahead - started)) : "--");
  setText("track-moving", open ? elapsedText(t.movingTime) : "--");
  setText("track-distance", open ? distance(t.distance) : "--");
  setText("track-points", open ? String(t.points) : "--");
  const movingSpeed = open && t.movingTime > 0 ? t.distance / t.movingTime : NaN;
  const walking = !(movingSpeed >= onFoot) && store.units !== "nautical";
  setText("track-pace-label", lookup(walking ? "label.pace" : "label.speed"));
  setText("track-pace", !open || !(t.distance > 0) ? "--" : walking ? pace(t.movingTime / (t.distance / 1000)) : speed(movingSpeed));
  setText("track-climb", open ? `↑\u00a0${altitude(t.climb)}` : "--");
  setText("track-descent", open ? `↓\u00a0${altitude(t.descent)}` : "--");
  const split = open && t.split ? t.split : null;
  // The split's own unit: a kilometre, a mile or a nautical mile, as the device counts them.
  const unit = !split || split.length === 1000 ? "km" : Math.abs(split.length - 1609.344) < 1 ? "mi" : Math.abs(split.length - 1852) < 1 ? "nm" : distance(split.length);
  setText("track-split-label", split ? lookup("label.splitUnderWay", unit, String(split.completed + 1)) : lookup("label.thisKm"));
  setText("track-split", split ? lookup("word.inTime", distance(split.distance), elapsedText(split.time)) : "--");
  setText("track-last-split-label", split && split.completed > 0 ? `${unit} ${split.completed}` : lookup("label.lastKm"));
  setText("track-last-split", split && split.completed > 0 ? elapsedText(split.last) : "--");
  setText("track-interval", open && t.interval === "adaptive" ? lookup("label.adaptive") : lookup("label.oneEvery", `${open ? t.interval : 5}\u00a0s`));
  // Only the buttons that do something now: Start when idle, Pause while recording, Resume
  // while paused, Stop while there is a recording to stop.
  $("track-figures").hidden = !open;
  $("track-count").hidden = !open;
  $("track-start").hidden = open;
  $("track-name-label").hidden = open;
  $("track-pause").hidden = t.state !== "recording";
  $("track-resume").hidden = t.state !== "paused";
  $("track-stop").hidden = !open;
}

// The whole recording from the device; at most one request at a time.
async function fetchRecording() {
  if (shown.fetching) return;
  shown.fetching = true;
  shown.fetchedAt = Date.now();
  try {
    const reply = await getJSON("/api/v1/track");
    if (reply && reply.class === "TRACK") { shown.ahead = -Infinity; take(reply); }
  } finally {
    shown.fetching = false;
  }
}

// The device's now is a report's start plus its elapsed: the newest of those the reports gave
// (a full answer starts afresh; the state the app opened with may be older than the stream).
function learnClock(report) {
  const started = Date.parse(report.started) / 1000;
  if (!isFinite(started) || !isFinite(report.elapsed)) return;
  shown.ahead = Math.max(shown.ahead, started + report.elapsed - Date.now() / 1000);
}

// A TRACK: the full answer (with its line), one on the event stream (a change of state or a
// new point) or an action's answer: the figures at once; the line fetched again when points
// were added, at most every 3 s.
subscribe("TRACK", (report) => {
  shown.track = report;
  learnClock(report);
  if (Array.isArray(report.path)) {
    shown.path = report.path.filter((p) => Array.isArray(p) && isFinite(p[0]) && isFinite(p[1]));
    shown.fetchedPoints = report.points === undefined ? 0 : report.points;
  }
  if (report.state === "stopped") { shown.path = []; shown.fetchedPoints = 0; }
  showFigures();
  if (currentPage() !== "track") return;
  drawMap();
  const behind = report.state !== "stopped" && report.points !== shown.fetchedPoints;
  if (!behind || shown.later) return;
  const wait = Math.max(0, 3000 - (Date.now() - shown.fetchedAt));
  shown.later = setTimeout(() => { shown.later = null; fetchRecording(); }, wait);
});
subscribe("TPV", () => { if (currentPage() === "track") drawMap(); });
subscribe("waypoints", () => { if (currentPage() === "track") drawMap(); });
onShow("track", () => { loadWaypoints(); fetchRecording(); });
// The clock runs each second; the line is checked every 10 s in case an event was missed.
setInterval(() => { if (currentPage() === "track") showFigures(); }, 1000);
setInterval(() => { if (currentPage() === "track") fetchRecording(); }, 10000);

// The recorder's answer in the page's words (the device's own message is English): its new
// state, or the track saved with its length.
async function track(body) {
  const before = shown.track;
  const reply = await act("track", body);
  if (!reply || reply.class !== "TRACK") return;
  const saved = body.action === "stop" && reply.state === "stopped" && before && before.name !== undefined;
  if (reply.message) say(saved ? lookup("label.trackSaved", before.name, distance(before.distance)) : words("track", reply.state));
  fetchRecording();
}

$("track-start").addEventListener("click", () => {
  const name = $("track-name").value.trim();
  track(name ? { action: "start", name } : { action: "start" });
});
$("track-pause").addEventListener("click", () => track({ action: "pause" }));
$("track-resume").addEventListener("click", () => track({ action: "resume" }));
$("track-stop").addEventListener("click", () => track({ action: "stop" }));
$("track-back").addEventListener("click", () => act("waypoint", { action: "back" }));
$("track-photo").addEventListener("click", async () => {
  const reply = await act("photo", {});
  if (reply && reply.class === "PHOTO") say(reply.track ? lookup("label.photoWith", reply.file, reply.track) : lookup("label.photo", reply.file));
});
showFigures();
