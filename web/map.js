// A track on a plain map: its path, its start ("S" on its first point), where it ends or where
// the device is now, the waypoints near it, the photos
// taken along it, north and a scale bar of a round distance. No tiles: the device has no map
// data and no internet. The live track page and a stored track on the history page draw it.
import { distance } from "./format.js";
import { fitCanvas, themeColour } from "./graph.js";
import { lookup } from "./lang.js";

const metresPerDegree = 111320;

// `track`: [[lat, lon], ...]; `waypoints`: [{name, lat, lon}]; `photos`: [{lat, lon}];
// `here`: [lat, lon] of the device now (the dot), else the track's last point.
// Returns the track's length in metres.
export function drawTrackMap(canvas, track, waypoints, photos, here) {
  const { context, width: size } = fitCanvas(canvas, canvas.clientWidth || 360);
  const shape = track.length > 0 ? track : (here ? [here] : []);
  const near = (waypoints || []).filter((w) => shape.length === 0 || shape.some(([lat, lon]) => Math.abs(lat - w.lat) < 0.05 && Math.abs(lon - w.lon) < 0.05));
  const all = track.concat(here ? [here] : [], near.map((w) => [w.lat, w.lon]));
  if (all.length === 0) {
    context.fillStyle = themeColour("--muted", "#4a4a4a");
    context.font = "14px system-ui";
    context.fillText(lookup("label.noPosition"), 14, size / 2);
    return 0;
  }
  let [minLat, maxLat, minLon, maxLon] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const [lat, lon] of all) { minLat = Math.min(minLat, lat); maxLat = Math.max(maxLat, lat); minLon = Math.min(minLon, lon); maxLon = Math.max(maxLon, lon); }
  const midLat = (minLat + maxLat) / 2, cosine = Math.cos(midLat * Math.PI / 180);
  const width = Math.max((maxLon - minLon) * metresPerDegree * cosine, (maxLat - minLat) * metresPerDegree, 50);
  const scale = (size - 48) / width;
  const x = (lon) => size / 2 + (lon - (minLon + maxLon) / 2) * metresPerDegree * cosine * scale;
  const y = (lat) => size / 2 - (lat - midLat) * metresPerDegree * scale;
  context.strokeStyle = themeColour("--accent", "#9a4a00");
  context.lineWidth = 3; context.lineJoin = "round";
  context.beginPath();
  track.forEach(([lat, lon], index) => index === 0 ? context.moveTo(x(lon), y(lat)) : context.lineTo(x(lon), y(lat)));
  context.stroke();
  context.fillStyle = themeColour("--fg", "#111");
  context.font = "12px system-ui";
  for (const w of near) {
    const [wx, wy] = [x(w.lon), y(w.lat)];
    context.beginPath(); context.moveTo(wx, wy - 7); context.lineTo(wx + 6, wy); context.lineTo(wx, wy + 7); context.lineTo(wx - 6, wy); context.closePath(); context.fill();
    // The name beside it, or above it where the map's edge leaves no room.
    const labelWidth = context.measureText(w.name).width;
    if (wx + 10 + labelWidth <= size - 4) context.fillText(w.name, wx + 9, wy + 4);
    else context.fillText(w.name, Math.max(4, size - 6 - labelWidth), wy - 11);
  }
  // The photos taken along it: a small framed square each.
  context.strokeStyle = themeColour("--fg", "#111");
  context.lineWidth = 2;
  for (const p of (photos || []).filter((p) => isFinite(p.lat) && isFinite(p.lon))) context.strokeRect(x(p.lon) - 5, y(p.lat) - 4, 10, 8);
  if (track.length > 0) { context.font = "bold 14px system-ui"; context.fillText("S", x(track[0][1]) - 4, y(track[0][0]) - 8); }
  if (here || track.length > 0) {
    const [lat, lon] = here || track[track.length - 1];
    context.fillStyle = themeColour("--warn", "#a00");
    context.beginPath(); context.arc(x(lon), y(lat), 6, 0, 2 * Math.PI); context.fill();
  }
  context.fillStyle = themeColour("--fg", "#111");
  context.font = "bold 15px system-ui"; context.fillText("N ↑", size - 36, 22);
  const bar = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000].find((m) => m * scale > size / 5) || 50000;
  context.fillRect(14, size - 18, bar * scale, 3);
  context.font = "13px system-ui"; context.fillText(distance(bar), 14, size - 24);
  let total = 0;
  for (let i = 1; i < track.length; i++) {
    total += Math.hypot((track[i][0] - track[i - 1][0]) * metresPerDegree, (track[i][1] - track[i - 1][1]) * metresPerDegree * cosine);
  }
  return total;
}
