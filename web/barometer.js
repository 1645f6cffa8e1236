// The barometer page: pressure, trend, altitude and temperature from ENV; the graph of any
// kept stream over 1 hour to 7 days (following the device while open). The alert rules and
// the alerts given have their own page (alerts.js).
import { getJSON } from "./api.js";
import { $, setText } from "./dom.js";
import { altitude, axisTime, fixed } from "./format.js";
import { lookup, trendWords, words } from "./lang.js";
import { drawGraph } from "./graph.js";
import { currentPage, onShow } from "./nav.js";
import { subscribe } from "./store.js";

const barometer = { span: "6h", stream: "seaLevelPressure" };
const streamUnits = { seaLevelPressure: "hPa", pressure: "hPa", altitude: "m", temperature: "°C", humidity: "%" };

function showEnvironment(env) {
  setText("pressure", env.pressure !== undefined ? `${fixed(env.pressure, 1)} hPa` : "--");
  setText("qnh-now", env.seaLevelPressure !== undefined ? `${fixed(env.seaLevelPressure, 1)} hPa` : "--");
  setText("baro-alt", env.altFused !== undefined ? altitude(env.altFused) : (env.altBaro !== undefined ? altitude(env.altBaro) : "--"));
  setText("temp", env.temp !== undefined ? `${fixed(env.temp, 1)} °C` : "--");
  // The trend as an arrow and words ("⇊ falling fast, 1.2 hPa an hour") and what it means.
  setText("trend", env.trend && env.trend.band
    ? `${trendWords(env.trend.band, `${fixed(Math.abs(env.trend.rate), 1)}\u00a0hPa`)}: ${words("forecast", env.trend.band)}`
    : words("trend", "waiting"));
}

async function loadGraph() {
  const reply = await getJSON(`/api/v1/history?stream=${barometer.stream}&span=${barometer.span}`);
  const canvas = $("baro-graph");
  if (!reply || !reply.points) { drawGraph(canvas, [], { empty: reply && reply.message ? reply.message : lookup("label.noHistory") }); return; }
  const series = reply.points.map((p) => [Date.parse(p.time) / 1000, p.mean]);
  // The axis in the device's zone, as every time on every page.
  const clock = (unix) => axisTime(unix, barometer.span === "7d");
  drawGraph(canvas, series, { height: 200, unit: streamUnits[barometer.stream], label: clock, leastSpan: barometer.stream.endsWith("ressure") ? 2 : 1,
    range: reply.samples ? [reply.minimum, reply.maximum] : [] });
  // The graph named as the page names it: the stream and the span as their buttons say.
  const unit = streamUnits[barometer.stream];
  const stream = $("baro-stream").selectedOptions[0].textContent, span = document.querySelector(`[data-span="${barometer.span}"]`).textContent;
  canvas.setAttribute("aria-label", reply.samples
    ? lookup("label.graphAria", stream, span, `${fixed(reply.minimum, 1)}\u00a0${unit}`, `${fixed(reply.maximum, 1)}\u00a0${unit}`)
    : lookup("label.graphAriaEmpty", stream, span));
  setText("baro-range", reply.samples ? lookup("label.minMaxMean", fixed(reply.minimum, 1), fixed(reply.maximum, 1), `${fixed(reply.mean, 1)} ${unit}`)
    : lookup("label.noDataInSpan"));
}

const refresh = () => { loadGraph(); };

subscribe("ENV", showEnvironment);
onShow("barometer", refresh);
for (const button of document.querySelectorAll("[data-span]")) {
  button.addEventListener("click", () => {
    barometer.span = button.dataset.span;
    for (const other of document.querySelectorAll("[data-span]")) other.setAttribute("aria-pressed", String(other === button));
    loadGraph();
  });
}
$("baro-stream").addEventListener("change", () => { barometer.stream = $("baro-stream").value; loadGraph(); });
// The graph follows the device while the page is open.
setInterval(() => { if (currentPage() === "barometer") loadGraph(); }, 30000);
