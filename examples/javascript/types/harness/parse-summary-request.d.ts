/* eslint-disable */
/**
 * Generated from schemas/harness/parse-summary-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * Parse a summarizer model's output with a summary-parser target (PRS-n). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ParseSummaryRequest {
  seq: unknown;
  /**
   * The command: parse_summary.
   */
  cmd: 'parse_summary';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The model's output text.
   */
  text: string;
}
