import { useCallback, useEffect, useRef, useState } from 'react';

/** Where focus goes: an element's id, or a lookup run only once the render has been committed. */
export type FocusTarget = string | (() => HTMLElement | null | undefined);

/**
 * Moves focus to an element once the render that shows it has been committed. Calling it beside a state change (a
 * form closing, a row saved, fields marked invalid) focuses the element that change brings back; a
 * requestAnimationFrame could run before React committed that render and find nothing to focus (the flaky
 * notice-policy story).
 */
export function useFocusAfterRender(): (target: FocusTarget) => void {
  const pending = useRef<FocusTarget | null>(null);
  const [, render] = useState(0);
  // After every commit of the component: the one that carries the state change made beside the request.
  useEffect(() => {
    const target = pending.current;
    if (target === null) return;
    pending.current = null;
    (typeof target === 'string' ? document.getElementById(target) : target())?.focus();
  });
  return useCallback((target: FocusTarget) => {
    pending.current = target;
    render((n) => n + 1);
  }, []);
}

/** The first field a form marks invalid, looked up after the render that marks it. */
export const firstInvalidIn =
  (form: HTMLElement | null): (() => HTMLElement | null | undefined) =>
  () =>
    form?.querySelector<HTMLElement>('[aria-invalid="true"]');
