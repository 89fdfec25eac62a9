/** Whether a key press comes from a place where typing goes (the page's shortcuts stay out). */
export const isTyping = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** Whether a key press is for the page: no modal dialog is open (a dialog's keys are its own). */
export const isPageKey = (event: KeyboardEvent): boolean =>
  !(event.target instanceof Element && event.target.closest('dialog')) &&
  document.querySelector('dialog[open]') === null;

/**
 * The issue last opened from a list: when the list shows again (Back), that row gets the focus,
 * so the keyboard goes on where it left.
 */
let opened: string | null = null;
export const rememberOpened = (id: string) => {
  opened = id;
};
export const takeOpened = (): string | null => {
  const id = opened;
  opened = null;
  return id;
};
