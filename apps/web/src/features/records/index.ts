export { RECORD_PERIODS, type RecordPeriod } from './api/records-api';
export { RecordView } from './components/record-view';
