export { invalidateHeatRuleReports } from './api/get-heat-rule-report';
export { HeatRuleView } from './components/heat-rule-view';
