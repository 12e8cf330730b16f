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

/** The page's language, as the server set it on <html lang>. */
export function pageLanguage() {
  return document.documentElement.lang || "en";
}
