/* Reading and building the document: shared by every page's script. */

/** The element with this id, or null. */
export function byId(id) {
  return document.getElementById(id);
}

/** A new element with an optional class and text; the text is never parsed as HTML. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

/** A new copy of an icon the page holds in <template id="icon-template-NAME"> (the
    server draws it: games/templatetags/icons.py), named for screen readers by label, or
    decoration without one. */
export function icon(name, label) {
  const svg = byId("icon-template-" + name).content.firstElementChild.cloneNode(true);
  if (label) {
    svg.removeAttribute("aria-hidden");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  }
  return svg;
}

/** The page's language, as the server set it on <html lang>. */
export function pageLanguage() {
  return document.documentElement.lang || "en";
}
