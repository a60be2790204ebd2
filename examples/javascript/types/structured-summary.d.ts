/* eslint-disable */
/**
 * Generated from schemas/structured-summary.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

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
