/* Page texts with nodes in them: a text's {name} placeholders filled with links to
   members (or any node) and plain strings, as a fragment. Nothing is parsed as HTML. */

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * The text for key with its placeholders filled from values; a value may be a string,
 * a number or a node.
 *
 *   phrase(texts, "to_move", { player: link });  // <a …>alice</a> to move
 */
export function phrase(texts, key, values) {
  const fragment = document.createDocumentFragment();
  const text = texts.t(key); // placeholders stay in a text given no values
  let at = 0;
  for (const found of text.matchAll(PLACEHOLDER)) {
    fragment.append(text.slice(at, found.index));
    const value = values && found[1] in values ? values[found[1]] : found[0];
    fragment.append(value instanceof Node ? value : String(value));
    at = found.index + found[0].length;
  }
  fragment.append(text.slice(at));
  return fragment;
}

/** Nodes joined in their order with the page's "and" text ("{a} and {b}"). */
export function listed(texts, nodes) {
  if (!nodes.length) return document.createDocumentFragment();
  return nodes.slice(1).reduce((a, b) => phrase(texts, "and", { a: a, b: b }), nodes[0]);
}
