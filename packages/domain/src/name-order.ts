/**
 * Wearers sort by how their name is read (あいうえお order): by the reading (furigana) when one is
 * given, otherwise by the name itself, with the collation of the reader's language ('ja' on the
 * server). Ties fall back to the name, then the id, so that the order is total and stable.
 */
export interface NameSortable {
  uid: string;
  name: string;
  nameReading?: string | null | undefined;
}

export const sortKeyOf = (w: NameSortable): string =>
  w.nameReading !== undefined && w.nameReading !== null && w.nameReading !== ''
    ? w.nameReading
    : w.name;

export function compareByReading(collator: Intl.Collator) {
  return (a: NameSortable, b: NameSortable): number =>
    collator.compare(sortKeyOf(a), sortKeyOf(b)) ||
    collator.compare(a.name, b.name) ||
    (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);
}
