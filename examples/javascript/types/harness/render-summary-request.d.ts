/* eslint-disable */
/**
 * Generated from schemas/harness/render-summary-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Render a structured summary as the Markdown text a memory stores, with a functions target's renderer (PRS-13, PRS-14). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface RenderSummaryRequest {
  seq: unknown;
  /**
   * The command: render_summary.
   */
  cmd: 'render_summary';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The summary to render.
   */
  summary: StructuredSummary;
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
