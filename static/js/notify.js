/* What a member is told on whatever page they are: a challenge (with Accept and Decline
   that work as plain forms), a table that started (the page goes there), an answer to a
   challenge, a challenge or a rematch offer that expired, waiting tables withdrawn. A
   toast, the tab title, and a short sound when the member turned sound on; a challenge
   and an arena pairing also as a notification of the browser (desktop.js).
   Every text comes from the page (<template id="site-texts">). */

import { desktopNotify } from "./desktop.js";
import { byId, el, pageLanguage } from "./dom.js";
import { createSound } from "./sound.js";
import { readTexts } from "./texts.js";

const { t } = readTexts("site-texts");
const baseTitle = document.title;
const sound = createSound(document.body); // body's data-sound: the member's preference
let unread = 0;

/** A path of this site in the page's language ("/match/5/" → "/bg/match/5/" on a
    Bulgarian page). The server sends paths without a language. */
export function localPath(path) {
  const lang = pageLanguage();
  return (lang === "en" ? "" : "/" + lang) + path; // English pages have no prefix
}

function csrfToken() {
  return document.body.dataset.csrf || "";
}

function form(action, label, className) {
  const node = el("form", "inline");
  node.method = "post";
  node.action = localPath(action);
  const token = el("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = csrfToken();
  const button = el("button", className, label);
  button.type = "submit";
  node.append(token, button);
  return node;
}

function mark() {
  unread += 1;
  document.title = "(" + unread + ") " + baseTitle;
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) {
    unread = 0;
    document.title = baseTitle;
  }
});

function toast(id, children, lifetimeMs) {
  const box = byId("toasts");
  if (!box) return null;
  const old = id && box.querySelector('[data-toast="' + id + '"]');
  if (old) old.remove();
  const node = el("div", "toast");
  if (id) node.dataset.toast = id;
  node.append(...children);
  const close = el("button", "toast-close", "×");
  close.type = "button";
  close.setAttribute("aria-label", t("close"));
  close.addEventListener("click", () => node.remove());
  node.append(close);
  box.append(node);
  if (lifetimeMs) setTimeout(() => node.remove(), lifetimeMs);
  return node;
}

function settings(notice) {
  const parts = [t("variant." + notice.variant), notice.clock || t("no_clock")];
  parts.push(notice.format === "single" ? t("single") : t("match"));
  if (notice.rated) parts.push(t("rated"));
  return parts.join(" · ");
}

/** Show one notice from the server ({type: "notify", kind, …}). */
export function show(notice) {
  if (notice.kind === "challenge") {
    const text = el("p", "toast-text", t("challenge", { name: notice.from }));
    const detail = el("p", "toast-detail", settings(notice));
    const buttons = el("div", "toast-buttons");
    buttons.append(
      form("/challenges/" + notice.id + "/accept/", t("accept"), "button small"),
      form("/challenges/" + notice.id + "/decline/", t("decline"), "button small secondary")
    );
    const left = Math.max(0, notice.expires_at - Date.now());
    toast("challenge-" + notice.id, [text, detail, buttons], left || 120000);
    desktopNotify("notification.challenge", { name: notice.from }, "challenge-" + notice.id);
    mark();
    sound.beep();
    document.dispatchEvent(new CustomEvent("lobby-changed", { bubbles: true }));
  } else if (notice.kind === "started") {
    if (notice.arena) desktopNotify("notification.arena", {}, "arena-" + notice.arena);
    const target = localPath(notice.url);
    if (location.pathname !== target) location.assign(target);
    else location.reload();
  } else if (notice.kind === "declined") {
    toast(null, [el("p", "toast-text", t(notice.rematch ? "declined.rematch" : "declined", { name: notice.by }))], 8000);
    mark();
    document.dispatchEvent(new CustomEvent("lobby-changed", { bubbles: true }));
  } else if (notice.kind === "challenges") {
    document.dispatchEvent(new CustomEvent("lobby-changed", { bubbles: true }));
  } else if (notice.kind === "expired") {
    tell(t("expired", { name: notice.to }));
  } else if (notice.kind === "rematch_lapsed") {
    tell(t("rematch_lapsed"));
  } else if (notice.kind === "withdrawn") {
    tell(t(notice.what === "table" ? "withdrawn.table" : "withdrawn." + notice.reason));
  }
}

/** A notice that something of the member's ended without them: a toast, the tab title,
    and the lobby's lists again. */
function tell(text) {
  const node = toast(null, [el("p", "toast-text", text)], 12000);
  if (node) node.dataset.notice = "1";
  mark();
  document.dispatchEvent(new CustomEvent("lobby-changed", { bubbles: true }));
}
