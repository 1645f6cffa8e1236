// Lodestone's web app: one page per instrument, fed by the device's reports (the same ATT,
// TPV, ENV... lines its gpsd socket writes) over Server-Sent Events. No framework, nothing
// from outside the device. This is the entry: it loads every page's module (each subscribes
// to the reports it shows), then the theme, the page the address names, the session and the
// device's reports.
import { follow, openSession } from "./api.js";
import { $ } from "./dom.js";
import { showPage } from "./nav.js";
import "./banner.js";
import "./compass.js";
import "./position.js";
import "./track.js";
import "./waypoints.js";
import "./recording.js";
import "./history.js";
import "./barometer.js";
import "./alerts.js";
import "./sky.js";
import "./snapshots.js";
import "./departures.js";
import "./waves.js";
import "./station.js";
import "./device.js";
import "./settings.js";
import { loadZone } from "./zone.js";
import "./units.js";

// The night theme (red on black): the browser's own light or dark preference until the person
// chooses with the button; the choice is then kept on this browser.
const prefersDark = matchMedia("(prefers-color-scheme: dark)");
const chosenTheme = () => localStorage.getItem("theme");

function showTheme(night) {
  document.documentElement.classList.toggle("night", night);
  $("theme").setAttribute("aria-pressed", String(night));
}

const followBrowser = () => { if (!chosenTheme()) showTheme(prefersDark.matches); };
showTheme(chosenTheme() ? chosenTheme() === "night" : prefersDark.matches);
prefersDark.addEventListener("change", followBrowser);
$("theme").addEventListener("click", () => {
  const night = !document.documentElement.classList.contains("night");
  localStorage.setItem("theme", night ? "night" : "day");
  showTheme(night);
});
addEventListener("hashchange", showPage);
showPage();
await openSession();
await loadZone();
await follow(["ATT", "TPV", "SKY", "ENV", "TRACK", "EVENT", "WAYPOINT"]);
