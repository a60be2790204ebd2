/* eslint-disable */
/**
 * Generated from schemas/harness/parse-summary-response.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * The answer to parse_summary. Besides seq, exactly one of result, skipped and errored.
 */
export interface ParseSummaryResponse {
  /**
   * The seq of the request answered, echoed unchanged.
   */
  seq: unknown;
  result?: StructuredSummary;
  skipped?: Skipped;
  errored?: Errored;
}
/**
 * The parsed summary.
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
 * The harness does not implement the request.
 */
export interface Skipped {
  /**
   * Why, for the report (e.g. 'memory is not implemented').
   */
  reason: string;
}
/**
 * The operation raised an error inside the harness.
 */
export interface Errored {
  /**
   * What went wrong, in one line if possible.
   */
  message: string;
  /**
   * The implementation's stack trace, or null (absent: null).
   */
  traceback?: string | null;
}
