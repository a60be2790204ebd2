/* eslint-disable */
/**
 * Generated from schemas/conformance-report.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The machine-readable report of one `ctxpact check` run: a header, the implementations checked, one record per check and implementation, and a footer with totals.
 */
export interface ConformanceReport {
  header: Header;
  /**
   * The implementations checked, in run order.
   */
  implementations: Implementation[];
  /**
   * One record per check and implementation.
   */
  results: Result[];
  footer: Footer;
}
/**
 * What ran: suite, spec and schema versions, profile and seed.
 */
export interface Header {
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
export interface Implementation {
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
    | 'memory-compressor';
  /**
   * What the implementation claims, which decides the checks that apply.
   */
  claims: ('generic' | 'pair-integrity' | 'exact' | 'llm-summary')[];
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
 * One check's outcome for one implementation.
 */
export interface Result {
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
  /**
   * For a failure, the shrunk input that shows it, as JSON; null otherwise.
   */
  counterexample: unknown;
}
/**
 * Totals over all results.
 */
export interface Footer {
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
}
