import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Prints one last line with the counts, so a CI log's tail says how the run went. */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<string, ReturnType<TestCase['outcome']>>();

  onTestEnd(test: TestCase, _result: TestResult): void {
    // The last result wins: a test that passed on retry counts once, as flaky.
    this.outcomes.set(test.id, test.outcome());
  }

  onEnd(result: FullResult): void {
    const count = (outcome: ReturnType<TestCase['outcome']>) =>
      [...this.outcomes.values()].filter((o) => o === outcome).length;
    const passed = count('expected');
    const failed = count('unexpected');
    const flaky = count('flaky');
    const skipped = count('skipped');
    console.log(
      `E2E ${result.status}: ${passed} passed, ${failed} failed, ${flaky} flaky, ${skipped} skipped`,
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
