/* The table's chat: messages shown once each (a resync may repeat them) as plain text,
   the form that sends one, and on each line of another member a small menu to report
   the line or block its author. */

import { byId as $, el } from "../dom.js";
import { focusBoard } from "./keys.js";
import { localPath } from "../notify.js";
import { userLink } from "./seats.js";

const LONGEST = 500;

/** Wire the chat form (members only) and return add(message) for a "chat" message,
    setMuted(muted, until) for the moderators' word on this member's chat and
    hide(usernames) for the members this one blocked. */
export function setupChat(table) {
  const { t } = table.texts;
  const seen = new Set();
  const me = table.root.dataset.username || ""; // a visitor has no menu on the lines
  // The quick messages (games.protocol.CHAT_PRESETS): a line that is one of them exactly
  // reads in this page's language (its text "chat.preset.<English>").
  const preset = (text) => (table.texts.has("chat.preset." + text) ? t("chat.preset." + text) : null);

  /** A muted member's chat box is disabled and says why, and until when. */
  function setMuted(muted, until) {
    const form = $("chat-form");
    if (!form) return;
    const input = $("chat-text");
    const note = $("chat-muted");
    input.disabled = muted;
    form.querySelector("button").disabled = muted;
    for (const button of document.querySelectorAll(".chat-preset")) button.disabled = muted;
    form.classList.toggle("muted", muted);
    if (!muted) {
      note.hidden = true;
      delete form.dataset.muted;
      return;
    }
    form.dataset.muted = "1";
    if (until) {
      note.textContent = t("chat.muted_until", { time: table.texts.dateTime(until) });
    } else {
      note.textContent = t("chat.muted");
    }
    note.hidden = false;
    input.placeholder = note.textContent;
  }

  function add(message) {
    if (message.id !== undefined) {
      if (seen.has(message.id)) return;
      seen.add(message.id);
    }
    const list = $("chat-list");
    const item = el("li", "chat-message");
    if (message.spectators_only) {
      item.classList.add("spectators-only");
      item.append(el("span", "badge", t("spectators_only")));
    }
    if (message.username) item.dataset.author = message.username;
    if (message.id !== undefined) item.dataset.id = message.id;
    const author = el("strong", "chat-author");
    author.append(message.username ? userLink(message.username) : t("deleted"));
    item.append(author);
    const shown = preset(message.text);
    const text = el("span", "chat-text", shown || message.text);
    if (shown) text.classList.add("chat-preset-text");
    item.append(text);
    if (message.username && message.id !== undefined && me && message.username !== me) {
      item.append(lineMenu(item, message));
    }
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  /** A line's small menu (SPEC §14): report the line to the moderators, or block its
      author. Both go over HTTP; the socket then hides a blocked member's lines. */
  function lineMenu(item, message) {
    const menu = el("details", "chat-menu");
    const summary = el("summary", "chat-menu-open", "⋯");
    summary.setAttribute("aria-label", t("chat.menu", { name: message.username }));
    summary.title = summary.getAttribute("aria-label");
    const report = el("button", "chat-report", t("chat.report"));
    report.type = "button";
    report.addEventListener("click", () => {
      menu.open = false;
      reportForm(item, message);
    });
    const block = el("button", "chat-block", t("chat.block", { name: message.username }));
    block.type = "button";
    block.addEventListener("click", () => {
      menu.open = false;
      post("/@/" + encodeURIComponent(message.username) + "/block/", {}).then((data) => {
        say(data.error ? data.message || t("error.unknown") : t("chat.blocked", { name: message.username }), !!data.error);
      });
    });
    const items = el("div", "chat-menu-items");
    items.append(report, block);
    menu.append(summary, items);
    return menu;
  }

  function reportForm(item, message) {
    const template = $("chat-report-template");
    if (!template || item.querySelector(".chat-report-form")) return;
    const form = template.content.firstElementChild.cloneNode(true);
    form.querySelector(".chat-report-cancel").addEventListener("click", () => form.remove());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const fields = {
        reason: form.elements.reason.value,
        text: form.elements.text.value,
        match: table.root.dataset.match,
        message: message.id,
      };
      // A private table's line: the invitation shows the reporter could see it.
      if (table.root.dataset.token) fields.token = table.root.dataset.token;
      post("/@/" + encodeURIComponent(message.username) + "/report/", fields).then((data) => {
        say(data.message || t("error.unknown"), !!data.error);
        if (!data.error) form.remove();
      });
    });
    item.append(form);
    form.elements.reason.focus();
  }

  function post(path, fields) {
    return fetch(localPath(path), {
      method: "POST",
      body: new URLSearchParams(fields),
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": document.body.dataset.csrf || "" },
    }).then((response) => response.json().catch(() => ({ error: "unknown" })));
  }

  /** A word under the chat: what became of a report or a block. */
  function say(text, failed) {
    const note = $("chat-note");
    note.textContent = text;
    note.classList.toggle("failed", failed);
    note.hidden = false;
  }

  const form = $("chat-form");
  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("chat-text");
      const text = input.value.trim();
      if (!text) return;
      if (table.send({ type: "chat", text: text.slice(0, LONGEST) }, "chat")) {
        input.value = "";
        $("chat-error").hidden = true;
        focusBoard(); // the colour keys work again at once
      }
    });
    if (form.dataset.muted) setMuted(true, form.dataset.mutedUntil || null);
  }
  for (const button of document.querySelectorAll(".chat-preset")) {
    button.addEventListener("click", () => {
      if (table.send({ type: "chat", text: button.dataset.preset }, "chat")) $("chat-error").hidden = true;
      focusBoard();
    });
  }

  /** The member blocked or unblocked someone: the lines of the members blocked now are
      hidden, the others shown (the server sends no new line of theirs meanwhile). */
  function hide(usernames) {
    const blocked = new Set(usernames);
    for (const item of $("chat-list").querySelectorAll(".chat-message[data-author]")) {
      item.hidden = blocked.has(item.dataset.author);
    }
  }

  return { add, setMuted, hide };
}
