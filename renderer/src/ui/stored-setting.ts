/**
 * A setting of this computer kept in the renderer's localStorage (a preference, not a profile's or the desk's), read
 * as React state: every component using the same key sees a change at once, and another window of the console
 * changing it too. `read` turns the stored text (null when none) into the value; a value of null removes the key.
 */
import { useCallback, useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another window of the console changing it.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function storedText(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The setting under `key` (none: `key` null) and the function that changes it; storage refused keeps it as it was. */
export function useStoredSetting<T>(
  key: string | null,
  read: (text: string | null) => T,
  write: (value: T) => string | null,
): [T, (value: T) => void] {
  const value = useSyncExternalStore(subscribe, () => read(key === null ? null : storedText(key)));
  const save = useCallback(
    (next: T) => {
      if (key === null) return;
      const text = write(next);
      try {
        if (text === null) localStorage.removeItem(key);
        else localStorage.setItem(key, text);
      } catch {
        // Storage refused: the setting keeps the value it had.
      }
      for (const listener of listeners) listener();
    },
    [key, write],
  );
  return [value, save];
}
