import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Moves focus to the element with an id once the render that shows it has been committed. Calling it beside a
 * state change (a form closing, a row saved) focuses the element that change brings back; a requestAnimationFrame
 * could run before React committed that render and find nothing to focus (the flaky notice-policy story).
 */
export function useFocusAfterRender(): (id: string) => void {
  const pending = useRef<string | null>(null);
  const [, render] = useState(0);
  // After every commit of the component: the one that carries the state change made beside the request.
  useEffect(() => {
    const id = pending.current;
    if (id === null) return;
    pending.current = null;
    document.getElementById(id)?.focus();
  });
  return useCallback((id: string) => {
    pending.current = id;
    render((n) => n + 1);
  }, []);
}
