export { RECORD_PERIODS, type RecordPeriod } from './api/records-api';
export { RecordView } from './components/record-view';
export { MonthlyReport } from './components/monthly-report';
export { isMonth } from './report-math';
export { monthOf } from './api/records-api';
