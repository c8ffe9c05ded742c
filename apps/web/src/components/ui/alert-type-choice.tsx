import type { AlertType } from '@wearable/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from './button';

interface AlertTypeChoiceProps {
  type: AlertType;
  /** The type's name, as the page words it. */
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  disabled?: boolean;
  invalid?: boolean;
}

/**
 * One alert type to tick where types are chosen (notice recipients, alert settings): its name, and under it one
 * line saying when it fires (alerts:explain, the rules of PRODUCT.md), read to screen readers as the box's
 * description so its name stays the type's name.
 */
export function AlertTypeChoice({
  type,
  label,
  checked,
  onChange,
  testId,
  disabled,
  invalid,
}: AlertTypeChoiceProps) {
  const { t } = useTranslation('alerts');
  const explained = useId();
  return (
    <div className="flex flex-col">
      <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-invalid={invalid}
          aria-describedby={explained}
          onChange={(e) => onChange(e.target.checked)}
          data-testid={testId}
          className={`size-4 shrink-0 accent-teal-700 ${focusRing}`}
        />
        {label}
      </label>
      <p id={explained} className="-mt-2 mb-1 pl-6 text-xs text-slate-600">
        {t(`explain.${type}`)}
      </p>
    </div>
  );
}
