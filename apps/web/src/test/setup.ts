import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { installSpecErrorMessages } from '@veriform/contracts';
import { afterEach, vi } from 'vitest';
import { preloadNotificationsHost } from '../components/DeferredNotifications';
import { preloadComboboxes } from '../components/form/comboboxes';
import { preloadAccountMenu } from '../features/shell/components/AccountMenu';

installSpecErrorMessages();

// Toasts are looked for as soon as the action is done: the container the app fetches with the first toast is here.
await preloadNotificationsHost();
// So are the code of the account menu and of the selects, which the app fetches after the page has shown.
await Promise.all([preloadAccountMenu(), preloadComboboxes()]);

// findBy… and waitFor are hang detectors, not speed checks: their 1 s default failed journeys that were only slow
// while the 2-core CI machine ran the API tests beside them (2026-11-24, load ~12).
configure({ asyncUtilTimeout: 5_000 });

// Mantine needs these browser APIs, which jsdom does not implement.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub;
window.HTMLElement.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};
// Image previews use object URLs, which jsdom does not implement.
if (typeof URL.createObjectURL !== 'function') {
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => {};
}

/**
 * Empties the style sheets of `<style>` elements no longer in the document. jsdom keeps in `document.styleSheets` the
 * sheet of a `<style>` whose text React set (`dangerouslySetInnerHTML`: Mantine's inline styles, one per styled
 * component) after the element leaves the page, and every `getComputedStyle` (each `ByRole` query's visibility check)
 * reads every sheet's rules. Files share a worker's document (isolate: false), so the sheets piled up through a worker's
 * files (~130 after ManageTeam's 16 tests, ~520 a few files later) and each file ran slower than the one before; their
 * rules (classes like `.__m__-_r_17_`, whose ids repeat from one render to the next) could even reach later tests'
 * elements. A browser drops a sheet with its element.
 */
function emptyDetachedStyleSheets(): void {
  for (const sheet of Array.from(document.styleSheets)) {
    if (sheet.ownerNode?.isConnected !== false) continue;
    while (sheet.cssRules.length > 0) sheet.deleteRule(sheet.cssRules.length - 1);
  }
}

afterEach(() => {
  cleanup();
  emptyDetachedStyleSheets();
  // Files share a worker's modules (isolate: false in vitest.config.ts): nothing a test stubs may outlive it.
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // Toasts live in a module-wide store: none may leak into the next test.
  notifications.clean();
  window.sessionStorage.clear();
  window.localStorage.clear();
});
