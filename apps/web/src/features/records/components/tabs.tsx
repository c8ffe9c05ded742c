import { clsx } from 'clsx';
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { focusRing } from '../../../components/ui/button';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  panel: ReactNode;
}

interface TabsProps<K extends string> {
  label: string;
  items: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
}

/** WAI-ARIA tabs: one tab stop, arrows / Home / End move between tabs, only the chosen panel renders. */
export function Tabs<K extends string>({ label, items, selected, onSelect }: TabsProps<K>) {
  const id = useId();
  const buttons = useRef(new Map<K, HTMLButtonElement>());
  const index = Math.max(
    0,
    items.findIndex((i) => i.key === selected),
  );
  const current = items[index];

  const move = (event: KeyboardEvent) => {
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % items.length
        : event.key === 'ArrowLeft'
          ? (index + last) % items.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const item = next === null ? undefined : items[next];
    if (item === undefined) return;
    event.preventDefault();
    onSelect(item.key);
    buttons.current.get(item.key)?.focus();
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label={label}
        className="flex flex-wrap gap-1 border-b border-slate-200"
        onKeyDown={move}
      >
        {items.map((item) => {
          const active = item.key === current?.key;
          return (
            <button
              key={item.key}
              ref={(el) => {
                if (el) buttons.current.set(item.key, el);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${item.key}`}
              aria-selected={active}
              aria-controls={`${id}-panel`}
              tabIndex={active ? 0 : -1}
              data-testid={`record-tab-${item.key}`}
              onClick={() => onSelect(item.key)}
              className={clsx(
                '-mb-px min-h-10 border-b-2 px-3 text-sm font-medium',
                active
                  ? 'border-teal-700 text-teal-800'
                  : 'border-transparent text-slate-600 hover:text-slate-900',
                focusRing,
              )}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={`${id}-panel`}
          aria-labelledby={`${id}-tab-${current.key}`}
          tabIndex={0}
          className={clsx('pt-4', focusRing)}
        >
          {current.panel}
        </div>
      )}
    </div>
  );
}
