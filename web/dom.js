// Small helpers on the page's elements, shared by every page.
export const $ = (id) => document.getElementById(id);

// Text set only when it changes (no needless layout, no screen reader repeating itself).
export function setText(id, text) {
  const element = $(id);
  if (element && element.textContent !== text) element.textContent = text;
}

// The header's status line: the link's state, what an action did or why it was refused.
export const say = (text) => setText("link", text);

// A list of figures (term, value) as the pages' boxes, in place of what it held.
export function fillFigures(id, pairs) {
  const list = $(id);
  list.replaceChildren();
  for (const [term, value] of pairs) {
    const box = document.createElement("div");
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term; dd.textContent = value;
    box.append(dt, dd);
    list.appendChild(box);
  }
}

// A list item saying there is nothing to list.
export function note(list, text) {
  const item = document.createElement("li");
  item.textContent = text;
  list.appendChild(item);
}

export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
