// The history page: every recorded track with its summary, searched, sorted and paged by 50;
// one track's path, profile, photos and figures, its GPX, its name and notes, and its deletion.
import { act, getJSON, loadWaypoints } from "./api.js";
import { $, fillFigures, reducedMotion, say, setText } from "./dom.js";
import { altitude, dateText, distance, duration, pace, speed } from "./format.js";
import { drawGraph } from "./graph.js";
import { capitalized, language, lookup } from "./lang.js";
import { drawTrackMap } from "./map.js";
import { onShow } from "./nav.js";
import { store } from "./store.js";

const trackList = { page: 1, total: 0, pageSize: 50, chosen: null };

async function loadTracks() {
  const query = new URLSearchParams({ sort: $("history-sort").value, page: String(trackList.page) });
  const words = $("history-q").value.trim();
  if (words) query.set("q", words);
  const reply = await getJSON(`/api/v1/tracks?${query}`);
  if (!reply || !reply.tracks) return;
  trackList.total = reply.total;
  trackList.pageSize = reply.pageSize;
  const pages = Math.max(1, Math.ceil(reply.total / reply.pageSize));
  const count = reply.total === 1 ? lookup("label.oneTrack") : lookup("label.tracks", String(reply.total));
  setText("history-count", reply.total === 0 ? (words ? lookup("label.noTrackMatches", words) : lookup("label.noTrackYet"))
    : `${count}, ${lookup("label.pageOf", String(reply.page), String(pages))}`);
  document.querySelector("#page-history .pager").hidden = pages <= 1;
  $("history-previous").disabled = reply.page <= 1;
  $("history-next").disabled = reply.page >= pages;
  const list = $("history-list");
  list.replaceChildren();
  for (const track of reply.tracks) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "row";
    button.dataset.id = track.id;
    const name = document.createElement("strong");
    // A name stays as it was given (and a browser's translation leaves it so).
    name.translate = false;
    name.textContent = track.name || track.id;
    const figures = document.createElement("span");
    figures.className = "small";
    // Sorted by time, the row says the whole time (pauses included, as the sort counts it);
    // by pace, the pace while moving.
    const sort = $("history-sort").value;
    const time = sort === "duration" ? lookup("label.inAll", duration(track.totalTime)) : duration(track.movingTime);
    const moving = sort === "pace" && track.distance > 0 ? ` · ${pace(track.movingTime / (track.distance / 1000))}` : "";
    figures.textContent = `${dateText(track.started)} · ${distance(track.distance)} · ${time}${moving} · ↑\u00a0${altitude(track.elevationGain)}`
      + (track.tags && track.tags.length ? ` · ${track.tags.join(", ")}` : "");
    button.append(name, document.createElement("br"), figures);
    if (trackList.chosen && trackList.chosen.id === track.id) button.setAttribute("aria-current", "true");
    button.addEventListener("click", () => {
      for (const other of list.querySelectorAll("button.row")) other.removeAttribute("aria-current");
      button.setAttribute("aria-current", "true");
      openTrack(track);
    });
    item.appendChild(button);
    list.appendChild(item);
  }
}

async function openTrack(summary) {
  trackList.chosen = summary;
  const detail = $("history-detail");
  detail.hidden = false;
  setText("detail-name", summary.name || summary.id);
  setText("detail-when", `${dateText(summary.started)} · ${summary.id}`);
  $("detail-rename").value = summary.name || "";
  $("detail-notes").value = summary.notes || "";
  $("detail-gpx").href = `/api/v1/tracks/${encodeURIComponent(summary.id)}.gpx`;
  $("detail-gpx").setAttribute("download", `${summary.id}.gpx`);
  const track = await getJSON(`/api/v1/tracks/${encodeURIComponent(summary.id)}`);
  if (!track || !track.points) return;
  const path = track.points.filter((p) => isFinite(p.lat) && isFinite(p.lon)).map((p) => [p.lat, p.lon]);
  drawTrackMap($("detail-map"), path, store.waypoints, track.photos);
  // The track's photos, each opening at full size.
  const photos = $("detail-photos");
  photos.replaceChildren(...(track.photos || []).map((p) => {
    const link = document.createElement("a");
    link.href = `/api/v1/photos/${encodeURIComponent(p.file)}`;
    link.target = "_blank";
    const image = document.createElement("img");
    image.src = link.href; image.loading = "lazy"; image.width = 96; image.alt = capitalized(lookup("label.photo", p.file));
    link.append(image);
    return link;
  }));
  const s = track.statistics || {};
  const profile = (s.profile || []).map(([d, e]) => [d, e]);
  drawGraph($("detail-profile"), profile, { height: 120, decimals: 0, unit: "m", label: (d) => distance(d), empty: lookup("label.noElevation") });
  fillFigures("detail-figures", [[lookup("label.distance"), distance(s.distance)], [lookup("label.movingTime"), duration(s.movingTime)],
    [lookup("label.totalTime"), duration(s.totalTime)], [lookup("label.averageSpeed"), speed(s.averageSpeed)],
    [lookup("label.topSpeed"), speed(s.maximumSpeed)], [lookup("label.climb"), altitude(s.elevationGain)],
    [lookup("label.descent"), altitude(s.elevationLoss)], [lookup("label.points"), String(s.points ?? path.length)]]);
  if (matchMedia("(max-width: 699px)").matches) detail.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth" });
}

let typing;
$("history-q").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(() => { trackList.page = 1; loadTracks(); }, 250); });
$("history-filter").addEventListener("submit", (event) => { event.preventDefault(); trackList.page = 1; loadTracks(); });
$("history-sort").addEventListener("change", () => { trackList.page = 1; loadTracks(); });
$("history-previous").addEventListener("click", () => { trackList.page = Math.max(1, trackList.page - 1); loadTracks(); });
$("history-next").addEventListener("click", () => { trackList.page += 1; loadTracks(); });
$("detail-edit").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!trackList.chosen) return;
  const reply = await act(`tracks/${encodeURIComponent(trackList.chosen.id)}`, { name: $("detail-rename").value.trim(), notes: $("detail-notes").value });
  if (reply && reply.class === "TRACKS") {
    trackList.chosen.name = reply.name;
    trackList.chosen.notes = reply.notes;
    setText("detail-name", reply.name);
    say(lookup("label.saved"));
    loadTracks();
  }
});
$("detail-delete").addEventListener("click", () => {
  if (!trackList.chosen) return;
  setText("confirm-text", lookup("label.deleteWarning", trackList.chosen.name || trackList.chosen.id));
  $("confirm-delete").showModal();
});
$("confirm-delete").addEventListener("close", async () => {
  if ($("confirm-delete").returnValue !== "delete" || !trackList.chosen) return;
  const reply = await act(`tracks/${encodeURIComponent(trackList.chosen.id)}/delete`, { confirm: true });
  if (reply && reply.deleted) {
    $("history-detail").hidden = true;
    trackList.chosen = null;
    say(lookup("label.deleted"));
    loadTracks();
  }
});
$("detail-share").addEventListener("click", async () => {
  if (!trackList.chosen) return;
  const summary = trackList.chosen;
  const text = lookup("label.shareText", summary.name, distance(summary.distance), duration(summary.movingTime), altitude(summary.elevationGain));
  try {
    if (navigator.share) await navigator.share({ title: summary.name, text });
    else { await navigator.clipboard.writeText(text); say(lookup("label.summaryCopied")); }
  } catch (error) { say(text); }
});
// The track's card (drawn by the device: the route, the figures, the date and place) to the
// phone's share sheet where it takes files, else saved as a download.
$("detail-card").addEventListener("click", async () => {
  if (!trackList.chosen) return;
  const { id, name } = trackList.chosen;
  const units = store.units ? `&units=${store.units}` : "";
  try {
    const response = await fetch(`/api/v1/tracks/${encodeURIComponent(id)}/card.png?lang=${language()}${units}`);
    if (!response.ok) { say(lookup("label.refused", String(response.status))); return; }
    const file = new File([await response.blob()], `${id}-card.png`, { type: "image/png" });
    if (navigator.canShare && navigator.canShare({ files: [file] })) {
      await navigator.share({ files: [file], title: name || id });
      return;
    }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = file.name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    say(lookup("label.cardSaved"));
  } catch (error) { say(lookup("label.unreachable")); }
});
onShow("history", () => { loadTracks(); if (store.waypoints.length === 0) loadWaypoints(); });
