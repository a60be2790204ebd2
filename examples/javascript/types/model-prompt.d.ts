/* eslint-disable */
/**
 * Generated from schemas/model-prompt.schema.json by json-schema-to-typescript
 * (examples/javascript/scripts/generate-types.mjs). Do not edit: run `npm run types`.
 */

/**
 * One request to a model.
 */
export interface ModelPrompt {
  /**
   * The model's name (may be empty).
   */
  model: string;
  /**
   * The system prompt, or null.
   */
  systemPrompt: string | null;
  /**
   * The prompt's items.
   *
   * Items: One memory item: any JSON value. Structure-aware rules look only at JSON objects (messages, tool results, reasoning items); other values pass through unchanged (JSON-1).
   */
  items: unknown[];
}
