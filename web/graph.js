// Drawing on a canvas, sized to its box and the screen's pixels, in the theme's colours; and
// the line graph of the barometer's history and a track's elevation profile.
import { lookup } from "./lang.js";

// A colour of the theme (a custom property of the page's style).
export function themeColour(name, fallback) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

// Fits a canvas to its displayed width (and the given height in CSS pixels); returns its context and size.
export function fitCanvas(canvas, height) {
  const width = canvas.clientWidth || 360;
  const ratio = devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const context = canvas.getContext("2d");
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, width, height);
  return { context, width, height };
}

// `series`: [[x, y], ...] in order; `label(x)` names an x for the axis; `unit` follows the y labels;
// `range`: values the axis must hold besides the line's.
export function drawGraph(canvas, series, options) {
  const { context, width, height } = fitCanvas(canvas, options.height || 200);
  const foreground = themeColour("--fg", "#111"), muted = themeColour("--muted", "#4a4a4a"), line = themeColour("--accent", "#9a4a00");
  context.font = "12px system-ui";
  if (series.length < 2) {
    context.fillStyle = muted;
    context.fillText(options.empty || lookup("label.notEnoughData"), 12, height / 2);
    return;
  }
  const xs = series.map((p) => p[0]), ys = series.map((p) => p[1]).filter(isFinite);
  // The axis holds every value the page names beside the graph (`options.range`: a span's
  // lowest and highest sample, which a line of means never reaches), so "min" is never below it.
  const named = (options.range || []).filter(isFinite);
  let [low, high] = [Math.min(...ys, ...named), Math.max(...ys, ...named)];
  const least = options.leastSpan || 1;
  if (high - low < least) { const middle = (high + low) / 2; low = middle - least / 2; high = middle + least / 2; }
  const [left, right, top, bottom] = [46, 8, 8, 20];
  const x0 = xs[0], x1 = xs[xs.length - 1] === x0 ? x0 + 1 : xs[xs.length - 1];
  const px = (x) => left + (x - x0) / (x1 - x0) * (width - left - right);
  const py = (y) => top + (high - y) / (high - low) * (height - top - bottom);
  context.strokeStyle = themeColour("--line", "#ccc");
  context.lineWidth = 1;
  context.fillStyle = muted;
  for (let i = 0; i <= 3; i++) {
    const y = low + (high - low) * i / 3;
    context.beginPath(); context.moveTo(left, py(y)); context.lineTo(width - right, py(y)); context.stroke();
    context.fillText(y.toFixed(options.decimals === undefined ? 1 : options.decimals), 2, py(y) + 4);
  }
  if (options.label) {
    context.fillText(options.label(x0), left, height - 4);
    const last = options.label(x1);
    context.fillText(last, width - right - context.measureText(last).width, height - 4);
  }
  context.strokeStyle = line;
  context.lineWidth = 2.5;
  context.lineJoin = "round";
  context.beginPath();
  let drawing = false;
  for (const [x, y] of series) {
    if (!isFinite(y)) { drawing = false; continue; }
    if (drawing) context.lineTo(px(x), py(y)); else context.moveTo(px(x), py(y));
    drawing = true;
  }
  context.stroke();
  context.fillStyle = foreground;
  if (options.unit) context.fillText(options.unit, left + 4, top + 12);
}
