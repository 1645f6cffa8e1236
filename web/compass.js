// The compass page: the rose turning the short way round from ATT, true and magnetic, accuracy,
// declination, rate of turn, the bearing lock with its deviation, calibration with its advice
// and progress; the place and elevation under the rose (a tap opens the position page); and
// while the device navigates (WAYPOINT, whichever face started it) the target on the rose, its
// bearing, distance, the turn to it, the time to go and the arrival.
import { act } from "./api.js";
import { $, setText } from "./dom.js";
import { altitude, compassPoint, distance, duration, fixed, sexagesimal } from "./format.js";
import { capitalized, lookup, words } from "./lang.js";
import { store, subscribe } from "./store.js";

// The rose, drawn once and turned.
function drawRose() {
  const card = $("card");
  const ns = "http://www.w3.org/2000/svg";
  const names = { 0: "N", 90: "E", 180: "S", 270: "W" };
  for (let degrees = 0; degrees < 360; degrees += 5) {
    const major = degrees % 30 === 0;
    const line = document.createElementNS(ns, "line");
    const angle = degrees * Math.PI / 180;
    const inner = major ? 86 : 93;
    line.setAttribute("x1", Math.sin(angle) * inner); line.setAttribute("y1", -Math.cos(angle) * inner);
    line.setAttribute("x2", Math.sin(angle) * 102); line.setAttribute("y2", -Math.cos(angle) * 102);
    line.setAttribute("class", major ? "tick major" : "tick");
    card.appendChild(line);
    if (major) {
      const label = document.createElementNS(ns, "text");
      label.textContent = names[degrees] ? compassPoint(degrees) : String(degrees);
      // The cardinal letters follow the language when the device names its own (O for east).
      if (names[degrees]) label.dataset.w = `point.${names[degrees]}`;
      label.setAttribute("x", Math.sin(angle) * 72); label.setAttribute("y", -Math.cos(angle) * 72);
      label.setAttribute("class", names[degrees] ? (degrees === 0 ? "label cardinal north" : "label cardinal") : "label");
      label.setAttribute("transform", `rotate(${degrees} ${Math.sin(angle) * 72} ${-Math.cos(angle) * 72})`);
      card.appendChild(label);
    }
  }
}

// The card turns the short way round: 359° to 1° is 2°, not 358°.
let cardAngle = 0;
function turnCard(heading) {
  const target = -heading;
  const delta = ((target - cardAngle) % 360 + 540) % 360 - 180;
  cardAngle += delta;
  $("card").setAttribute("transform", `rotate(${cardAngle.toFixed(1)})`);
}

// The heading the card shows, for the target's mark.
let shownHeading;

function placeTarget() {
  const way = store.reports.WAYPOINT;
  if (way && way.bearing !== undefined && shownHeading !== undefined) {
    $("target-mark").setAttribute("transform", `rotate(${(way.bearing - shownHeading).toFixed(1)})`);
  }
}

function showWay(way) {
  const going = Boolean(way) && way.name !== undefined;
  $("compass-nav").hidden = !going;
  $("target-mark").classList.toggle("on", going && way.bearing !== undefined);
  if (!going) return;
  setText("nav-name", way.backtrack ? lookup("label.startPoint") : way.name);
  setText("nav-bearing", way.bearing !== undefined ? `${fixed(way.bearing, 0)}° ${compassPoint(way.bearing)}` : "--");
  setText("nav-distance", distance(way.distance));
  const turn = way.relativeBearing;
  setText("nav-turn", turn !== undefined ? `${turn >= 0 ? "→" : "←"} ${fixed(Math.abs(turn), 0)}°` : "--");
  setText("nav-eta", way.timeToGo !== undefined ? duration(way.timeToGo) : "--");
  $("nav-arrived").hidden = !way.arrived;
  placeTarget();
}

function showPlace(tpv) {
  const has = tpv.mode >= 2 && tpv.lat !== undefined && tpv.lon !== undefined;
  const height = tpv.altMSL !== undefined ? tpv.altMSL : tpv.alt;
  setText("compass-place", has
    ? `${sexagesimal(tpv.lat, "N", "S", false)}  ${sexagesimal(tpv.lon, "E", "W", false)}${height !== undefined ? ` · ${altitude(height)}` : ""}`
    : lookup("label.noFix"));
}

function showAttitude(att) {
  const heading = att.heading !== undefined ? att.heading : att.mheading;
  shownHeading = heading;
  placeTarget();
  if (heading !== undefined) {
    turnCard(heading);
    setText("heading-text", `${fixed(heading, 0)}°`);
    const north = lookup(att.heading !== undefined ? "label.true" : "label.magnetic");
    setText("heading-ref", `${compassPoint(heading)} ${north}`);
    $("rose").setAttribute("aria-label", lookup("label.headingAria", fixed(heading, 0), north));
  } else {
    setText("heading-text", "---°");
    setText("heading-ref", lookup("label.noHeading"));
  }
  setText("mag", att.mheading !== undefined ? `${fixed(att.mheading, 1)}°` : "--");
  setText("declination", att.declination !== undefined ? `${att.declination >= 0 ? "+" : ""}${fixed(att.declination, 1)}°` : "--");
  setText("accuracy", att.headingAccuracy !== undefined ? `±${fixed(att.headingAccuracy, 1)}°` : "--");
  setText("calibration", att.calibration ? capitalized(words("calibration", att.calibration)) : "--");
  setText("rot", att.rot !== undefined ? `${fixed(att.rot, 0)}°/min` : "--");
  const lock = att.bearing !== undefined ? { bearing: att.bearing, deviation: att.deviation, offCourse: att.offCourse } : null;
  $("lock-mark").classList.toggle("on", Boolean(lock));
  if (lock && heading !== undefined) {
    $("lock-mark").setAttribute("transform", `rotate(${(lock.bearing - heading).toFixed(1)})`);
  }
  setText("locked", lock ? `${fixed(lock.bearing, 0)}°${lock.deviation !== undefined ? ` (${lock.deviation >= 0 ? "+" : ""}${fixed(lock.deviation, 0)}°)` : ""}${lock.offCourse ? ` ${lookup("label.offCourse")}` : ""}`
    : lookup("label.none"));
  setText("lock", lookup(lock ? "label.unlock" : "label.lockBearing"));
  const inProgress = att.calibration === "inProgress";
  $("calibrate-progress").hidden = !inProgress;
  if (inProgress && att.calibrationProgress !== undefined) $("calibrate-progress").value = att.calibrationProgress;
  const advice = $("calibrate-advice");
  advice.hidden = !(att.calibration === "uncalibrated" || att.calibration === "poor" || inProgress);
  setText("calibrate-advice", lookup(inProgress ? "label.keepTurning" : "label.needsCalibrating"));
}

drawRose();
subscribe("ATT", showAttitude);
subscribe("TPV", showPlace);
subscribe("WAYPOINT", showWay);
$("nav-stop").addEventListener("click", () => act("waypoint", { action: "stop" }));
$("lock").addEventListener("click", () => store.reports.ATT && store.reports.ATT.bearing !== undefined ? act("unlock") : act("lock"));
$("calibrate").addEventListener("click", () => act("calibrate", { action: "start" }));
