import { useLayoutEffect, useRef } from 'react';

/**
 * A `<dialog>` shown modally while its component is mounted: the browser traps focus in it and Escape fires
 * `cancel`. Closed in a layout effect, before React removes it, so the browser gives focus back to the element
 * that opened it.
 */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return ref;
}
