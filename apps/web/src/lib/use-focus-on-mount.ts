import { useEffect, useRef } from 'react';

/** Puts the keyboard on an element when the page opens (the first field of a form). */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
