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

afterEach(() => {
  cleanup();
  // Files share a worker's modules (isolate: false in vitest.config.ts): nothing a test stubs may outlive it.
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // Toasts live in a module-wide store: none may leak into the next test.
  notifications.clean();
  window.sessionStorage.clear();
  window.localStorage.clear();
});
