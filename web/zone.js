// The device's zone and clock, which every page writes its times in (GET /api/v1/device): the
// header shows the device's time with the zone's name ("14:32 CEST"), the first time on every
// page. When the device's zone is not set (the system's, or the simulated scenario's place's)
// or is UTC, and this phone is in another zone, it offers once to use the phone's
// (POST /api/v1/zone).
import { act, getJSON } from "./api.js";
import { $, setText } from "./dom.js";
import { clockAt, zoneName } from "./format.js";
import { lookup } from "./lang.js";
import { publish, store, subscribe } from "./store.js";

const browserZone = () => { try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { return ""; } };

// The device's clock against this browser's, from the newest report's time: the header shows
// the device's time (a simulated trip's, a board whose clock is set from GPS), not the phone's.
let deviceAhead = null;
for (const kind of ["TPV", "ATT"]) {
  subscribe(kind, (report) => {
    const time = Date.parse(report.time);
    if (!isFinite(time)) return;
    const ahead = time / 1000 - Date.now() / 1000, moved = deviceAhead === null || Math.abs(ahead - deviceAhead) > 20;
    deviceAhead = ahead;
    if (moved) showClock();
  });
}

function showClock() {
  setText("device-clock", store.zone && deviceAhead !== null ? `${clockAt(Date.now() / 1000 + deviceAhead)} ${zoneName()}` : "");
}

function offer() {
  const zone = store.zone, phone = browserZone();
  if (!zone || !phone || phone === zone.timeZone || localStorage.getItem("zoneOffered") === phone) return;
  const utc = (name) => /^(UTC|Etc\/UTC|Etc\/GMT|GMT|Z|\+00:?00|\+00)$/.test(name);
  const unchosen = zone.zoneSource === "system" || zone.zoneSource === "scenario" || utc(zone.timeZone);
  // A phone that says UTC most likely does not know where it is: nothing to offer.
  if (utc(phone) || !unchosen || !(store.session && store.session.paired)) return;
  setText("zone-offer-text", lookup("label.zoneOffer", phone, zone.timeZone));
  $("zone-offer").hidden = false;
  const answered = () => { localStorage.setItem("zoneOffered", phone); $("zone-offer").hidden = true; };
  $("zone-offer-use").onclick = async () => {
    answered();
    const reply = await act("zone", { timeZone: phone });
    if (reply && reply.timeZone) setZone(reply);
  };
  $("zone-offer-keep").onclick = answered;
}

function setZone(about) {
  store.zone = about;
  publish("device", about);
  showClock();
  publish("zone", about);
  // Every page draws its figures again in the zone (the reports carry instants).
  for (const report of Object.values(store.reports)) if (report.class !== "EVENT") publish(report.class, report);
}

// The device's zone, clock, units and language read again at once (a setting changed here).
export async function refreshDevice() {
  const about = await getJSON("/api/v1/device");
  if (about && about.timeZone) setZone(about);
}

// The zone before the first report is drawn; then the header's clock each half minute.
export async function loadZone() {
  const about = await getJSON("/api/v1/device");
  if (about && about.timeZone) setZone(about);
  setInterval(showClock, 5000);
  // The device's zone, clock and units may change there (a reload, the display's keys).
  setInterval(async () => {
    const fresh = await getJSON("/api/v1/device");
    if (!fresh || !fresh.timeZone) return;
    const changed = !store.zone || fresh.timeZone !== store.zone.timeZone || fresh.clock !== store.zone.clock;
    if (changed) setZone(fresh); else publish("device", fresh);
  }, 60000);
  offer();
}
