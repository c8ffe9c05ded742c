import { useCallback, useEffect, useState } from 'react';

/**
 * Moves focus to the element with an id once the render that shows it has been committed. Calling it beside a
 * state change (a form closing, a row saved) focuses the element that change brings back; a requestAnimationFrame
 * could run before React committed that render and find nothing to focus (the flaky notice-policy story).
 */
export function useFocusAfterRender(): (id: string) => void {
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => {
    if (pending === null) return;
    document.getElementById(pending)?.focus();
    setPending(null);
  }, [pending]);
  return useCallback((id: string) => setPending(id), []);
}
