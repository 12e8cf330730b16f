/* The table's options (colour symbols, sound): applied at once, and saved for a member. */

import { byId as $ } from "../dom.js";

/** Wire the options form of the table in root; turning the sound on unlocks it. */
export function setupOptions(root, sound) {
  const form = $("options-form");

  function savePreference(name, on) {
    if (root.dataset.member !== "1") return Promise.resolve();
    const token = form.querySelector("[name=csrfmiddlewaretoken]").value;
    return fetch(root.dataset.preferenceUrl, {
      method: "POST",
      headers: { "X-CSRFToken": token },
      body: new URLSearchParams({ name: name, value: on ? "on" : "off" }),
      credentials: "same-origin",
    }).catch(() => undefined);
  }

  form.addEventListener("change", (event) => {
    const input = event.target;
    if (input.name === "color_symbols") {
      root.classList.toggle("symbols-on", input.checked);
      root.dataset.symbols = input.checked ? "on" : "off";
    } else if (input.name === "sound") {
      root.dataset.sound = input.checked ? "on" : "off";
      sound.unlock();
    } else {
      return;
    }
    savePreference(input.name, input.checked);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
}
