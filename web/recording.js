// The recording's mark in the header of every page: REC while a track records, "Paused" while
// it is paused, nothing otherwise. It follows the device's TRACK (the state the app opens
// with, then the event stream), so it says what the recorder does, whoever started it.
import { $, setText } from "./dom.js";
import { capitalized, lookup, words } from "./lang.js";
import { subscribe } from "./store.js";

subscribe("TRACK", (report) => {
  const mark = $("rec");
  const shown = report.state === "recording" ? lookup("label.rec") : report.state === "paused" ? capitalized(words("track", "paused")) : "";
  mark.hidden = !shown;
  mark.dataset.state = report.state;
  setText("rec", shown);
  mark.title = shown ? `${capitalized(words("track", report.state))}: ${report.name || lookup("label.aTrack")}` : "";
});
