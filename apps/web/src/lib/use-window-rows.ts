import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useLayoutEffect, useState } from 'react';

/** Rows drawn beyond the screen each way: Tab moves into a row that is already there. */
const OVERSCAN = 8;

/**
 * Up to this many rows the whole list is drawn: a site's list stays complete for the browser's find,
 * a screen reader's list navigation and printing. Only longer lists are drawn a screen at a time.
 */
export const WHOLE_LIST_MAX = 150;

/**
 * A list drawn whole, or when long a screen at a time while the page itself scrolls (so the header, the filters
 * and the browser's own find and keyboard scrolling work as on any page). Gives the rows on screen
 * and the space above and below them; rows are measured as drawn (a row of badges may wrap).
 */
export function useWindowRows(
  listRef: RefObject<HTMLElement | null>,
  count: number,
  estimate: number,
) {
  const [margin, setMargin] = useState(0);
  // Where the list starts on the page (what is above it changes with the data and the filters).
  useLayoutEffect(() => {
    const top = listRef.current?.getBoundingClientRect().top ?? 0;
    setMargin(Math.max(0, Math.round(top + window.scrollY)));
  }, [listRef, count]);
  const windowed = count > WHOLE_LIST_MAX;
  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => estimate,
    overscan: OVERSCAN,
    scrollMargin: margin,
    enabled: windowed,
  });
  if (!windowed) {
    return {
      items: Array.from({ length: count }, (_, index) => ({ index })),
      before: 0,
      after: 0,
      measure: noMeasure,
    };
  }
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const before = first ? first.start - margin : 0;
  const after = last ? virtualizer.getTotalSize() - (last.end - margin) : 0;
  return {
    items,
    before: Math.max(0, before),
    after: Math.max(0, after),
    measure: virtualizer.measureElement,
  };
}

/** A whole list is not measured. */
function noMeasure(): void {}
