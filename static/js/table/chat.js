/* The table's chat: messages shown once each (a resync may repeat them) as plain text,
   and the form that sends one. */

import { byId as $, el } from "../dom.js";
import { focusBoard } from "./keys.js";
import { userLink } from "./seats.js";

const LONGEST = 500;

/** Wire the chat form (members only) and return add(message) for a "chat" message,
    setMuted(muted, until) for the moderators' word on this member's chat and
    hide(usernames) for the members this one blocked. */
export function setupChat(table) {
  const { t } = table.texts;
  const seen = new Set();

  /** A muted member's chat box is disabled and says why, and until when. */
  function setMuted(muted, until) {
    const form = $("chat-form");
    if (!form) return;
    const input = $("chat-text");
    const note = $("chat-muted");
    input.disabled = muted;
    form.querySelector("button").disabled = muted;
    form.classList.toggle("muted", muted);
    if (!muted) {
      note.hidden = true;
      delete form.dataset.muted;
      return;
    }
    form.dataset.muted = "1";
    if (until) {
      const when = new Date(until).toLocaleString(table.texts.lang, { dateStyle: "medium", timeStyle: "short" });
      note.textContent = t("chat.muted_until", { time: when });
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
    item.append(el("span", "chat-text", message.text));
    list.append(item);
    list.scrollTop = list.scrollHeight;
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
