/* eslint-disable */
/**
 * Generated from schemas/conformance-report.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The machine-readable report of one `ctxpact check` run: a header, the implementations checked, one record per check and implementation, and a footer with totals.
 */
export interface ConformanceReport {
  /**
   * What ran: suite, spec and schema versions, profile and seed.
   */
  header: ReportHeader;
  /**
   * The implementations checked, in run order.
   */
  implementations: ReportImplementation[];
  /**
   * One record per check and implementation.
   */
  results: ReportResult[];
  /**
   * The checks an interrupted run did not run (SUITE-9), in run order; empty for a complete run.
   */
  notRun?: ReportNotRun[];
  /**
   * Totals over all results.
   */
  footer: ReportFooter;
}
/**
 * What ran.
 */
export interface ReportHeader {
  /**
   * Always ctxpact.
   */
  suite: 'ctxpact';
  /**
   * The version of the ctxpact package that ran the checks.
   */
  suiteVersion: string;
  /**
   * The version of spec/SPEC.md the checks verify.
   */
  specVersion: string;
  /**
   * The version of this report format.
   */
  schemaVersion: string;
  /**
   * The Hypothesis profile used.
   */
  profile: 'quick' | 'default' | 'thorough';
  /**
   * The seed given on the command line, or null for the profile's own (derandomised) choice.
   */
  seed: number | null;
}
/**
 * One implementation that was checked.
 */
export interface ReportImplementation {
  /**
   * The implementation's name, e.g. its import path.
   */
  name: string;
  /**
   * What kind of implementation it is.
   */
  component:
    | 'projector'
    | 'compact-policy'
    | 'agent-memory'
    | 'summary-parser'
    | 'session-store'
    | 'runtime'
    | 'memory-compressor'
    | 'functions';
  /**
   * What the implementation claims, which decides the checks that apply.
   */
  claims: ('generic' | 'pair-integrity' | 'wire-valid' | 'exact' | 'llm-summary')[];
  /**
   * The language it is written in.
   */
  language: string;
  /**
   * Its version, when known; empty otherwise.
   */
  version: string;
}
/**
 * One check's outcome for one implementation; its counterexample is, for a failure, the shrunk input that shows it (any JSON value), and null otherwise.
 */
export interface ReportResult {
  /**
   * The name of the implementation checked.
   */
  implementation: string;
  /**
   * The check's stable id.
   */
  checkId: string;
  /**
   * The SPEC.md clause ids the check verifies.
   */
  clauses: string[];
  /**
   * What the check verifies, in one line.
   */
  title: string;
  /**
   * How the check ended: pass, fail (including an unexpected pass of an expected failure), skip (not claimed or not applicable), xfail (an expected failure that failed), error (the implementation could not be built or exercised).
   */
  outcome: 'pass' | 'fail' | 'skip' | 'xfail' | 'error';
  /**
   * Seconds the check took.
   */
  duration: number;
  /**
   * Why it failed, was skipped or errored; empty on a pass.
   */
  message: string;
  counterexample: unknown;
  /**
   * For a failure, the one clause that broke when the check knows it (one of clauses); null otherwise.
   */
  clause?: string | null;
  /**
   * For a failure, what the implementation returned beside what the clause expected, when the check says; null otherwise.
   */
  mismatch?: null | ReportMismatch;
  /**
   * For an exception the implementation raised or an interrupted example, its own frame as path:line in function: source; null otherwise.
   */
  location?: string | null;
}
/**
 * What the implementation returned and what the broken clause expected: returned and expected are JSON values of any kind.
 */
export interface ReportMismatch {
  returned: unknown;
  expected: unknown;
}
/**
 * One check an interrupted run did not run.
 */
export interface ReportNotRun {
  /**
   * The name of the implementation.
   */
  implementation: string;
  /**
   * The check's stable id.
   */
  checkId: string;
}
/**
 * Totals.
 */
export interface ReportFooter {
  /**
   * Number of results.
   */
  total: number;
  /**
   * Results that passed.
   */
  passed: number;
  /**
   * Results that failed.
   */
  failed: number;
  /**
   * Results that were skipped.
   */
  skipped: number;
  /**
   * Expected failures that failed.
   */
  xfailed: number;
  /**
   * Results that errored.
   */
  errored: number;
  /**
   * Seconds the whole run took.
   */
  duration: number;
  /**
   * Whether Ctrl-C stopped the run before every check ran (notRun lists the rest).
   */
  interrupted?: boolean;
}
