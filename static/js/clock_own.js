/* A clock of one's own (SPEC §3, §10). The forms of a table and a challenge list the
   presets and "your own clock", an option hidden until this script shows it. Choosing it
   shows two number inputs, minutes and seconds added per move; the option's value follows
   them as "m+s" ("7+4", "0.5+3"), which is what the form posts as `clock`. The server
   checks it and says what is wrong; without this script the forms offer the presets. */

/** Wire one clock list: the option and its inputs, found by the list's id. */
function wire(select) {
  const option = select.querySelector("option[data-clock-own]");
  const box = document.querySelector(`[data-clock-own-for="${select.id}"]`);
  if (!option || !box) return;
  const minutes = box.querySelector("[data-clock-minutes]");
  const seconds = box.querySelector("[data-clock-seconds]");
  // Numbers as typed, written the one way the site writes a clock: "07" -> "7".
  const written = (input) => (input.value === "" ? "" : String(Number(input.value)));
  function update() {
    option.value = written(minutes) + "+" + written(seconds);
    const own = option.selected;
    box.hidden = !own;
    minutes.disabled = !own; // a hidden input never blocks sending a preset
    seconds.disabled = !own;
  }
  option.hidden = false;
  select.addEventListener("change", update);
  minutes.addEventListener("input", update);
  seconds.addEventListener("input", update);
  update();
}

for (const option of document.querySelectorAll("select option[data-clock-own]")) {
  wire(option.closest("select"));
}
