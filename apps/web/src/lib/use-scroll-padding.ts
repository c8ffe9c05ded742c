import { useCallback, useRef } from 'react';

/** Room kept between a focused control and the sticky element's lower edge. */
const GAP_PX = 8;

/**
 * Keeps the document's `scroll-padding-top` equal to the height of a sticky element (the header, which grows while
 * the alert popup shows), so Tab and Shift+Tab never leave the focused control hidden under it.
 * Returns the ref callback to put on that element.
 */
export function useScrollPaddingBelow<T extends HTMLElement>(): (element: T | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((element: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    const root = document.documentElement;
    if (element === null) {
      root.style.removeProperty('scroll-padding-top');
      return;
    }
    const update = () =>
      root.style.setProperty('scroll-padding-top', `${element.offsetHeight + GAP_PX}px`);
    update();
    if (typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(update);
    observer.current.observe(element);
  }, []);
}
