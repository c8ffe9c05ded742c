/** Why an enrolment link did not enrol this phone (each has its own sentence on the screen). */
export type EnrolProblem =
  'used' | 'expired' | 'replaced' | 'unknown' | 'tooMany' | 'offline' | 'failed';
