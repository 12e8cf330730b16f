/* Notifications in the browser (SPEC §14): a challenge, the member's turn while the tab is
   hidden, and an arena pairing each show one, once the member turned them on in this
   browser (the preferences page: the browser asks for its permission there). The choice
   is kept in this browser, as the permission is. The tab title and the sound stay as
   they are. Every text comes from the page (<template id="site-texts">). */

import { readTexts } from "./texts.js";

const KEY = "vog-notifications";
const { t } = readTexts("site-texts");

function stored() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch (error) {
    return false; // storage refused (private mode): off
  }
}

function store(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch (error) {
    // nothing to keep it in: it stays off
  }
}

/** Whether a notification would show now: turned on here and allowed by the browser. */
export function enabled() {
  return "Notification" in window && Notification.permission === "granted" && stored();
}

/** Show one, if the member turned them on; tag replaces an earlier one of the same tag. */
export function desktopNotify(key, values, tag) {
  if (!enabled()) return null;
  try {
    return new Notification(t("notification.title"), { body: t(key, values), tag: tag || key });
  } catch (error) {
    return null; // some browsers allow them only from a service worker
  }
}

/** The preferences page's switch (#browser-notifications): asks the browser on turning on. */
function setupSwitch() {
  const box = document.getElementById("browser-notifications");
  if (!box) return;
  const toggle = box.querySelector("input[type=checkbox]");
  const status = box.querySelector(".notifications-status");
  box.hidden = false;
  function render() {
    const supported = "Notification" in window;
    toggle.disabled = !supported || Notification.permission === "denied";
    toggle.checked = enabled();
    status.textContent = !supported
      ? t("notification.unsupported")
      : Notification.permission === "denied"
        ? t("notification.denied")
        : enabled()
          ? t("notification.on")
          : t("notification.off");
  }
  toggle.addEventListener("change", () => {
    if (!toggle.checked) {
      store(false);
      render();
      return;
    }
    Notification.requestPermission().then((answer) => {
      store(answer === "granted");
      render();
    });
  });
  render();
}

setupSwitch();
