const RELOADED_AT_KEY = 'veriform:preloadReloadAt';
const MIN_RELOAD_INTERVAL_MS = 60_000;

/**
 * SPEC §8: a failed preload of lazily loaded route code raises Vite's `vite:preloadError` event and is rethrown unless
 * the event is cancelled. The usual cause is a new deployment (old chunk names are gone): reload the page once to get
 * the new build; if that already happened in the last minute, let the error through to the error screen.
 */
export function installPreloadErrorHandler(win: Window = window): void {
  win.addEventListener('vite:preloadError', (event) => {
    let last = 0;
    try {
      last = Number(win.sessionStorage.getItem(RELOADED_AT_KEY) ?? 0);
    } catch {
      return;
    }
    if (Date.now() - last < MIN_RELOAD_INTERVAL_MS) return;
    event.preventDefault();
    try {
      win.sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
    } catch {
      return;
    }
    win.location.reload();
  });
}
