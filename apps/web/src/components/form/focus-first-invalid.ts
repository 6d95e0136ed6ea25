/** After validation fails, put the keyboard on the first input that needs fixing. */
export function focusFirstInvalid(formElement: HTMLFormElement | null): void {
  if (!formElement) return;
  // Wait for React to render the error state (aria-invalid) before looking for it.
  window.setTimeout(() => {
    formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, 0);
}
