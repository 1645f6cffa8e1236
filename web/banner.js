// An alert, a departure reminder or a satellite pass as the phone would give it: a banner
// that stays until it is read, and a vibration where the phone can.
import { $, setText } from "./dom.js";
import { fixed } from "./format.js";
import { alertWords, lookup } from "./lang.js";
import { subscribe } from "./store.js";

subscribe("EVENT", (event) => {
  const words = event.event === "alert" ? alertWords(event)
    : event.event === "departure" ? lookup("label.departureSoon", event.route, event.headsign, event.stop, event.departure.slice(11, 16))
    : event.event === "satellitePass" ? lookup("label.passSoon", event.satellite, `${fixed(event.maximumAltitude, 0)}°`) : null;
  if (!words) return;
  setText("banner-text", words);
  $("banner").hidden = false;
  if (navigator.vibrate) navigator.vibrate(200);
});
$("banner-close").addEventListener("click", () => { $("banner").hidden = true; });
