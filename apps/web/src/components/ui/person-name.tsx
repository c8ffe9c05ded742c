import type { HTMLAttributes } from 'react';

const JAPANESE_SCRIPT = /[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]/;

/** The language of a person's name as written: Japanese script reads as Japanese even inside an English page. */
export const nameLang = (name: string): 'ja' | undefined =>
  JAPANESE_SCRIPT.test(name) ? 'ja' : undefined;

/** A person's name, marked lang="ja" when written in Japanese so a screen reader pronounces it as Japanese. */
export function PersonName({ name, ...rest }: { name: string } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span lang={nameLang(name)} {...rest}>
      {name}
    </span>
  );
}
