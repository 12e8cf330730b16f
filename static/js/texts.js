/* A page's texts in its own language, read from a <template id="…-texts"> in which each
   <span data-t="key">…</span> is one text; {name} marks a value the script fills in.
   The server translates them, so a script never carries words of its own. */

import { pageLanguage } from "./dom.js";

/**
 * Read the texts of the template with this id.
 *
 *   const { t, counted } = readTexts("lobby-texts");
 *   t("to_move", { player: "alice" });  // "alice to move"
 *   counted("cells", 3);                 // the text "cells.other" with {n} = "3"
 *
 * A key without a text comes back as itself, and a value not given stays "{name}".
 */
export function readTexts(templateId, lang = pageLanguage()) {
  const texts = new Map();
  const template = document.getElementById(templateId);
  if (template) {
    for (const node of template.content.querySelectorAll("[data-t]")) {
      texts.set(node.dataset.t, node.textContent.trim());
    }
  }
  // The same rules as the catalogues (Portuguese is Brazilian: 0 and 1 are singular).
  const pluralRules = new Intl.PluralRules(lang === "pt" ? "pt-BR" : lang);

  /** Whether the page has a text for this key. */
  function has(key) {
    return texts.has(key);
  }

  /** The text for this key with its {name} placeholders filled from values. */
  function t(key, values) {
    const text = texts.has(key) ? texts.get(key) : key;
    return text.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));
  }

  /** The singular ("key.one") or plural ("key.other") text for n, with {n} filled in. */
  function counted(key, n) {
    const form = pluralRules.select(n) === "one" ? "one" : "other";
    return t(key + "." + form, { n: n.toLocaleString(lang) });
  }

  /** Names joined pairwise with the page's "and" text ("{a} and {b}"). */
  function listOf(names) {
    if (names.length <= 1) return names.join("");
    return names.slice(1).reduce((a, b) => t("and", { a: a, b: b }), names[0]);
  }

  /** A moment as the server's pages write one: the day first, a 24-hour clock
      (English as read across Europe, Portuguese Brazilian), in the reader's time zone. */
  function dateTime(value) {
    const locale = { en: "en-GB", pt: "pt-BR" }[lang] || lang;
    return new Date(value).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short", hourCycle: "h23" });
  }

  return { lang, has, t, counted, listOf, dateTime };
}
