// The position page: decimal degrees, degrees and minutes, degrees, minutes and seconds,
// accuracy, altitude, speed, course, satellites, and a button that copies the coordinates.
import { $, say, setText } from "./dom.js";
import { altitude, clockAt, compassPoint, distance, fixed, sexagesimal, speed, unixOf, zoneName } from "./format.js";
import { lookup } from "./lang.js";
import { subscribe } from "./store.js";

function showPosition(tpv) {
  const has = tpv.mode >= 2 && tpv.lat !== undefined;
  const kind = tpv.mode === 3 ? "3D" : "2D";
  setText("fix", !has ? lookup("label.noFix") : tpv.time ? lookup("label.fixAt", kind, `${clockAt(unixOf(tpv.time))} ${zoneName()}`.trim()) : lookup("label.fix", kind));
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
  setText("sats", lookup("label.satellitesUsed", String(used), String((sky.satellites || []).length)));
}

subscribe("TPV", showPosition);
subscribe("SKY", showSatellites);
$("copy").addEventListener("click", async () => {
  const text = $("dd").textContent;
  try { await navigator.clipboard.writeText(text); say(lookup("label.copied")); } catch (error) { say(text); }
});
