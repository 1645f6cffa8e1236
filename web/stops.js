// The stops a search found, as the departures and the waves pages list them: one button a
// stop (its name kept as written), `pick(stop)` on a tap; a search that found none says so.
import { note } from "./dom.js";
import { lookup } from "./lang.js";

export function listStops(results, stops, typed, pick) {
  results.replaceChildren();
  for (const stop of typed ? stops : []) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "row";
    button.textContent = stop.name;
    button.translate = false;
    button.addEventListener("click", () => { results.replaceChildren(); pick(stop); });
    item.appendChild(button);
    results.appendChild(item);
  }
  if (typed && stops.length === 0) note(results, lookup("label.noStopMatches", typed));
}
