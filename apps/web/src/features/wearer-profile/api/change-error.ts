/** The field an issue path names: 'body.birthDate' or ['birthDate']. */
export const fieldOf = (path: readonly PropertyKey[] | string): string => {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  return (parts[0] === 'body' ? parts[1] : parts[0]) ?? '';
};
