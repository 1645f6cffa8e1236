// The departures page: the favourite stops as one-tap chips, the nearest stop, a search, another
// date and time, each departure with its mark and a reminder button, and the reminders set.
// Times are the stop's own (the device writes them with the zone's offset).
import { act, getJSON } from "./api.js";
import { $, note, say, setText } from "./dom.js";
import { clock, compassPoint, distance, lightMark, localDay, minutesText } from "./format.js";
import { lookup, words } from "./lang.js";
import { currentPage, onShow } from "./nav.js";
import { listStops } from "./stops.js";
import { store } from "./store.js";

// favourites: the favourite stops' ids, in their order.
// openTrip: the departure whose calls are shown (its trip and time), open again after a refresh.
const transit = { stop: null, favourites: [], shownStop: null, openTrip: null };

// The chips: the nearest stop, then the favourites; the one shown is pressed.
function chip(stop, pressed) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = stop.name;
  // A stop's name stays as the timetable gives it (and a browser's translation leaves it so).
  button.translate = stop.id === "nearest";
  button.setAttribute("aria-pressed", String(pressed));
  button.addEventListener("click", () => { transit.stop = stop.id; loadDepartures(); });
  return button;
}

// The star says whether the stop shown is a favourite now: drawn from the favourites the
// device last answered with, again each time they change.
function showFavourite() {
  const favourite = transit.shownStop !== null && transit.favourites.includes(transit.shownStop.id);
  $("departures-favourite").setAttribute("aria-pressed", String(favourite));
  setText("departures-favourite", `${favourite ? "★" : "☆"} ${lookup("label.favourite")}`);
}

async function loadStops() {
  const words = $("stop-q").value.trim();
  const reply = await getJSON(`/api/v1/stops${words ? "?q=" + encodeURIComponent(words) : ""}`);
  if (!reply || reply.class !== "STOPS") return;
  transit.favourites = reply.favourites.map((stop) => stop.id);
  showFavourite();
  const chips = $("stop-chips");
  const shown = transit.shownStop ? transit.shownStop.id : null;
  // Without a choice the device shows the first favourite, else the nearest stop.
  const nearest = transit.stop === "nearest" || (transit.stop === null && !reply.favourites.some((stop) => stop.id === shown));
  chips.replaceChildren(chip({ id: "nearest", name: lookup("label.nearest") }, nearest));
  for (const stop of reply.favourites) chips.appendChild(chip(stop, transit.stop !== "nearest" && shown === stop.id));
  listStops($("stop-results"), reply.stops, words, (stop) => { transit.stop = stop.id; $("stop-q").value = ""; loadDepartures(); });
}

async function loadDepartures() {
  const query = new URLSearchParams({ count: "10" });
  if (transit.stop) query.set("stop", transit.stop);
  const at = $("departures-at").value;
  if (at) query.set("at", new Date(at).toISOString());
  const reply = await getJSON(`/api/v1/departures?${query}`, { quiet: true });
  const list = $("departures-list");
  list.replaceChildren();
  if (!reply || reply.class !== "DEPARTURES") {
    setText("departures-stop", noStopWords(reply));
    return;
  }
  transit.shownStop = reply.stop;
  showFavourite();
  setText("departures-stop", reply.stop.name + (reply.stop.distance !== undefined ? ` · ${distance(reply.stop.distance)} ${compassPoint(reply.stop.bearing)}` : ""));
  const today = reply.departures.length ? reply.departures[0].time.slice(0, 10) : "";
  for (const departure of reply.departures) {
    const item = document.createElement("li");
    item.className = "departure";
    // The departure itself opens its trip's calls.
    const open = document.createElement("button");
    open.type = "button";
    open.className = "trip-open";
    open.setAttribute("aria-expanded", "false");
    open.setAttribute("aria-label", lookup("label.showCalls", clock(departure.time), departure.route));
    const when = document.createElement("strong");
    when.textContent = (departure.time.slice(0, 10) !== today || at ? localDay(departure.time) + " " : "") + clock(departure.time);
    const what = document.createElement("span");
    what.textContent = ` ${lookup("label.routeTo", departure.route, departure.headsign)} · ${minutesText(departure.minutes)}`;
    open.append(when, what);
    open.addEventListener("click", () => toggleCalls(item, open, reply.stop.id, departure));
    item.append(open);
    if (departure.light) item.appendChild(lightMark(departure.light));
    if (departure.next) {
      const next = document.createElement("span");
      next.className = "small";
      next.translate = false;
      next.textContent = lookup("label.thenStop", departure.next);
      item.appendChild(next);
    }
    if (departure.mark) {
      const mark = document.createElement("span");
      mark.className = "mark";
      mark.textContent = ` ${departure.mark.label} ${"★".repeat(departure.mark.rating)}`;
      mark.setAttribute("aria-label", lookup("label.rated", departure.mark.label, String(departure.mark.rating)));
      item.appendChild(mark);
    }
    if (departure.forecast) {
      const forecast = document.createElement("span");
      forecast.className = "forecast";
      forecast.textContent = ` · ${words("zambretti", departure.forecast.letter)}`;
      forecast.title = lookup("label.zambrettiTitle");
      item.appendChild(forecast);
    }
    const remind = document.createElement("button");
    remind.type = "button";
    remind.className = "remind";
    remind.textContent = lookup("label.remindMe");
    remind.setAttribute("aria-label", lookup("label.remindAria", clock(departure.time), departure.route));
    remind.addEventListener("click", async () => {
      const answer = await act("reminder", { trip: departure.trip, stop: reply.stop.id, minutes: Number($("remind-minutes").value) });
      if (answer && answer.class === "REMINDERS") { showReminders(answer); say(answer.message || lookup("label.reminderSet")); }
    });
    item.appendChild(remind);
    list.appendChild(item);
    if (transit.openTrip === departure.trip + departure.time) toggleCalls(item, open, reply.stop.id, departure);
  }
  if (reply.departures.length === 0) note(list, lookup("label.noDepartureWeek"));
  loadStops();
}

// A departure's trip from this stop on (GET /api/v1/trip): each call and when it is there,
// under the departure; a second tap closes it.
async function toggleCalls(item, button, stop, departure) {
  const shown = item.querySelector(".calls");
  if (shown) { shown.remove(); button.setAttribute("aria-expanded", "false"); transit.openTrip = null; return; }
  transit.openTrip = departure.trip + departure.time;
  const query = new URLSearchParams({ stop, trip: departure.trip, time: departure.time });
  const reply = await getJSON(`/api/v1/trip?${query}`);
  if (!reply || reply.class !== "TRIP" || item.querySelector(".calls")) return;
  const calls = document.createElement("ol");
  calls.className = "calls small";
  for (const call of reply.calls) {
    const line = document.createElement("li");
    const time = document.createElement("strong");
    time.textContent = clock(call.time);
    const name = document.createElement("span");
    name.textContent = ` ${call.stop.name}`;
    name.translate = false;
    line.append(time, name);
    calls.appendChild(line);
  }
  if (!reply.calls.length) note(calls, lookup("label.lastCall"));
  item.appendChild(calls);
  button.setAttribute("aria-expanded", "true");
}

// Why no departures show, in the page's words where the page knows why (the device's message
// is English): no timetable (404), or no stop the device could choose itself, for want of a
// fix or of a stop with a departure nearby; for a stop asked by name, the device's.
function noStopWords(reply) {
  if (!reply) return lookup("label.noDepartures");
  if (reply.status === 404) return lookup("label.noTimetable");
  if (transit.stop && transit.stop !== "nearest") return reply.message || lookup("label.noDepartures");
  const tpv = store.reports.TPV;
  return lookup(tpv && tpv.mode >= 2 ? "label.noStopNearby" : "label.noFixForStop");
}

function showReminders(reply) {
  const list = $("reminders");
  list.replaceChildren();
  for (const reminder of reply.reminders || []) {
    const item = document.createElement("li");
    item.textContent = `${lookup("label.reminderLine", `${localDay(reminder.departure)} ${clock(reminder.departure)}`, reminder.route, reminder.headsign,
      reminder.stop.name, clock(reminder.at))} `;
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = lookup("label.cancel");
    cancel.setAttribute("aria-label", lookup("label.cancelAria", clock(reminder.departure), reminder.route));
    cancel.addEventListener("click", async () => {
      const answer = await act("reminder", { cancel: reminder.id });
      if (answer && answer.class === "REMINDERS") showReminders(answer);
    });
    item.appendChild(cancel);
    list.appendChild(item);
  }
  if (!(reply.reminders || []).length) note(list, lookup("label.noReminder"));
}

async function loadReminders() {
  const reply = await getJSON("/api/v1/reminders", { quiet: true });
  if (reply && reply.class === "REMINDERS") showReminders(reply);
}

onShow("departures", () => { loadDepartures(); loadReminders(); });
let typing;
$("stop-q").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(loadStops, 250); });
$("stop-search").addEventListener("submit", (event) => { event.preventDefault(); loadStops(); });
$("departures-at").addEventListener("change", loadDepartures);
$("departures-now").addEventListener("click", () => { $("departures-at").value = ""; loadDepartures(); });
$("departures-favourite").addEventListener("click", async () => {
  if (!transit.shownStop) return;
  const on = $("departures-favourite").getAttribute("aria-pressed") !== "true";
  const answer = await act("favourite", { stop: transit.shownStop.id, favourite: on });
  if (!answer || answer.class !== "STOPS") return;
  // The answer names the favourites as they are now (their ids): the star follows it at once.
  transit.favourites = answer.favourites;
  showFavourite();
  loadDepartures();
});
// The countdowns move on while the page is open.
setInterval(() => { if (currentPage() === "departures" && !$("departures-at").value) loadDepartures(); }, 60000);
