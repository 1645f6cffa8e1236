// The units switch in the header, on every page: the device's units (those the display and the
// terminal show, followed when they change there) unless this browser chose its own, kept on
// this browser. "auto" goes back to following the device. Each choice is named by its speed
// (km/h with km and m; mph with miles and feet; kn with nautical miles and metres).
import { $ } from "./dom.js";
import { lookup } from "./lang.js";
import { setDeviceUnits, setUnits, store, subscribe } from "./store.js";

const names = { metric: "km/h", imperial: "mph", nautical: "kn" };

function showChoice() {
  const own = localStorage.getItem("units");
  $("units").value = own || "";
  const device = $("units").querySelector('option[value=""]');
  device.textContent = store.deviceUnits ? lookup("label.unitsAutoWith", names[store.deviceUnits] || store.deviceUnits) : lookup("label.unitsAuto");
}

$("units").addEventListener("change", () => { setUnits($("units").value || null); showChoice(); });
subscribe("device", (about) => { if (about.units) setDeviceUnits(about.units); showChoice(); });
showChoice();
