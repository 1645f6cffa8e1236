// The recording's mark in the header of every page: REC while a track records, "Paused" while
// it is paused, nothing otherwise. It follows the device's TRACK (the state the app opens
// with, then the event stream), so it says what the recorder does, whoever started it.
import { $, setText } from "./dom.js";
import { subscribe } from "./store.js";

subscribe("TRACK", (report) => {
  const mark = $("rec");
  const words = { recording: "REC", paused: "Paused" }[report.state];
  mark.hidden = !words;
  mark.dataset.state = report.state;
  setText("rec", words || "");
  mark.title = words ? `${report.state === "recording" ? "Recording" : "Paused"}: ${report.name || "a track"}` : "";
});
