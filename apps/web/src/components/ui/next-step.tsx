import { AppLink } from '../../lib/app-path';
import { focusRing } from './button';

/** An empty page's next step: what to do and a link to the page that does it (issue 35). */
export function NextStep({
  text,
  to,
  label,
  testId,
}: {
  text: string;
  to: string;
  label: string;
  testId?: string;
}) {
  return (
    <p>
      {text}{' '}
      <AppLink
        to={to}
        data-testid={testId}
        className={`font-medium text-teal-700 underline underline-offset-4 ${focusRing}`}
      >
        {label}
      </AppLink>
    </p>
  );
}
