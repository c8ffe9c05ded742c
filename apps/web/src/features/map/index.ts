// Only what the shell needs: the page itself is its own chunk (app/pages/map-page.tsx imports it).
export { invalidatePlaceMap, MAP_LIVE_MS } from './api/get-place-map';
