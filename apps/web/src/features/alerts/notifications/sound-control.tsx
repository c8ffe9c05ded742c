import { clsx } from 'clsx';
import { Volume2, VolumeX } from 'lucide-react';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../../components/ui/button';

/**
 * A band of the sticky header while the tab cannot sound an alert (the browser's autoplay policy holds the audio
 * until a gesture): says that sound is off and offers "音声通知を有効にする", which arms it from the click itself.
 *
 * Once sound is on (that click, or any first press on the page) the band says so and keeps its height until the
 * next page (`armed`): removing it at once moved the page up under the pointer, and the click that followed the
 * press landed on whatever slid under it.
 */
export function SoundControl({ armed, onEnable }: { armed: boolean; onEnable: () => void }) {
  const { t } = useTranslation('alerts');
  const hintId = useId();
  const band = useRef<HTMLDivElement>(null);
  const [offHeight, setOffHeight] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (!armed && band.current) setOffHeight(band.current.offsetHeight);
  }, [armed]);
  if (armed) {
    return (
      <div
        ref={band}
        data-testid="sound-on-notice"
        role="status"
        style={offHeight === null ? undefined : { minHeight: offHeight }}
        className="flex border-t border-teal-300 bg-teal-50 text-teal-950"
      >
        <div className="mx-auto flex w-full max-w-6xl items-center gap-x-3 px-4 py-1.5">
          <Volume2 aria-hidden="true" className="size-5 shrink-0" />
          <p className="min-w-0 flex-1 text-sm font-semibold">{t('attention.soundOn')}</p>
        </div>
      </div>
    );
  }
  return (
    <div
      ref={band}
      data-testid="sound-control"
      className="border-t border-amber-300 bg-amber-50 text-amber-950"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-1.5">
        <VolumeX aria-hidden="true" className="size-5 shrink-0" />
        <p className="min-w-0 flex-1 text-sm">
          <strong className="font-semibold">{t('attention.soundOff')}</strong>{' '}
          <span id={hintId} className="sr-only sm:not-sr-only">
            {t('attention.soundOffHint')}
          </span>
        </p>
        <button
          type="button"
          data-testid="enable-sound"
          aria-describedby={hintId}
          onClick={onEnable}
          className={clsx(
            'inline-flex min-h-11 items-center gap-2 rounded-md bg-amber-900 px-3 text-sm font-medium text-white hover:bg-amber-950',
            focusRing,
          )}
        >
          <Volume2 aria-hidden="true" className="size-4 shrink-0" />
          {t('attention.enableSound')}
        </button>
      </div>
    </div>
  );
}
