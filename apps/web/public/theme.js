// Before the first paint (a blocking script: the CSP allows no inline one): the theme this browser chose
// (src/lib/theme.ts, storage key "theme") on <html data-theme>; none stored follows the system's.
try {
  const theme = window.localStorage.getItem('theme');
  if (theme === 'light' || theme === 'dark')
    document.documentElement.setAttribute('data-theme', theme);
} catch (error) {
  // No storage (a locked-down browser): the system's theme.
}
