// The position page: decimal degrees, degrees and minutes, degrees, minutes and seconds,
// accuracy, altitude, speed, course, satellites, and a button that copies the coordinates.
import { $, say, setText } from "./dom.js";
import { altitude, clockAt, compassPoint, distance, fixed, sexagesimal, speed, unixOf, zoneName } from "./format.js";
import { subscribe } from "./store.js";

function showPosition(tpv) {
  const has = tpv.mode >= 2 && tpv.lat !== undefined;
  setText("fix", has ? `${tpv.mode === 3 ? "3D" : "2D"} fix${tpv.time ? " at " + clockAt(unixOf(tpv.time)) + " " + zoneName() : ""}` : "no fix yet");
  setText("dd", has ? `${fixed(tpv.lat, 6)}, ${fixed(tpv.lon, 6)}` : "--");
  setText("dm", has ? `${sexagesimal(tpv.lat, "N", "S", false)}  ${sexagesimal(tpv.lon, "E", "W", false)}` : "--");
  setText("dms", has ? `${sexagesimal(tpv.lat, "N", "S", true)}  ${sexagesimal(tpv.lon, "E", "W", true)}` : "--");
  setText("eph", tpv.eph !== undefined ? `±${distance(tpv.eph)}` : "--");
  setText("alt", tpv.altMSL !== undefined ? altitude(tpv.altMSL) : (tpv.alt !== undefined ? altitude(tpv.alt) : "--"));
  setText("speed", speed(tpv.speed));
  setText("course", tpv.track !== undefined ? `${fixed(tpv.track, 0)}° ${compassPoint(tpv.track)}` : "--");
}

function showSatellites(sky) {
  const used = (sky.satellites || []).filter((s) => s.used).length;
  setText("sats", `${used} used of ${(sky.satellites || []).length} seen`);
}

subscribe("TPV", showPosition);
subscribe("SKY", showSatellites);
$("copy").addEventListener("click", async () => {
  const text = $("dd").textContent;
  try { await navigator.clipboard.writeText(text); say("copied"); } catch (error) { say(text); }
});
