let audio: AudioContext | undefined;

/** A beep and buzz per slab (a refusal lower, twice): eyes stay on the slabs. */
export function scanFeedback(kind: 'ok' | 'refused' = 'ok'): void {
  try {
    navigator.vibrate?.(kind === 'ok' ? 60 : [80, 60, 80]);
  } catch {
    // No vibration here: the beep still sounds.
  }
  try {
    audio ??= new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = kind === 'ok' ? 1320 : 330;
    gain.gain.value = 0.08;
    oscillator.connect(gain).connect(audio.destination);
    const now = audio.currentTime;
    oscillator.start(now);
    oscillator.stop(now + (kind === 'ok' ? 0.09 : 0.25));
  } catch {
    // Sound refused (no user gesture yet, or no audio device): the list on screen still grows.
  }
}
