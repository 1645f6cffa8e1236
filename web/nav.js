// Navigation between the pages: the address's fragment names the page shown (#compass first);
// each page's module says what it does when it is opened.
import { publish, subscribe } from "./store.js";

export const currentPage = () => (location.hash || "#compass").slice(1);

// `refresh()` each time the page is opened.
export const onShow = (page, refresh) => subscribe("page:" + page, refresh);

export function showPage() {
  const page = currentPage();
  for (const section of document.querySelectorAll(".page")) section.hidden = section.id !== "page-" + page;
  for (const link of document.querySelectorAll(".tabs a")) {
    if (link.dataset.page === page) {
      link.setAttribute("aria-current", "page");
      link.scrollIntoView({ block: "nearest", inline: "nearest" });
    } else {
      link.removeAttribute("aria-current");
    }
  }
  publish("page:" + page);
}
