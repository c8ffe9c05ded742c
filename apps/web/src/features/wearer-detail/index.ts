export { HistoryPanel } from './components/history-panel';
export { summarise, historyQuery } from './api/history-api';
