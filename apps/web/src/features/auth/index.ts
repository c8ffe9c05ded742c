// Pages are imported by path (lazy, one chunk each); hooks through here.
export { useLogout } from './hooks/use-logout';
export { useAutoLogout } from './hooks/use-auto-logout';
