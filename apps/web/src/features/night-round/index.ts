export { NightRoundView } from './components/night-round-view';
