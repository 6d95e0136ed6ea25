import { useState } from 'react';
import { deferredModule } from '../../../lib/deferred-module';
import { AccountMenuButton } from './AccountMenuButton';

// The menu (Mantine's Menu with its popover, focus trap and floating-ui) is fetched after the page has shown.
const popup = deferredModule(() => import('./AccountMenuPopup'));

/** Fetches the menu ahead (component tests, which open it at once). */
export async function preloadAccountMenu(): Promise<void> {
  await popup.load();
}

/**
 * SPEC §2 account menu in the top bar. Until its code has arrived (soon after the page shows, or at once when the
 * button is pointed at, focused or pressed) the same button stands in: a press meanwhile opens the menu when it
 * arrives, and a focused button stays focused.
 */
export function AccountMenu() {
  const module = popup.useModule();
  const [focused, setFocused] = useState(false);
  const [pressed, setPressed] = useState(false);
  if (module) return <module.AccountMenuPopup focus={focused} open={pressed} />;

  const fetchMenu = () => void popup.load().catch(() => undefined);
  return (
    <AccountMenuButton
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={fetchMenu}
      onFocus={() => {
        setFocused(true);
        fetchMenu();
      }}
      onBlur={() => setFocused(false)}
      // A press counts from the pointer going down: the menu arriving between down and up would otherwise take the
      // press's click away (its target is gone), and the press would open nothing.
      onPointerDown={() => {
        setPressed(true);
        fetchMenu();
      }}
      onClick={() => {
        setPressed(true);
        fetchMenu();
      }}
    />
  );
}
