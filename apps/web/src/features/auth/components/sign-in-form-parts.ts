/** Shared by the sign-in forms. */
export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-teal-600';

/** Mails and SMS in the page's language (the server knows ja and en). */
export const localeOf = (language: string): 'ja' | 'en' =>
  language.startsWith('en') ? 'en' : 'ja';

/** A text field of a submitted form ('' when absent). */
export function formText(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}
