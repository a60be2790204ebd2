/* eslint-disable */
/**
 * Generated from schemas/harness/parse-summary-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to parse_summary: exactly one of a result, a skip (skipped-outcome) and an error (errored-outcome), each with the request's seq, echoed unchanged.
 */
export type ParseSummaryResponse = ParseSummaryResultOutcome | SkippedOutcome | ErroredOutcome;

/**
 * The answer to parse_summary when it succeeded: the request's seq (any JSON value, echoed unchanged) and the result.
 */
export interface ParseSummaryResultOutcome {
  seq: unknown;
  /**
   * The parsed summary.
   */
  result: StructuredSummary;
}
/**
 * What the forgiving parser read from a summarizer model's output (PRS).
 */
export interface StructuredSummary {
  /**
   * The goal, trimmed; null when absent or blank.
   */
  goal?: string | null;
  /**
   * The 'completed' entries.
   */
  completed?: string[];
  /**
   * The 'pending' entries.
   */
  pending?: string[];
  /**
   * The 'decisions' entries.
   */
  decisions?: string[];
  /**
   * The 'errors' entries.
   */
  errors?: string[];
  /**
   * The 'testResults' entries.
   */
  testResults?: string[];
  /**
   * The 'openQuestions' entries.
   */
  openQuestions?: string[];
  /**
   * Files read, from a '## Files Read' section (FIL).
   */
  readFiles?: string[];
  /**
   * Files modified, from a '## Files Modified' section (FIL).
   */
  modifiedFiles?: string[];
  /**
   * False when no JSON object was found in the output.
   */
  parsed?: boolean;
  /**
   * When parsed is false, the trimmed raw output; when parsed is true, the compact JSON text of the object that was parsed (PRS-11).
   */
  text?: string;
}
/**
 * The answer to any request the harness does not implement: the request's seq (any JSON value, echoed unchanged) and why; the suite reports the check as skipped.
 */
export interface SkippedOutcome {
  seq: unknown;
  skipped: Skipped;
}
/**
 * The harness does not implement this request; the suite reports the check as skipped.
 */
export interface Skipped {
  /**
   * Why, for the report (e.g. 'memory is not implemented').
   */
  reason: string;
}
/**
 * The answer to a request whose operation raised an error inside the harness: the request's seq (any JSON value, echoed unchanged) and the error; the suite reports the check as errored.
 */
export interface ErroredOutcome {
  seq: unknown;
  errored: Errored;
}
/**
 * The operation raised an error inside the harness; the suite reports the check as errored.
 */
export interface Errored {
  /**
   * What went wrong, in one line if possible.
   */
  message: string;
  /**
   * The implementation's stack trace, or null.
   */
  traceback?: string | null;
}
