/* A short sound (the turn becoming the player's, a challenge), if the member turned it
   on (root's data-sound). Browsers allow audio only after a gesture on the page, so the
   first key or pointer press unlocks it. */

/** A page's sound: unlock() after a gesture or when it is turned on, beep(). */
export function createSound(root) {
  let audio = null;

  function soundOn() {
    return root.dataset.sound === "on";
  }

  function unlock() {
    if (!soundOn() || audio) return;
    try {
      audio = new (window.AudioContext || window.webkitAudioContext)();
    } catch (error) {
      audio = null;
    }
  }

  function beep() {
    if (!soundOn() || !audio) return;
    try {
      if (audio.state === "suspended") audio.resume();
      const now = audio.currentTime;
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = "sine";
      oscillator.frequency.setValueAtTime(660, now);
      oscillator.frequency.setValueAtTime(880, now + 0.09);
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.18, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now);
      oscillator.stop(now + 0.32);
    } catch (error) {
      /* no sound is fine */
    }
  }

  document.addEventListener("pointerdown", unlock);
  document.addEventListener("keydown", unlock);
  return { unlock, beep };
}
