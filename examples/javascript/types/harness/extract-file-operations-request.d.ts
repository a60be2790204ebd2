/* eslint-disable */
/**
 * Generated from schemas/harness/extract-file-operations-request.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * List the files the tool calls of items read or modify, with a functions target's file tracking (FIL-1 .. FIL-7). The request's id (seq) is any JSON value, chosen by the suite and opaque to the harness, which echoes it unchanged in the response.
 */
export interface ExtractFileOperationsRequest {
  seq: unknown;
  /**
   * The command: extract_file_operations.
   */
  cmd: 'extract_file_operations';
  /**
   * The name of one of the targets the harness declared in its start response.
   */
  target: string;
  /**
   * The items, oldest first.
   */
  items: unknown[];
  /**
   * true for the files read, false for the files modified.
   */
  reads: boolean;
}
