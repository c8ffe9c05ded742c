import { useTranslation } from 'react-i18next';
import type { SignInMethod } from '@wearable/domain';

/** Radio buttons: arrow keys move between methods, and screen readers hear the group's name and each choice. */
export function SignInMethodChoice({
  methods,
  value,
  onChange,
}: {
  methods: readonly SignInMethod[];
  value: SignInMethod;
  onChange: (method: SignInMethod) => void;
}) {
  const { t } = useTranslation();
  if (methods.length < 2) return null;
  return (
    <fieldset className="mt-6" data-testid="sign-in-methods">
      <legend className="text-sm font-medium text-slate-700">{t('login.methods.legend')}</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {methods.map((method) => (
          <label
            key={method}
            className="flex min-h-10 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 text-sm text-slate-800 has-[:checked]:border-teal-700 has-[:checked]:bg-teal-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-teal-600"
          >
            <input
              type="radio"
              name="sign-in-method"
              value={method}
              checked={value === method}
              onChange={() => onChange(method)}
              className="accent-teal-700"
            />
            {t(`login.methods.${method}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
